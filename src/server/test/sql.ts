import { sql } from 'drizzle-orm';
import { withTenant, type Db } from '../db/client';
import { rowsOf } from '../db/rows';

export { rowsOf } from '../db/rows';

/**
 * Every row of every tenant table of one organisation, as JSON, but for the tables in `skip`: "changes nothing"
 * is compared by content.
 */
export async function orgSnapshot(db: Db, orgId: number, skip: string[]) {
  return withTenant(db, orgId, async (tx) => {
    const tables = rowsOf<{ table_name: string }>(
      await tx.execute(
        sql`select distinct table_name from information_schema.columns where table_schema = 'public' and column_name = 'org_id' order by table_name`,
      ),
    );
    const out: Record<string, unknown[]> = {};
    for (const { table_name } of tables) {
      if (skip.includes(table_name)) continue;
      out[table_name] = rowsOf(await tx.execute(sql.raw(`select * from "${table_name}" order by 1, 2`)));
    }
    return JSON.stringify(out);
  });
}
