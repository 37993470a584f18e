import { and, asc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { PgColumn, PgSelect, PgTable, SelectedFields } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { ReadTx } from './client';
import { pageAndTotal, totalOver } from './paging';
import { conflict } from '../http-error';
import { pgCode } from './pg-code';
import { pagination, type Pagination } from '../../shared/pagination';
import { escapeLike } from './like';
import { param, preparedRead } from './prepared';

// Small lists read whole or by page (master data: product categories, taxes, units, asset categories, reasons; teams).

/** Master data is small; a whole-list read still has a ceiling. */
const WHOLE_LIST_LIMIT = 5000;

/**
 * The page window of a list query. The client-paged screens call without `pageSize` and get the whole
 * list as one page; with `pageSize` the server pages.
 */
export function listWindow(query: { page?: number; pageSize?: number }) {
  if (!query.pageSize) return { limit: WHOLE_LIST_LIMIT, offset: 0, paginate: (total: number) => pagination(total, 1, Math.max(total, 1)) };
  const page = query.page ?? 1;
  const pageSize = query.pageSize;
  return { limit: pageSize, offset: (page - 1) * pageSize, paginate: (total: number) => pagination(total, page, pageSize) };
}

/**
 * The values of a simple list's statement: the organisation, the name pattern when the
 * list is filtered, and the window.
 */
function simpleListValues(orgId: number, query: { name?: string; page?: number; pageSize?: number }) {
  const { limit, offset } = listWindow(query);
  return { orgId, like: query.name ? `%${escapeLike(query.name)}%` : undefined, limit, offset };
}

/** A simple list's name filter ("contains" on any of the columns): in the text exactly when its value is. */
const nameLike = (values: { like?: string }, ...columns: PgColumn[]): SQL | undefined =>
  values.like ? or(...columns.map((column) => ilike(column, param('like')))) : undefined;

/** A simple list's table: the organisation, the id, and the name it is sorted and filtered by. */
export type SimpleTable = PgTable & { orgId: PgColumn; id: PgColumn; name: PgColumn };
type ListQuery = { name?: string; page?: number; pageSize?: number };

/**
 * A simple list (master data, teams): its page and its total in one statement, sorted by name, and the page's
 * `pagination`. `select` gives the columns, with the `total` it is handed, and the table (`$dynamic()`); the
 * organisation and the name filter (on the name and any `alsoSearched` column) are added here.
 */
export async function readSimpleList<Q extends PgSelect>(
  tx: ReadTx,
  statement: string,
  orgId: number,
  query: ListQuery,
  table: SimpleTable,
  select: (total: ReturnType<typeof totalOver>) => Q,
  alsoSearched: PgColumn[] = [],
): Promise<{ rows: Q['_']['result']; pagination: Pagination }> {
  // The rows' type is the caller's select; drizzle's generic builder types cannot show that `total` is in it.
  const { rows, total } = await pageAndTotal(
    simpleListValues(orgId, query),
    (values) =>
      preparedRead(
        tx,
        statement,
        () =>
          select(totalOver())
            .where(and(eq(table.orgId, param('orgId')), nameLike(values, table.name, ...alsoSearched)))
            .orderBy(asc(table.name), asc(table.id))
            .limit(param('limit'))
            .offset(param('offset')),
        values,
      ) as Promise<{ total: number }[]>,
  );
  return { rows, pagination: listWindow(query).paginate(total) };
}

/** `readSimpleList` of one table's `columns`, without joins (most master data). */
export function readSimpleTable<C extends SelectedFields>(
  tx: ReadTx,
  statement: string,
  orgId: number,
  query: ListQuery,
  table: SimpleTable,
  columns: C,
  alsoSearched: PgColumn[] = [],
): Promise<{ rows: SelectResultFields<C>[]; pagination: Pagination }> {
  const select = (total: ReturnType<typeof totalOver>) =>
    tx
      .select({ ...columns, total })
      .from(table)
      .$dynamic();
  return readSimpleList(tx, statement, orgId, query, table, select, alsoSearched) as Promise<{ rows: SelectResultFields<C>[]; pagination: Pagination }>;
}

/** Case-insensitive "contains" on a column, or nothing when the filter is empty. */
export const nameContains = (column: PgColumn, name: string | undefined): SQL | undefined => (name ? ilike(column, `%${escapeLike(name)}%`) : undefined);

/**
 * Runs a delete (or an update) that the database may refuse because other records point at the row
 * (foreign key violation 23503): the refusal becomes a 409 with `message`, and those records stay intact.
 */
export async function refuseWhenUsed<T>(message: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (pgCode(err) === '23503') throw conflict(message);
    throw err;
  }
}

export const iso = (d: Date) => d.toISOString();
