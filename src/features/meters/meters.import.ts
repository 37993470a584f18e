import Papa from 'papaparse';
import { and, eq, inArray, or } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { assets, meters } from '../../server/db/schema';
import { HttpError, notFound } from '../../server/http-error';
import { isDateInRange } from '../../shared/dates';
import { looksLikeFormula } from '../../shared/csv';
import { IMPORT_MAX_ROWS, readingValueField, type ImportIssue, type ReadingImport } from './meters.schema';
import { listMeters, recordReading } from './meters.service';
import { readOrgRow } from '../../server/db/org-rows';

/** Accepted header spellings (lower case, letters and digits only) of each column. */
const COLUMNS = {
  meter: ['meter', 'meterid', 'metername'],
  asset: ['asset', 'assetid', 'assetnumber', 'assetno'],
  value: ['value', 'reading'],
  readAt: ['readat', 'date', 'datetime', 'time', 'readingdate'],
  reset: ['reset'],
} as const;
type Column = keyof typeof COLUMNS;

const normal = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/** The offset of `timeZone` from UTC, in ms, at the instant `utc`. */
function zoneOffset(utc: number, timeZone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(utc))
      .map((p) => [p.type, Number(p.value)]),
  );
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) - Math.floor(utc / 1000) * 1000;
}

/**
 * "2026-03-31", "2026-03-31 14:30", "2026-03-31T14:30:00Z", "2026-03-31T14:30+04:00": a wall time without an
 * offset is read in `timeZone`. Undefined for anything else (no day-month guessing: 03/04 is ambiguous).
 */
export function parseReadAt(text: string, timeZone: string): Date | undefined {
  const m = DATE_TIME.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', offset] = m;
  const wall = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  const check = new Date(wall);
  // 2026-02-30 rolls over in Date.UTC: refuse it rather than read it as March.
  if (check.getUTCFullYear() !== +y || check.getUTCMonth() !== +mo - 1 || check.getUTCDate() !== +d || +h > 23 || +mi > 59 || +s > 59) return undefined;
  let utc: number;
  if (offset) {
    const o = /^([+-])(\d{2}):?(\d{2})$/.exec(offset);
    utc = o ? wall - (o[1] === '-' ? -1 : 1) * (+o[2] * 60 + +o[3]) * 60_000 : wall;
  } else {
    // Two passes find the instant whose wall time in the zone is `wall` (across a daylight-saving change too).
    utc = wall - zoneOffset(wall, timeZone);
    utc = wall - zoneOffset(utc, timeZone);
  }
  const date = new Date(utc);
  return isDateInRange(date) ? date : undefined;
}

/** "AS-0012", "as12" or "12" to 12. */
const assetNumber = (text: string) => {
  const m = /^(?:as-?)?0*(\d{1,9})$/i.exec(text.trim());
  return m ? Number(m[1]) : undefined;
};

interface ParsedRow {
  row: number;
  meter: string;
  asset?: number;
  value: number;
  readAt: Date;
  reset: boolean;
}

export type ReadingColumn = Column;

/** One row of readings: its line in the file and its cells by column. */
export interface ReadingCells {
  row: number;
  cells: Partial<Record<ReadingColumn, string>>;
}

/** A row whose cells and meter were found good, to be recorded. */
export interface CheckedReading {
  row: number;
  meterId: number;
  value: number;
  readAt: Date;
  reset: boolean;
}

/** A 400 listing every refused cell (`issues`: path `rows.<line>.<column>`); nothing of the file is kept. */
function refused(issues: ImportIssue[]) {
  const n = issues.length;
  return new HttpError(
    400,
    `The file has ${n} ${n === 1 ? 'error' : 'errors'}; nothing was imported`,
    issues.slice(0, 200).map((i) => ({ path: `rows.${i.row}.${i.column}`, message: i.message })),
  );
}

/**
 * Checks rows of readings (decision 031; the data-transfer wizard's `meter-readings` too, decision 042): formulas,
 * numbers, times read in `timeZone`, yes/no resets, and the meter named (by name on the row's asset, or `assetId`,
 * or by id). Each refused cell is an issue of its row and column key; the good rows come back, meters resolved.
 * `formulasFlagged`: the caller has already said which cells hold formulas (those rows are refused silently).
 */
export async function checkReadings(
  tx: ReadTx,
  orgId: number,
  input: ReadingCells[],
  options: { assetId?: number; timeZone: string; formulasFlagged?: boolean },
  issues: ImportIssue[],
): Promise<CheckedReading[]> {
  const rows: ParsedRow[] = [];
  for (const { row, cells } of input) {
    const cell = (c: Column) => String(cells[c] ?? '').trim();
    let ok = true;
    const fail = (c: Column, message: string) => {
      issues.push({ row, column: c, message });
      ok = false;
    };
    const check = (c: Column, value: string) => {
      if (looksLikeFormula(value)) {
        if (options.formulasFlagged) ok = false;
        else fail(c, 'Cell starts with = + - or @ and is not a number: formulas are not accepted');
        return false;
      }
      return true;
    };
    const meter = cell('meter');
    if (check('meter', meter) && !meter) fail('meter', 'Meter is required');
    let asset: number | undefined;
    const assetText = cell('asset');
    if (check('asset', assetText) && assetText) {
      asset = assetNumber(assetText);
      if (asset === undefined) fail('asset', 'Asset must be an asset number like AS-0001');
    }
    const valueText = cell('value');
    let value = 0;
    if (check('value', valueText)) {
      const v = readingValueField.safeParse(valueText);
      if (v.success) value = v.data;
      else fail('value', v.error.issues[0].message);
    }
    const readAtText = cell('readAt');
    let readAt: Date | undefined;
    if (check('readAt', readAtText)) {
      readAt = readAtText ? parseReadAt(readAtText, options.timeZone) : undefined;
      if (!readAtText) fail('readAt', 'Read at is required');
      else if (!readAt) fail('readAt', 'Read at must be a date like 2026-03-31 or 2026-03-31 14:30');
    }
    const resetText = cell('reset').toLowerCase();
    let reset = false;
    if (check('reset', resetText)) {
      if (['yes', 'y', 'true', '1'].includes(resetText)) reset = true;
      else if (!['', 'no', 'n', 'false', '0'].includes(resetText)) fail('reset', 'Reset must be yes or no');
    }
    if (ok && readAt) rows.push({ row, meter, asset, value, readAt, reset });
  }

  // The meters the rows name: of the assets named (or the asset imported from), or by id.
  const assetIds = [...new Set(rows.map((r) => r.asset ?? options.assetId!).filter(Boolean))];
  const meterIds = [...new Set(rows.filter((r) => /^\d{1,9}$/.test(r.meter)).map((r) => Number(r.meter)))];
  const known: { id: number; assetId: number; name: string }[] = [];
  // 1,000 at a time: a statement takes at most 65,535 parameters.
  for (let i = 0; i < Math.max(assetIds.length, meterIds.length); i += 1000) {
    const someAssets = assetIds.slice(i, i + 1000);
    const someMeters = meterIds.slice(i, i + 1000);
    known.push(
      ...(await tx
        .select({ id: meters.id, assetId: meters.assetId, name: meters.name })
        .from(meters)
        .where(
          and(
            eq(meters.orgId, orgId),
            or(someAssets.length ? inArray(meters.assetId, someAssets) : undefined, someMeters.length ? inArray(meters.id, someMeters) : undefined),
          ),
        )),
    );
  }
  const byAssetAndName = new Map<string, (typeof known)[number]>();
  for (const m of known) if (!byAssetAndName.has(`${m.assetId}/${m.name.toLowerCase()}`)) byAssetAndName.set(`${m.assetId}/${m.name.toLowerCase()}`, m);
  const byId = new Map(known.map((m) => [m.id, m]));
  const resolved: CheckedReading[] = [];
  for (const r of rows) {
    const assetId = r.asset ?? options.assetId;
    const named = byAssetAndName.get(`${assetId}/${r.meter.toLowerCase()}`);
    const numbered = /^\d{1,9}$/.test(r.meter) ? byId.get(Number(r.meter)) : undefined;
    const meter = named ?? (numbered && (assetId === undefined || numbered.assetId === assetId) ? numbered : undefined);
    if (!meter)
      issues.push({
        row: r.row,
        column: 'meter',
        message: assetId === undefined ? 'No such meter' : `Asset AS-${String(assetId).padStart(4, '0')} has no such meter`,
      });
    else resolved.push({ row: r.row, meterId: meter.id, value: r.value, readAt: r.readAt, reset: r.reset });
  }
  return resolved;
}

/**
 * Records checked readings (source `csv`) in time order (then file order), so each counter row is checked
 * against the one before it in time; a refused one is an issue of its row. Returns how many were recorded.
 */
export async function recordReadings(tx: Tx, orgId: number, readings: CheckedReading[], userId: number, issues: ImportIssue[]) {
  const ordered = [...readings].sort((a, b) => a.readAt.getTime() - b.readAt.getTime() || a.row - b.row);
  const field: Record<string, Column> = { value: 'value', readAt: 'readAt', reset: 'reset' };
  let recorded = 0;
  for (const r of ordered) {
    try {
      await recordReading(tx, orgId, { meterId: r.meterId, value: r.value, readAt: r.readAt, source: 'csv', reset: r.reset }, userId);
      recorded += 1;
    } catch (err) {
      // Refusals come before any write, so the transaction goes on.
      if (!(err instanceof HttpError)) throw err;
      issues.push({ row: r.row, column: field[err.issues?.[0]?.path ?? 'value'] ?? 'value', message: err.message });
    }
  }
  return recorded;
}

/**
 * POST import-meter-readings: every row of the file becomes a reading (source `csv`), or none does. Each
 * refused cell is reported with its line (the header is line 1) and column. Rows are recorded in time order, so
 * a counter's rows may come in any order as long as the values rise with time.
 */
export async function importReadings(tx: Tx, orgId: number, input: ReadingImport, userId: number) {
  if (input.assetId) {
    const asset = await readOrgRow(tx, assets, { id: assets.id }, orgId, input.assetId);
    if (!asset) throw notFound('Asset');
  }
  const parsed = Papa.parse<Record<string, string>>(input.csv.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (h) => h.trim(),
  });
  const issues: ImportIssue[] = [];
  const headers = parsed.meta.fields ?? [];
  const columnOf: Partial<Record<Column, string>> = {};
  for (const header of headers) {
    const key = (Object.keys(COLUMNS) as Column[]).find((c) => (COLUMNS[c] as readonly string[]).includes(normal(header)));
    if (!key) issues.push({ row: 1, column: header || '(blank)', message: 'Unknown column: use meter, asset, value, read at and reset' });
    else if (columnOf[key]) issues.push({ row: 1, column: header, message: `Column ${columnOf[key]} is already given` });
    else columnOf[key] = header;
  }
  const need = (c: Column, label: string) => !columnOf[c] && issues.push({ row: 1, column: label, message: `The file needs a ${label} column` });
  need('meter', 'meter');
  need('value', 'value');
  need('readAt', 'read at');
  if (!columnOf.asset && !input.assetId) issues.push({ row: 1, column: 'asset', message: 'The file needs an asset column (or import from the asset)' });
  if (issues.length) throw refused(issues);
  if (parsed.data.length === 0) throw refused([{ row: 2, column: columnOf.value!, message: 'The file has no readings' }]);
  if (parsed.data.length > IMPORT_MAX_ROWS)
    throw refused([{ row: IMPORT_MAX_ROWS + 2, column: columnOf.value!, message: `At most ${IMPORT_MAX_ROWS} readings per file` }]);
  for (const e of parsed.errors) {
    // Papa's row index counts data rows from 0; the file's line is two more (the header is line 1).
    if (e.code === 'TooManyFields' || e.code === 'TooFewFields' || e.type === 'Quotes')
      issues.push({
        row: (e.row ?? 0) + 2,
        column: '(row)',
        message: e.type === 'Quotes' ? 'A quote is not closed' : 'This row does not have one cell per column',
      });
  }
  const rows = parsed.data.map((cells, index) => ({
    row: index + 2,
    cells: Object.fromEntries((Object.keys(columnOf) as Column[]).map((c) => [c, String(cells[columnOf[c]!] ?? '')])),
  }));
  // Issues name column keys; the file's own headers are said.
  const found: ImportIssue[] = [];
  const readings = await checkReadings(tx, orgId, rows, { assetId: input.assetId ?? undefined, timeZone: input.timeZone }, found);
  const imported = await recordReadings(tx, orgId, readings, userId, found);
  issues.push(...found.map((i) => ({ ...i, column: columnOf[i.column as Column] ?? i.column })));
  if (issues.length) throw refused(issues.sort((a, b) => a.row - b.row));
  return {
    message: `Imported ${imported} ${imported === 1 ? 'reading' : 'readings'}`,
    imported,
    ...(input.assetId ? await listMeters(tx, orgId, input.assetId) : {}),
  };
}
