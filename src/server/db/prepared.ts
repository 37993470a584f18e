import { Column, is, SQL, sql, type Placeholder, type SQLWrapper } from 'drizzle-orm';
import type { Tx } from './client';
import { nameForPGlite } from './one-plan-names';

/** What drizzle's `.prepare()` gives: the statement's text and row mapping, built once. */
interface Prepared<T> {
  execute(values: Record<string, unknown>): Promise<T>;
}

/**
 * Transactions that outlive their request: one per PostgreSQL request connection (decision 014), and the one
 * all of PGlite's reads share (decision 020).
 */
const reusable = new WeakMap<Tx, Map<string, Prepared<unknown>>>();

/** Lets `preparedRead` keep built statements on `tx`: only for a transaction object that serves many requests. */
export function keepPreparedOn(tx: Tx) {
  if (!reusable.has(tx)) reusable.set(tx, new Map());
}

/**
 * The key a statement is kept under: its name and the names of the values present (truthy), e.g.
 * 'assets.list:orgId,like,status,limit'. An optional filter is in the text exactly when its value is present,
 * so the values name the text; a filter that changes the text without a value passes a flag (`lowStock: true`).
 */
const shapeOf = (statement: string, values: Record<string, unknown>) =>
  `${statement}:${Object.keys(values).filter((key) => values[key]).join(',')}`;

/** A value filled in at execution: `param('orgId')`. */
export const param = (name: string): Placeholder => sql.placeholder(name);

/** `column = any(values)`: one array parameter, so the number of values does not change the statement's text. */
export const isAnyOf = (column: SQLWrapper, values: SQLWrapper) => sql`${column} = any(${values})`;

/** How a filter refers to its values: `param` for a kept statement, `bindTo(values)` for one built for one run. */
export type Bind = (name: string) => SQLWrapper;

/** The values themselves, each as one parameter (an array stays one array, as `param` gives it). */
export const bindTo =
  (values: Record<string, unknown>): Bind =>
  (name) =>
    sql.param(values[name]);

/**
 * The server-side name of a kept shape: short (PostgreSQL cuts names at 63 bytes, and two shapes cut to one
 * name would collide) and the same on every connection of this process.
 */
const serverNames = new Map<string, string>();
const serverNameOf = (shape: string) => {
  let name = serverNames.get(shape);
  if (!name) serverNames.set(shape, (name = `kept_${serverNames.size + 1}`));
  return name;
};

export interface ReadOptions {
  /**
   * Name the statement on the server (decision 019), so that PostgreSQL parses and rewrites it once per
   * connection and, after five runs, may keep one generic plan for every organisation: it does when that
   * plan costs no more than the ones it made for each run's values. Only for a read whose every part is an
   * index lookup bounded by the organisation (kept counts, the newest rows by an index): one plan is then
   * right for the big organisation and the small. Never for a text search: decision 018.
   */
  onePlan?: boolean;
}

/**
 * A read whose SQL drizzle builds once per connection and shape, then executes with `values` in its
 * placeholders (decision 017). Building a list's query and its row mapping from the builder took 60 µs of
 * every request, as much as the rest of the plugin stack.
 * The shape is `statement` and the names of the values present: `build` must put an optional filter in the
 * text exactly when its value is present (truthy), and every value in as a `param`. The statement stays
 * unnamed for PostgreSQL, so each execution is planned with its own values, as an ordinary query is, unless
 * `options.onePlan` says one plan serves every organisation.
 */
export function preparedRead<T>(
  tx: Tx,
  statement: string,
  build: () => { prepare(name: string): Prepared<T> },
  values: Record<string, unknown>,
  options: ReadOptions = {},
): Promise<T> {
  const kept = reusable.get(tx);
  const shape = shapeOf(statement, values);
  const prepare = (name: string) => {
    const query = build().prepare(name);
    if (options.onePlan) nameForPGlite(query, serverNameOf(shape));
    return query;
  };
  // An empty name keeps node-postgres from preparing it on the server: a statement built for one run.
  if (!kept) return prepare('').execute(values);
  let query = kept.get(shape) as Prepared<T> | undefined;
  if (!query) kept.set(shape, (query = mapRowsOnce(prepare(options.onePlan ? serverNameOf(shape) : ''))));
  return query.execute(values);
}

/**
 * A LIMIT written into the statement's text rather than sent as a value. A generic plan (`onePlan`) cannot
 * see a LIMIT's value and costs it as a tenth of the rows: over a big organisation's rows that plan looks
 * dearer than the ones made for each run, and PostgreSQL does not choose it.
 */
export const limitInText = (rows: number): number => {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new Error(`Invalid limit ${rows}`);
  // drizzle writes an SQL object after LIMIT as it is; its types only admit a number or a placeholder.
  return sql.raw(String(rows)) as unknown as number;
};

/**
 * A raw statement (`sql` with `param`s) kept as `preparedRead` keeps a select: for what the query builder
 * cannot write, such as EXPLAIN. Rows come as the driver gives them, column names as keys.
 */
export async function preparedSql<T>(tx: Tx, statement: string, build: () => SQL, values: Record<string, unknown>): Promise<T[]> {
  // drizzle's `execute` builds the text on every call; its session prepares raw SQL as it does a select.
  const { session, dialect } = tx as unknown as {
    session: { prepareQuery(query: unknown, fields: undefined, name: string, arrayMode: boolean): Prepared<{ rows: T[] }> };
    dialect: { sqlToQuery(sql: SQL): unknown };
  };
  const result = await preparedRead(tx, statement, () => ({ prepare: (name) => session.prepareQuery(dialect.sqlToQuery(build()), undefined, name, false) }), values);
  return result.rows;
}

/** What drizzle's prepared select holds about its columns (not in its types: the members are private). */
interface SelectInternals {
  fields?: { path: string[]; field: unknown }[];
  customResultMapper?: (rows: unknown[][]) => unknown;
}

/**
 * Works out each column's decoder once for a kept statement. drizzle's own mapping asks, for every cell of
 * every row, what kind of field the column came from (`is()` walks prototype chains): 6% of a list request's
 * CPU. Flat selects only (every key at the top level); anything else keeps drizzle's mapping, as does a
 * drizzle version whose prepared query no longer looks like this (the prepared-read tests notice that).
 */
export function mapRowsOnce<Q>(query: Q): Q {
  const internals = query as SelectInternals;
  const fields = internals.fields;
  if (!Array.isArray(fields) || internals.customResultMapper || fields.some(({ path }) => path.length !== 1)) return query;
  const keys = fields.map(({ path }) => path[0]);
  const decoders = fields.map(({ field }) => decoderOf(field));
  if (decoders.some((decoder) => !decoder)) return query;
  internals.customResultMapper = (rows) =>
    rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const raw = row[i];
        out[keys[i]] = raw === null ? null : decoders[i]!.mapFromDriverValue(raw);
      }
      return out;
    });
  return query;
}

type Decoder = { mapFromDriverValue(value: unknown): unknown };

/** The decoder drizzle's `mapResultRow` picks for a selected field: the column, or the SQL expression's. */
function decoderOf(field: unknown): Decoder | undefined {
  if (is(field, Column)) return field;
  // `decoder` is private in drizzle's types; `.mapWith()` sets it.
  if (is(field, SQL)) return (field as unknown as { decoder: Decoder }).decoder;
  if (is(field, SQL.Aliased)) return (field.sql as unknown as { decoder: Decoder }).decoder;
  return undefined;
}
