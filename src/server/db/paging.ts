import { sql } from 'drizzle-orm';

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
