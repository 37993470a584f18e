import Papa from 'papaparse';
import { neutralise } from '../../../shared/csv';
import { saveBlob } from '../../../web/lib/api';

/** The rows as CSV text (header from the first row's keys), every text cell neutralised. */
export function toCsv(rows: Record<string, unknown>[]): string {
  return Papa.unparse(rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, neutralise(v)]))));
}

/** Downloads the rows as `<name>.csv` (UTF-8 with a BOM, so spreadsheets read Arabic names right). */
export function downloadCsv(name: string, rows: Record<string, unknown>[]) {
  saveBlob(new Blob(['\uFEFF', toCsv(rows)], { type: 'text/csv;charset=utf-8' }), `${name}.csv`);
}
