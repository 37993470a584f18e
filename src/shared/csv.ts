/**
 * CSV both ways, for every feature (import, export, the insights' downloads): what a spreadsheet would run as a
 * formula (OWASP "CSV injection") is flagged on the way in and neutralised on the way out.
 */

/**
 * A cell a spreadsheet would run as a formula: starting with =, @, a tab or a carriage return, or with + or -
 * when the rest is not a plain number or phone number ("-5", "-12.5", "+966 55 123 4567" are data).
 */
export function looksLikeFormula(cell: string): boolean {
  if (!cell) return false;
  const first = cell[0];
  if (first === '=' || first === '@' || first === '\t' || first === '\r') return true;
  if (first === '+' || first === '-') return !/^[+-][\d\s().-]*\d[\d\s().]*$/.test(cell);
  return false;
}

/**
 * A text written to a CSV file with a leading apostrophe when a spreadsheet could run it (anything starting with
 * = + - @, a tab or a carriage return but a plain negative number): stricter than the check on the way in.
 */
export function neutralise(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
}

/** A value for a CSV file: neutralised, then quoted when needed. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const v = neutralise(value);
  const s = typeof v === 'string' ? v : String(v);
  return /[",\n\r;]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV line (CRLF ended, as RFC 4180 and Excel expect). */
export const csvLine = (cells: unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;
