import { count, sql, type SQL } from 'drizzle-orm';
import type { PgSelect, PgTable } from 'drizzle-orm/pg-core';
import { pagination, type Pagination } from '../../shared/pagination';
import type { ReadTx } from './client';

/**
 * The list's total, carried by every row of its page (`count(*) over ()`), so a page and its total are one
 * statement instead of two. Meant for people-sized lists (users, teams, master data): the window reads every
 * matching row, where a separate count could stay in the index; the big lists keep their own counting.
 */
export const totalOver = () => sql<number>`(count(*) over ())::int`;

/**
 * A page read with `totalOver()`, and its total. Past the last page no row carries the total, so only then
 * is the same statement read again, for the first row. The rows keep their `total`: the DTO picks its fields.
 */
export async function pageAndTotal<R extends { total: number }, V extends { limit: number; offset: number }>(
  values: V,
  read: (values: V) => Promise<R[]>,
): Promise<{ rows: R[]; total: number }> {
  const rows = await read(values);
  if (rows.length || !values.offset) return { rows, total: rows[0]?.total ?? 0 };
  const [first] = await read({ ...values, limit: 1, offset: 0 });
  return { rows, total: first?.total ?? 0 };
}

/**
 * A page of a list counted apart (STYLE: a `where` built once, then page plus count): the rows of `table` matching
 * `where` are counted, then the page of `ordered` (that `where`, its order) is read; the rows and the pagination.
 */
export async function countedPage<Q extends PgSelect>(
  tx: ReadTx,
  table: PgTable,
  where: SQL | undefined,
  ordered: Q,
  query: { page: number; pageSize: number },
): Promise<{ rows: Q['_']['result']; pagination: Pagination }> {
  const [{ total }] = await tx.select({ total: count() }).from(table).where(where);
  const rows: Q['_']['result'] = await ordered.limit(query.pageSize).offset((query.page - 1) * query.pageSize);
  return { rows, pagination: pagination(total, query.page, query.pageSize) };
}
