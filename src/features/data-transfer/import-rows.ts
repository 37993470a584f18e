import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ZodType } from 'zod';
import { looksLikeFormula } from '../../shared/csv';
import type { ReadTx, Tx } from '../../server/db/client';
import {
  assetCategories,
  customerVendors,
  productCategories,
  taxes,
  teams,
  timeTrackingReasons,
  uomCategories,
  uoms,
  workStations,
} from '../../server/db/schema';
import { badRequest, HttpError } from '../../server/http-error';
import type { Mailer } from '../../server/mailer';
import type { AccessClaims } from '../auth/tokens';
import {
  CREATES_MISSING,
  IMPORT_COLUMNS,
  IMPORT_KEYS,
  IMPORT_MESSAGES,
  LIST_SEPARATOR,
  type ImportKind,
  type ImportProblem,
  type ImportRequest,
} from './data-transfer.schema';

// The import's machinery shared by every kind (decision 042): reading cells, checks, references, per-row writes.

export type Cells = Record<string, string>;
export interface Row {
  row: number;
  cells: Cells;
  /** Columns the file has and the row leaves empty: an update clears them. */
  blank: Set<string>;
  /** The record's display id of the export's ID column (`AS-0001` or `1`). */
  id?: number;
  /** The organisation's record the row updates (found by its key or its ID column). */
  match?: Current;
}

/** A record of the organisation as the import's cells (what its export would say, every import column). */
export interface Current {
  id: number;
  cells: Cells;
  /** The version an update claims (assets and parts, decision 025). */
  version?: number;
  /** The version an update claims where it is the record's `updatedAt` (work orders, decision 025). */
  updatedAt?: string;
  /**
   * The records the record links, by `column:lower-case name` -> id: a name several records share still means
   * the one the record has (an exported work order's asset or assignee of a common name re-imports as it was).
   */
  links?: Map<string, number>;
}

/** A row that passed its schema, waiting to be written. */
export interface Ready {
  row: number;
  input: unknown;
  /** The missing name (lower case) the row refers to, created first with `createMissing`. */
  pending?: string;
  /**
   * The input once the names the row refers to have ids (created missing records, earlier rows of the file);
   * throws an HttpError (the row's problem) when one has none.
   */
  finish?: () => unknown;
}

/** What an import's kinds share while it runs. */
export interface Run {
  orgId: number;
  actor: AccessClaims;
  request: ImportRequest;
  problems: ImportProblem[];
  mail: ImportMail;
  /** The referenced records the rows name (lower-case name or code -> id), also those created on the way. */
  refs: Map<string, number>;
  /** Referenced names the organisation lacks (lower case -> as written), offered for creation. */
  missing: Map<string, string>;
}

/** How an invitation e-mail reaches the person (the users kind). */
export interface ImportMail {
  mailer: Mailer;
  /** The organisation's origin, for the link. */
  origin: string;
}

/** Maps a schema or service issue's path to the file's column (a key of IMPORT_COLUMNS), or null for the row. */
export type ColumnOf = Record<string, string> | ((path: readonly PropertyKey[]) => string | null);

export interface Importer {
  /** The key column's table (duplicates against the organisation). */
  key?: { table: PgTable; orgId: AnyPgColumn; id: AnyPgColumn; column: AnyPgColumn };
  /** Reads the names the rows refer to and checks each row with the feature's own input schema. */
  prepare(tx: Tx, run: Run, rows: Row[]): Promise<Ready[]>;
  /** Creates one missing referenced record (`createMissing`); returns its id. */
  createMissing?(tx: Tx, run: Run, name: string): Promise<number>;
  /** Writes the ready rows through the feature's service; returns how many were written. */
  write(tx: Tx, run: Run, ready: Ready[]): Promise<number>;
  /**
   * Re-import: the records the rows name read through the feature (missing ids left out), so that a row
   * updates its record (only the columns it has) rather than duplicate it.
   */
  current?(tx: Tx, run: Run, ids: number[]): Promise<Current[]>;
  /** Writes one updated row through the feature's update service. */
  update?(tx: Tx, run: Run, current: Current, input: unknown): Promise<unknown>;
  /** How a service's issue path names the file's column (updates). */
  columnOf?: ColumnOf;
  /**
   * Finds the record each row updates when no one column names it (a work order's lines, decision 059): sets
   * `match` and overlays the cells as `matchRows` does; duplicates in the file are its problems.
   */
  match?(tx: Tx, run: Run, rows: Row[]): Promise<void>;
}

/** Thrown inside the write's savepoint to undo it (dry run, or an all-or-nothing import with problems). */
export class Undo extends Error {}

export const lower = (s: string) => s.trim().toLowerCase();

/** A name for a record created from a reference: the forms want 3 to 100 characters. */
export const creatableName = (name: string) => name.slice(0, 100).padEnd(3, '.');

/** The names of a cell that lists several (`WS-01; WS-02`). */
export const listOf = (cell: string | undefined) =>
  (cell ?? '')
    .split(LIST_SEPARATOR)
    .map((s) => s.trim())
    .filter(Boolean);

/** An export's neutralised cell (`'+cmd`) back as it was: the import flags it again if it is a formula. */
export const unneutralised = (v: string) => (/^'[=+\-@]/.test(v) ? v.slice(1) : v);

/** Reads the rows' cells, flags formulas, unknown columns and duplicate keys; drops the export-only columns. */
export function readCells(kind: ImportKind, request: ImportRequest, problems: ImportProblem[]): Row[] {
  const columns = new Map(IMPORT_COLUMNS[kind].map((c) => [c.key, c]));
  const keyColumn = IMPORT_KEYS[kind];
  const seen = new Map<string, number>();
  return request.rows.map((raw, i) => {
    const row = request.firstRow + i;
    const cells: Cells = {};
    const blank = new Set<string>();
    let id: number | undefined;
    for (const [column, value] of Object.entries(raw)) {
      const known = columns.get(column);
      if (!known) {
        problems.push({ row, column, message: IMPORT_MESSAGES.unknownColumn });
        continue;
      }
      const v = unneutralised((value ?? '').trim());
      if (known.exportOnly === 'id') id = displayIdOf(v);
      if (known.exportOnly) continue;
      if (looksLikeFormula(v)) problems.push({ row, column, message: IMPORT_MESSAGES.formula });
      if (v !== '') cells[column] = v;
      else blank.add(column);
    }
    const key = keyColumn && cells[keyColumn] && lower(cells[keyColumn]);
    if (keyColumn && key) {
      const first = seen.get(key);
      if (first !== undefined) problems.push({ row, column: keyColumn, message: IMPORT_MESSAGES.duplicateInFile(first) });
      else seen.set(key, row);
    }
    return { row, cells, blank, id };
  });
}

/** The number of an export's display id (`AS-0001`, `PM-PLAN-0001`, `7`); anything else is no id. */
export function displayIdOf(v: string) {
  const m = /^(?:[A-Za-z]{1,5}-){0,2}0*(\d{1,10})$/.exec(v);
  const n = m ? Number(m[1]) : NaN;
  return Number.isSafeInteger(n) && n >= 1 && n <= 2147483647 ? n : undefined;
}

export function columnFor(columnOf: ColumnOf, path: readonly PropertyKey[]): string | null {
  if (typeof columnOf === 'function') return columnOf(path);
  const field = String(path[0] ?? '');
  return field ? (columnOf[field] ?? field) : null;
}

/** Runs the feature's schema; its issues become problems on the file's columns. */
export function check<T>(schema: ZodType<T>, body: Record<string, unknown>, row: number, columnOf: ColumnOf, problems: ImportProblem[]): T | undefined {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const said = new Set<string>();
  for (const issue of parsed.error.issues) {
    const problem = { row, column: columnFor(columnOf, issue.path), message: issue.message };
    // Two fields of one column (the invitation's e-mail and its confirmation) say a message once.
    if (said.has(`${problem.column}\n${problem.message}`)) continue;
    said.add(`${problem.column}\n${problem.message}`);
    problems.push(problem);
  }
  return undefined;
}

/** Rows with a problem: they are not written. */
export const rowsWith = (problems: ImportProblem[]) => new Set(problems.map((p) => p.row));

/** Names (lower case) -> id of a small table of the organisation, by name and, where it has one, by code. */
export async function lookup(
  tx: ReadTx,
  table:
    | typeof assetCategories
    | typeof productCategories
    | typeof uoms
    | typeof uomCategories
    | typeof teams
    | typeof workStations
    | typeof taxes
    | typeof timeTrackingReasons,
  orgId: number,
) {
  const map = new Map<string, number>();
  const rows = await tx.select().from(table).where(eq(table.orgId, orgId));
  for (const r of rows as { id: number; name: string; code?: string }[]) {
    if (r.code) map.set(lower(r.code), r.id);
    if (!map.has(lower(r.name))) map.set(lower(r.name), r.id);
  }
  return map;
}

/** Customers and vendors named by the rows (name or e-mail), lower case -> id. */
export async function partiesNamed(tx: ReadTx, orgId: number, names: string[]) {
  const map = new Map<string, number>();
  const wanted = [...new Set(names.map(lower))];
  for (let i = 0; i < wanted.length; i += 1000) {
    const slice = wanted.slice(i, i + 1000);
    const rows = await tx
      .select({ id: customerVendors.id, name: customerVendors.name, email: customerVendors.email })
      .from(customerVendors)
      .where(
        and(eq(customerVendors.orgId, orgId), or(inArray(sql`lower(${customerVendors.name})`, slice), inArray(sql`lower(${customerVendors.email})`, slice))),
      );
    for (const r of rows) {
      map.set(lower(r.email), r.id);
      if (!map.has(lower(r.name))) map.set(lower(r.name), r.id);
    }
  }
  return map;
}

/**
 * The organisation's records whose `column` is among `keys` (compared in lower case): value -> their ids. A row
 * with such a value updates that record (asset codes, SKUs, e-mails, names; decision 042, 055).
 */
export async function idsByKey(tx: ReadTx, orgId: number, key: NonNullable<Importer['key']>, keys: string[]): Promise<Map<string, number[]>> {
  const found = new Map<string, number[]>();
  const wanted = [...new Set(keys.map(lower))];
  // 1,000 at a time: a statement takes at most 65,535 parameters.
  for (let i = 0; i < wanted.length; i += 1000) {
    const rows = await tx
      .select({ id: sql<number>`${key.id}`, v: sql<string | null>`${key.column}` })
      .from(key.table)
      .where(and(eq(key.orgId, orgId), inArray(sql`lower(${key.column})`, wanted.slice(i, i + 1000))));
    for (const r of rows) found.set(lower(r.v ?? ''), [...(found.get(lower(r.v ?? '')) ?? []), Number(r.id)]);
  }
  return found;
}

/** A short code for a category created from its name: its letters and digits, upper case, unique. */
export function codeFor(name: string, taken: Map<string, number>) {
  const base = (name.toUpperCase().replace(/[^A-Z0-9]/g, '') || 'CAT').padEnd(3, 'X').slice(0, 16);
  let code = base;
  for (let n = 2; taken.has(lower(code)); n++) code = `${base}${n}`;
  return code;
}

/**
 * The id of a record a row names in `column`: one of the organisation's (`run.refs`), or, when the kind creates
 * missing ones, a stand-in until it is created (reported in `missing`; a problem unless `createMissing`).
 */
export function reference(run: Run, kind: ImportKind, name: string | undefined, row: number, column: string, message: string) {
  if (!name) return undefined;
  const id = run.refs.get(lower(name));
  if (id !== undefined) return id;
  if (CREATES_MISSING[kind] === column && !run.missing.has(lower(name))) run.missing.set(lower(name), name);
  if (CREATES_MISSING[kind] !== column || !run.request.createMissing) run.problems.push({ row, column, message });
  return 1; // a stand-in until the record is created
}

/** The id of the organisation's record a row names (`names`: lower case -> id), or undefined and the row's problem. */
export function named(run: Run, names: Map<string, number>, name: string | undefined, row: number, column: string, message: string) {
  if (!name) return undefined;
  const id = names.get(lower(name));
  if (id === undefined) run.problems.push({ row, column, message });
  return id;
}

/** The pending name of a row whose reference is missing (created before the rows are written). */
export const pendingOf = (run: Run, name: string | undefined) => (name && !run.refs.has(lower(name)) ? lower(name) : undefined);

/** The id of a name at write time (created missing records, earlier rows), or the row's problem. */
export function idAtWrite(run: Run, name: string, path: string, message: string) {
  const id = run.refs.get(lower(name));
  if (id === undefined) throw badRequest(message, path);
  return id;
}

/**
 * Writes each ready row in a savepoint of its own through `write`: a refusal of the feature's service undoes that
 * row only and becomes its problem. `written` learns each new record's id (names later rows may refer to).
 */
export async function eachRow<T>(
  tx: Tx,
  run: Run,
  ready: Ready[],
  columnOf: ColumnOf,
  write: (one: Tx, input: T, r: Ready) => Promise<unknown>,
  written?: (r: Ready, id: unknown) => void,
) {
  let imported = 0;
  for (const r of ready) {
    try {
      const id = await tx.transaction((one) => write(one, (r.finish ? r.finish() : r.input) as T, r));
      written?.(r, id);
      imported++;
    } catch (err) {
      if (!(err instanceof HttpError) || err.statusCode >= 500) throw err;
      for (const issue of err.issues ?? [{ path: '', message: err.message }]) {
        run.problems.push({ row: r.row, column: issue.path ? columnFor(columnOf, issue.path.split('.')) : null, message: issue.message });
      }
    }
  }
  return imported;
}

/** Enum-like cells (a role, a type) match whatever their case. */
export const enumCell = (v: string | undefined) => v?.toLowerCase();

/** A record's values as import cells: empty values left out (an absent cell and an empty one mean the same). */
export function cellsOf(values: Record<string, unknown>): Cells {
  const cells: Cells = {};
  for (const [k, v] of Object.entries(values))
    if (v !== null && v !== undefined && v !== '') cells[k] = typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v);
  return cells;
}

/** Reads each id through the feature's own get function; an id the organisation lacks (404) is left out. */
export async function readEach<T>(ids: number[], get: (id: number) => Promise<T>, toCurrent: (record: T, id: number) => Current): Promise<Current[]> {
  const found: Current[] = [];
  for (const id of ids) {
    try {
      found.push(toCurrent(await get(id), id));
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 404) continue;
      throw err;
    }
  }
  return found;
}

/** The names of a list cell, as the export writes them. */
export const listCell = (names: string[]) => names.join(`${LIST_SEPARATOR} `);

export type Input<F extends (...args: never[]) => unknown> = Parameters<F>[4];

/** A service that creates one record from its checked input: `(tx, orgId, actorId, input)`. */
export type Create<T> = (tx: Tx, orgId: number, actorId: number, input: T) => Promise<unknown>;

/** Writes each ready row through the feature's create service (`eachRow`, the actor's id). */
export const writeEach =
  <T>(create: Create<T>, columnOf: ColumnOf = {}, written?: (r: Ready, id: unknown) => void) =>
  (tx: Tx, run: Run, ready: Ready[]) =>
    eachRow<T>(tx, run, ready, columnOf, (one, input) => create(one, run.orgId, run.actor.userId, input), written);

/** The cells a column of the rows fills, in file order (the names a reference column gives, read in one query). */
export const columnCells = (rows: Row[], column: string) => rows.flatMap((r) => r.cells[column] ?? []);

/**
 * Each row checked in file order: `checkRow` gives what the row writes (its input, and for a reference created
 * on the way its `pending` and `finish`), or nothing when the row has a problem (it is not written).
 */
export const readyRows = (rows: Row[], checkRow: (r: Row) => Omit<Ready, 'row'> | undefined): Ready[] =>
  rows.flatMap((r) => {
    const ready = checkRow(r);
    return ready ? [{ row: r.row, ...ready }] : [];
  });

/** Rows that name nothing else: each row's cells as the feature's schema reads them. */
export const simpleRows =
  <T>(schema: ZodType<T>, body: (cells: Cells) => Record<string, unknown>, columnOf: ColumnOf = {}) =>
  async (_tx: Tx, run: Run, rows: Row[]): Promise<Ready[]> =>
    readyRows(rows, ({ row, cells }) => {
      const input = check(schema, body(cells), row, columnOf, run.problems);
      return input && { input };
    });

/** A yes/no cell: empty is no; anything else the row's problem. */
export function yesNo(run: Run, cell: string | undefined, row: number, column: string) {
  const v = lower(cell ?? '');
  if (['yes', 'true', '1', 'y'].includes(v)) return true;
  if (['', 'no', 'false', '0', 'n'].includes(v)) return false;
  run.problems.push({ row, column, message: IMPORT_MESSAGES.yesNo });
  return undefined;
}
