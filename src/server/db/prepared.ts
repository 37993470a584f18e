import { and, desc, lt, sql, type Column, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import { onePlanNames, statementCache } from './client';

/** A value filled in at execution: `param('orgId')`. */
export const param = (name: string): Placeholder => sql.placeholder(name);

/** `column = any(values)`: one array parameter, so the number of values does not change the statement's text. */
export const isAnyOf = (column: SQLWrapper, values: SQLWrapper) => sql`${column} = any(${values})`;

/** How a filter refers to its values: `param` for `preparedRead`, `bindTo(values)` for a query run as it is. */
export type Bind = (name: string) => SQLWrapper;

/** The values themselves, each as one parameter (an array stays one array, as `param` gives it). */
export const bindTo =
  (values: Record<string, unknown>): Bind =>
  (name) =>
    sql.param(values[name]);

export interface ReadOptions {
  /**
   * Name the statement (decision 019; node-postgres keeps named statements per connection, PGlite's thread in
   * its one session), so that the server parses it once per connection and, after five runs, may keep one
   * generic plan for every organisation. Only for a read whose every part is an index lookup bounded by the
   * organisation (kept counts, the newest rows by an index). Never for a text search: decision 018.
   */
  onePlan?: boolean;
}

type Prepared<T> = { execute(values: Record<string, unknown>): Promise<T>; getQuery(): { sql: string } };

/**
 * A read built with `param(...)` placeholders and run with `values`. `build` puts an optional filter in the
 * text exactly when its value is present (truthy), so that the values present name the statement's text
 * (`statement` and their names: the name of a one-plan statement); a filter without a value passes a flag
 * (`lowStock: true`).
 */
export function preparedRead<T>(
  statement: string,
  build: () => { prepare(name: string): Prepared<T> },
  values: Record<string, unknown>,
  options: ReadOptions = {},
): Promise<T> {
  const shape = `${statement}:${Object.keys(values).filter((key) => values[key]).join(',')}`;
  // Built once per process for reads (the text, its parameters' order, the row mapping): building costs more
  // than running most of them. Runs on the calling scope's connection, whichever request built it.
  const kept = statementCache();
  let prepared = kept?.get(shape) as Prepared<T> | undefined;
  if (!prepared) {
    // An empty name: the statement is sent unnamed, planned for its own values.
    const name = options.onePlan ? serverNameOf(shape) : '';
    prepared = build().prepare(name);
    if (name) onePlanNames.set(prepared.getQuery().sql, name);
    kept?.set(shape, prepared);
  }
  return prepared.execute(values);
}

/** Short names (PostgreSQL cuts them at 63 bytes), the same on every connection of this process. */
const serverNames = new Map<string, string>();
const serverNameOf = (shape: string) => {
  let name = serverNames.get(shape);
  if (!name) serverNames.set(shape, (name = `kept_${serverNames.size + 1}`));
  return name;
};

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

/** What `keysetBatch` does with a list's select: filter, order, limit, prepare (drizzle's select builder). */
interface KeysetSelect<T> {
  where(where: SQL | undefined): { orderBy(order: SQL): { limit(limit: Placeholder): { prepare(name: string): Prepared<T> } } };
}

/**
 * One batch of a growing list's export (decision 042): the list's own select and filter (`where` built with
 * `param`s, their `values`), the rows whose `id` is below `before`, newest first, `limit` of them; so an export of
 * any size reads a batch at a time by its key. Prepared once per process as every `preparedRead`.
 */
export function keysetBatch<T>(
  statement: string,
  select: () => KeysetSelect<T>,
  id: Column,
  filter: { values: Record<string, unknown>; where: () => SQL | undefined },
  before: number,
  limit: number,
): Promise<T> {
  return preparedRead(statement, () => select().where(and(filter.where(), lt(id, param('before')))).orderBy(desc(id)).limit(param('limit')), { ...filter.values, before, limit });
}
