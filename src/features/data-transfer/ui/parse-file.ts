import Papa from 'papaparse';
import { readSheet } from 'read-excel-file/web-worker';
import type { Encoding, ParsedFile } from './parse-in-worker';

const day = (d: Date) => d.toISOString().slice(0, 10);

/** A spreadsheet's cell as text (dates as YYYY-MM-DD, as the forms take them). */
const cellText = (v: unknown) => (v === null || v === undefined ? '' : v instanceof Date ? day(v) : String(v));

/** The table of a file (decision 042): runs in a Web Worker in the browser (parse.worker.ts), or here in tests. */
export async function parseFile(buffer: ArrayBuffer, name: string, encoding: Encoding): Promise<ParsedFile> {
  let table: string[][];
  let delimiter: string | undefined;
  if (/\.xlsx$/i.test(name)) {
    try {
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
