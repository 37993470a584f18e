import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { withTenant, type Db } from '../db/client';
import { rowsOf } from '../db/rows';

export { rowsOf } from '../db/rows';

/**
 * Tables written on their own schedule or for every request, not by what a test did: the audit trail (decision
 * 078: it records dry runs too) and people's notifications (decision 074: the due-soon and overdue job runs every
 * minute over every organisation, a seeded one's overdue orders included).
 */
const SELF_WRITTEN = ['audit_log', 'audit_heads', 'notifications', 'notification_deliveries'];

/**
 * Every row of every tenant table of one organisation, as JSON, but for the tables in `skip`: "changes nothing"
 * is compared by content.
 */
export async function orgSnapshot(db: Db, orgId: number, skip: string[]) {
  const ignored = [...skip, ...SELF_WRITTEN];
  return withTenant(db, orgId, async (tx) => {
    const tables = rowsOf<{ table_name: string }>(
      await tx.execute(
        sql`select distinct table_name from information_schema.columns where table_schema = 'public' and column_name = 'org_id' order by table_name`,
      ),
    );
    const out: Record<string, unknown[]> = {};
    for (const { table_name } of tables) {
      if (ignored.includes(table_name)) continue;
      out[table_name] = rowsOf(await tx.execute(sql.raw(`select * from "${table_name}" order by 1, 2`)));
    }
    return JSON.stringify(out);
  });
}

/** The rows of `table` that belong to organisation `orgId` and match `where`, read in its tenant scope (what a test checks was written). */
export function orgRows<T extends PgTable & { orgId: AnyPgColumn }>(db: Db, orgId: number, table: T, ...where: SQL[]): Promise<T['$inferSelect'][]> {
  return withTenant(db, orgId, (tx) =>
    tx
      .select()
      .from(table as PgTable)
      .where(and(eq(table.orgId, orgId), ...where)),
  ) as Promise<T['$inferSelect'][]>;
}
