import * as drizzleOrm from 'drizzle-orm';
import { and, Column, desc, getTableColumns, is, lt, Param, Placeholder, sql, SQL, Subquery, Table, type SQLWrapper } from 'drizzle-orm';
import { inspect, isDeepStrictEqual } from 'node:util';
import { rowsRunnerOf, type ReadTx } from './client';

/**
 * Development and tests check every statement (issue 40): each run is built again and must give the kept text and
 * the same parameters for its values (a value captured in a build instead of `param()` would otherwise answer
 * every later caller with the first caller's data), and its first run's rows are decoded by drizzle as well.
 * Production builds once (decision 052), and so do the benchmarks (`DB_STATEMENT_CHECKS=off`: they run in
 * development mode for plain HTTP).
 */
const CHECK_STATEMENTS = process.env.NODE_ENV !== 'production' && process.env.DB_STATEMENT_CHECKS !== 'off';

/** A value filled in at execution: `param('orgId')`. */
export const param = (name: string): Placeholder => sql.placeholder(name);

/** `column = any(values)`: one array parameter, so the number of values does not change the statement's text. */
export const isAnyOf = (column: SQLWrapper, values: SQLWrapper) => sql`${column} = any(${values})`;

/** `count(*)` typed by SQL (an int): drizzle's `count()` maps a bigint's text with Number, which kept statements do not run. */
export const countAll = () => sql<number>`count(*)::int`;

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

/** What `preparedRead` uses of a select built by drizzle: its text and parameters, its selection, and (checks) its joins' nullability. */
interface Built<T> {
  toSQL(): { sql: string; params: unknown[] };
  readonly _: { readonly config: { fields: Record<string, unknown>; joins?: unknown[] } };
  /** Not called: it gives the rows' type. */
  prepare(name: string): { execute(values: Record<string, unknown>): Promise<T> };
}

/**
 * drizzle's own mapping of a driver's row, the one its prepared selects apply (`mapResultRow` over the selection's
 * fields in `orderSelectedFields` order, with the select's `joinsNotNullableMap`). Exported by drizzle-orm at run
 * time but left out of its types (internal), hence the cast; used only by the checks outside production.
 */
const drizzleInternals = drizzleOrm as unknown as {
  orderSelectedFields(fields: Record<string, unknown>): unknown[];
  mapResultRow(fields: unknown[], row: unknown[], joinsNotNullableMap: Record<string, boolean> | undefined): unknown;
};
function drizzleMapping(query: Built<unknown>): (row: unknown[]) => unknown {
  const fields = drizzleInternals.orderSelectedFields(query._.config.fields);
  const joins = (query as { joinsNotNullableMap?: Record<string, boolean> }).joinsNotNullableMap;
  return (row) => drizzleInternals.mapResultRow(fields, row, joins);
}

/** A statement kept for the process: its text, its parameters (placeholders among them), a name or '', its row decoder. */
interface Kept {
  text: string;
  params: (values: Record<string, unknown>) => unknown[];
  name: string;
  decode: (row: unknown[]) => unknown;
  /** Until its first run is compared (when the checks are on): drizzle's own mapping of a row. */
  drizzleDecode?: (row: unknown[]) => unknown;
}
const kept = new Map<string, Kept>();

/** A statement's shape: its name and the names of the values present (truthy), which decide its text. */
const shapeOf = (statement: string, values: Record<string, unknown>) =>
  `${statement}:${Object.keys(values)
    .filter((key) => values[key])
    .join(',')}`;

/** The statement kept for `shape`, made by `make` the first time the process meets that shape. */
function keptBy(shape: string, make: () => Kept): Kept {
  let statementOf = kept.get(shape);
  if (!statementOf) kept.set(shape, (statementOf = make()));
  return statementOf;
}

/**
 * A read built with `param(...)` placeholders and run with `values` on `tx`'s connection. `build` puts an optional
 * filter in the text exactly when its value is present (truthy), so that the values present name the statement's
 * text (`statement` and their names: the name of a one-plan statement); a filter without a value passes a flag
 * (`lowStock: true`). Built once per process (decision 052): the text, its parameters' order and a row decoder
 * made for its selection; building costs more than running most of them.
 */
export async function preparedRead<T>(
  tx: ReadTx,
  statement: string,
  build: () => Built<T>,
  values: Record<string, unknown>,
  options: ReadOptions = {},
): Promise<T> {
  const shape = shapeOf(statement, values);
  const statementOf = keptBy(shape, () => {
    const query = build();
    const { sql: text, params } = query.toSQL();
    // An empty name: the statement is sent unnamed, planned for its own values.
    const drizzleDecode = CHECK_STATEMENTS ? drizzleMapping(query) : undefined;
    return { text, params: paramFiller(params), name: options.onePlan ? serverNameOf(shape) : '', decode: rowDecoder(query._.config), drizzleDecode };
  });
  const params = statementOf.params(values);
  if (CHECK_STATEMENTS) sameAsBuilt(shape, statementOf, build, values, params);
  const raw = await rowsRunnerOf(tx)(statementOf.text, params, statementOf.name);
  const rows = raw.map(statementOf.decode) as T;
  const { drizzleDecode } = statementOf;
  if (drizzleDecode) {
    // Development and tests: the first run's rows are decoded by drizzle as well; they must agree. The same rows,
    // not a second run: a write between two runs would fail a sound read (issue 45).
    const drizzles = raw.map(drizzleDecode);
    if (!isDeepStrictEqual(rows, drizzles)) throw new Error(`preparedRead ${shape}: ${unlike(rows as unknown[], drizzles)}`);
    statementOf.drizzleDecode = undefined;
  }
  return rows;
}

/** This run's statement built afresh gives the kept text and parameters: nothing of an earlier caller was captured. */
function sameAsBuilt(shape: string, statementOf: Kept, build: () => Built<unknown>, values: Record<string, unknown>, params: unknown[]) {
  const fresh = build().toSQL();
  const freshParams = paramFiller(fresh.params)(values);
  if (fresh.sql !== statementOf.text || !isDeepStrictEqual(freshParams, params))
    throw new Error(
      `preparedRead ${shape}: built again for these values it gives ${fresh.sql === statementOf.text ? `the parameters ${inspect(freshParams)} where the kept statement sends ${inspect(params)}` : 'another text'}; a value used in the build must come through param()`,
    );
}

/**
 * The statement's parameters from the values: drizzle's `fillPlaceholders`, with its checks of each parameter's kind
 * made once, when the statement is kept (a placeholder, a placeholder with its column's encoder, or a constant).
 */
function paramFiller(params: unknown[]): (values: Record<string, unknown>) => unknown[] {
  const valueOf = (values: Record<string, unknown>, name: string) => {
    if (!(name in values)) throw new Error(`No value for placeholder "${name}" was provided`);
    return values[name];
  };
  const parts = params.map((p): ((values: Record<string, unknown>) => unknown) => {
    if (is(p, Placeholder)) return (values) => valueOf(values, p.name);
    if (is(p, Param) && is(p.value, Placeholder)) {
      const { encoder, value } = p as Param<Placeholder, unknown>;
      return (values) => encoder.mapToDriverValue(valueOf(values, value.name) as never);
    }
    return () => p;
  });
  return (values) => parts.map((part) => part(values));
}

/** Where a decoded page first differs from drizzle's, said for the one who wrote the statement. */
function unlike(rows: unknown[], drizzles: unknown[]): string {
  const at = rows.findIndex((row, i) => !isDeepStrictEqual(row, drizzles[i]));
  const [ours, theirs] = [rows[at], drizzles[at]] as Record<string, unknown>[];
  const key = Object.keys({ ...ours, ...theirs }).find((k) => !isDeepStrictEqual(ours?.[k], theirs?.[k]));
  const show = (value: unknown) => `${JSON.stringify(value)} (${value === null ? 'null' : typeof value})`;
  return `row ${at}, ${key ?? 'its keys'}: decoded as ${show(ours?.[key!])} where drizzle gives ${show(theirs?.[key!])}; a value made by SQL with mapWith needs its type from SQL (a cast) instead`;
}

/** Short names (PostgreSQL cuts them at 63 bytes), the same on every connection of this process. */
const serverNames = new Map<string, string>();
const serverNameOf = (shape: string) => {
  let name = serverNames.get(shape);
  if (!name) serverNames.set(shape, (name = `kept_${serverNames.size + 1}`));
  return name;
};

type Decoder = (value: unknown) => unknown;
type Leaf = { path: string[]; decode?: Decoder; column?: true };

/**
 * The selection's columns in the order drizzle writes them into the statement (its keys, depth first), each with
 * its column's own decoder (a date column's text to its mode, say). A value made by SQL is kept as the driver
 * gives it: its `mapWith` is drizzle's own (not public), so such a value takes its type from SQL (`count(*)::int`),
 * and the checks above catch one that does not.
 */
function leavesOf(fields: Record<string, unknown>, path: string[] = []): Leaf[] {
  return Object.entries(fields).flatMap(([name, field]): Leaf[] => {
    const at = [...path, name];
    if (is(field, Column))
      return [
        {
          path: at,
          column: true,
          decode: field.mapFromDriverValue === Column.prototype.mapFromDriverValue ? undefined : (value) => field.mapFromDriverValue(value),
        },
      ];
    if (is(field, SQL) || is(field, SQL.Aliased) || is(field, Subquery)) return [{ path: at }];
    if (is(field, Table)) return leavesOf(getTableColumns(field), at);
    return leavesOf(field as Record<string, unknown>, at);
  });
}

/**
 * A row decoder written as one object literal (`(r) => ({ "a": r[0], "b": { "c": d[1](r[1]) } })`), compiled once
 * per statement: decoding a 25-row page costs microseconds where drizzle's mapping, which checks each column's
 * kind on every row, cost about 90 (decision 052). Keys are quoted by JSON.stringify; nothing else is written.
 */
function rowDecoder({ fields, joins }: { fields: Record<string, unknown>; joins?: unknown[] }): (row: unknown[]) => unknown {
  const leaves = leavesOf(fields);
  // drizzle turns a nested object of a joined table's columns into null when they all are (an outer join that
  // found nothing); its rule is its own: such a selection is refused here rather than decoded differently.
  if (joins?.length && leaves.some((leaf) => leaf.path.length > 1 && leaf.column)) {
    throw new Error(
      `preparedRead: a joined select nests table columns under ${leaves.find((leaf) => leaf.path.length > 1 && leaf.column)!.path[0]}: select them at the top level, or as SQL`,
    );
  }
  const decoders = leaves.map((leaf) => leaf.decode);
  const literal = (depth: number, from: number, to: number): string => {
    const parts: string[] = [];
    for (let i = from; i < to; ) {
      const key = JSON.stringify(leaves[i].path[depth]);
      if (leaves[i].path.length === depth + 1) {
        parts.push(`${key}: ${decoders[i] ? `r[${i}] === null ? null : d[${i}](r[${i}])` : `r[${i}]`}`);
        i++;
        continue;
      }
      // A nested object: the leaves after it under the same key.
      let end = i + 1;
      while (end < to && leaves[end].path.length > depth + 1 && leaves[end].path[depth] === leaves[i].path[depth]) end++;
      parts.push(`${key}: ${literal(depth + 1, i, end)}`);
      i = end;
    }
    return `{ ${parts.join(', ')} }`;
  };
  return new Function('d', `return (r) => (${literal(0, 0, leaves.length)});`)(decoders) as (row: unknown[]) => unknown;
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

/** What `keysetBatch` does with a list's select: filter, order, limit, prepare (drizzle's select builder). */
interface KeysetSelect<T> {
  where(where: SQL | undefined): { orderBy(order: SQL): { limit(limit: Placeholder): Built<T> } };
}

/**
 * One batch of a growing list's export (decision 042): the list's own select and filter (`where` built with
 * `param`s, their `values`), the rows whose `id` is below `before`, newest first, `limit` of them; so an export of
 * any size reads a batch at a time by its key. Prepared once per process as every `preparedRead`.
 */
export function keysetBatch<T>(
  tx: ReadTx,
  statement: string,
  select: () => KeysetSelect<T>,
  id: Column,
  filter: { values: Record<string, unknown>; where: () => SQL | undefined },
  before: number,
  limit: number,
): Promise<T> {
  return preparedRead(
    tx,
    statement,
    () =>
      select()
        .where(and(filter.where(), lt(id, param('before'))))
        .orderBy(desc(id))
        .limit(param('limit')),
    { ...filter.values, before, limit },
  );
}
