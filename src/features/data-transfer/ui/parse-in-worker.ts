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

/** Parses in a Web Worker when the browser has one (the page stays responsive), in this thread otherwise. */
export function parseInWorker(file: File, encoding: Encoding): Promise<ParsedFile> {
  return readBytes(file).then((buffer) => {
    // No worker (the UI tests' jsdom): the same parser, loaded on demand.
    if (typeof Worker === 'undefined') return import('./parse-file').then((m) => m.parseFile(buffer, file.name, encoding));
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
