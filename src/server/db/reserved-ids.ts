import { getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from './client';
import { rowsOf } from './rows';

/**
 * Reserves `count` consecutive per-organisation ids of `table` with one counter update (`reserve_org_ids`,
 * src/server/db/tenancy.ts) and returns the first. Rows inserted with these ids skip the per-row counter update
 * of `assign_org_scoped_id`: a bulk insert of N rows in one transaction is one update of `org_counters`, not N
 * updates of one row (each of which walks the row's earlier versions: quadratic; decision 042). The counter row
 * stays locked until the transaction ends, so a concurrent insert numbers its row after the block; undone with
 * the transaction (or savepoint), the block is given back.
 */
export async function reserveIds(tx: Tx, orgId: number, table: PgTable, count: number): Promise<number> {
  const result = await tx.execute(sql`select reserve_org_ids(${orgId}::int, ${getTableName(table)}::text, ${count}::int) as first`);
  const [row] = rowsOf<{ first: number }>(result);
  return Number(row.first);
}
