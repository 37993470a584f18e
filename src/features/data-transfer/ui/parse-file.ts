import Papa from 'papaparse';

/** The encodings offered: UTF-8 (with or without a BOM) and Windows-1256 (Arabic Excel's CSV). */
export const ENCODINGS = ['utf-8', 'windows-1256'] as const;
export type Encoding = (typeof ENCODINGS)[number];

export type ParseError = 'encoding' | 'empty' | 'oneColumn' | 'unreadable';

export interface ParsedFile {
  headers: string[];
  rows: string[][];
  /** The delimiter found (CSV), shown to the user. */
  delimiter?: string;
  error?: ParseError;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/** A spreadsheet's cell as text (dates as YYYY-MM-DD, as the forms take them). */
const cellText = (v: unknown) => (v === null || v === undefined ? '' : v instanceof Date ? day(v) : String(v));

/** The table of a file (decision 042): runs in a Web Worker in the browser (parse.worker.ts), or here in tests. */
export async function parseFile(buffer: ArrayBuffer, name: string, encoding: Encoding): Promise<ParsedFile> {
  let table: string[][];
  let delimiter: string | undefined;
  if (/\.xlsx$/i.test(name)) {
    try {
      const { readSheet } = await import('read-excel-file/web-worker');
      table = (await readSheet(buffer)).map((row) => row.map(cellText));
    } catch {
      return { headers: [], rows: [], error: 'unreadable' };
    }
  } else {
    let text: string;
    try {
      // fatal: a file that is not UTF-8 is said so (and Windows-1256 offered), never silently garbled; a BOM is dropped.
      text = new TextDecoder(encoding, { fatal: encoding === 'utf-8' }).decode(buffer);
    } catch {
      return { headers: [], rows: [], error: 'encoding' };
    }
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const parsed = Papa.parse<string[]>(text, { delimiter: '', delimitersToGuess: [',', ';', '\t', '|'], skipEmptyLines: 'greedy' });
    table = parsed.data;
    delimiter = parsed.meta.delimiter;
  }
  const [headers = [], ...rows] = table.filter((r) => r.some((c) => c.trim() !== ''));
  if (!headers.length || !rows.length) return { headers: headers.map((h) => h.trim()), rows: [], delimiter, error: 'empty' };
  if (headers.length === 1) return { headers, rows, delimiter, error: 'oneColumn' };
  return { headers: headers.map((h) => h.trim()), rows, delimiter };
}

/** Parses in a Web Worker when the browser has one (the page stays responsive), in this thread otherwise. */
export function parseInWorker(file: File, encoding: Encoding): Promise<ParsedFile> {
  return readBytes(file).then((buffer) => {
    if (typeof Worker === 'undefined') return parseFile(buffer, file.name, encoding);
    return new Promise<ParsedFile>((resolve, reject) => {
      const worker = new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module' });
      worker.onmessage = (e: MessageEvent<ParsedFile>) => {
        resolve(e.data);
        worker.terminate();
      };
      worker.onerror = (e) => {
        reject(new Error(e.message));
        worker.terminate();
      };
      worker.postMessage({ buffer, name: file.name, encoding }, [buffer]);
    });
  });
}

/** The file's bytes (FileReader: every browser, and jsdom in the UI tests). */
function readBytes(file: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsArrayBuffer(file);
  });
}
