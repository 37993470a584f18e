import { sql } from 'drizzle-orm';
import { withTenant, type Db } from '../db/client';
import { rowsOf } from '../db/rows';

export { rowsOf } from '../db/rows';

/** The audit log's tables (decision 078). */
const AUDIT_TABLES = ['audit_log', 'audit_heads'];

/**
 * Every row of every tenant table of one organisation, as JSON, but for the tables in `skip`: "changes nothing"
 * is compared by content.
 */

export async function orgSnapshot(db: Db, orgId: number, skip: string[]) {
  // The audit trail records requests, also those that change nothing (a dry run): it is not the organisation's data.
  const ignored = [...skip, ...AUDIT_TABLES];
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
