import { count, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from './client';

/**
 * The list's total, carried by every row of its page (`count(*) over ()`), so a page and its total are one
 * statement instead of two. Meant for people-sized lists (users, teams, master data): the window reads every
 * matching row, where a separate count could stay in the index; the big lists keep their own counting.
 */
export const totalOver = () => sql<number>`count(*) over ()`.mapWith(Number);

/**
 * The total of a page read with `totalOver()`. Past the last page there is no row to carry it, so only then
 * is it counted on its own. The rows keep their `total`: the caller's DTO picks its fields.
 */
export async function pageWithTotal<R extends { total: number }>(rows: R[], offset: number, countAll: () => Promise<number>): Promise<{ rows: R[]; total: number }> {
  const total = rows.length ? rows[0].total : offset > 0 ? await countAll() : 0;
  return { rows, total };
}

/** `select count(*) from table where …` as a number. */
export async function countRows(tx: Tx, table: PgTable, where: SQL | undefined): Promise<number> {
  const [{ total }] = await tx.select({ total: count() }).from(table).where(where);
  return total;
}
