import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { rowsOf } from '../../server/db/rows';

/**
 * Tree reads in plain SQL (decision 072): recursive CTEs over `parent_id`, bounded by the organisation at every
 * step, no closure table and no trigger. `table` is `locations` or `assets` (both have org_id, id, parent_id).
 */
type TreeTable = 'locations' | 'assets';

/** The ids of a node and everything under it, as a subquery: `x in ${subtreeIds(…)}`. */
export function subtreeIds(table: TreeTable, orgId: SQLWrapper | number, id: SQLWrapper | number): SQL {
  const t = sql.raw(table);
  return sql`(with recursive sub(id) as (
      select n.id from ${t} n where n.org_id = ${orgId} and n.id = ${id}
      union all
      select c.id from ${t} c join sub on c.parent_id = sub.id where c.org_id = ${orgId}
    ) select sub.id from sub)`;
}

/**
 * Would putting `id` under `parentId` make a cycle? True when the new parent is the node itself or one of its
 * descendants: walk up from the new parent and look for the node.
 */
export async function wouldCycle(tx: Tx, table: TreeTable, orgId: number, id: number, parentId: number): Promise<boolean> {
  if (id === parentId) return true;
  const t = sql.raw(table);
  const rows = rowsOf<{ found: boolean }>(
    await tx.execute(sql`with recursive up(id, parent_id, depth) as (
        select n.id, n.parent_id, 0 from ${t} n where n.org_id = ${orgId} and n.id = ${parentId}
        union all
        select p.id, p.parent_id, up.depth + 1 from ${t} p join up on p.id = up.parent_id where p.org_id = ${orgId} and up.depth < 10000
      ) select exists (select 1 from up where up.id = ${id}) as found`),
  );
  return Boolean(rows[0]?.found);
}

/**
 * Serialises the organisation's moves in one tree until the transaction ends: two concurrent moves (A under B,
 * B under A) each pass the cycle check alone; taken in turn, the second sees the first and is refused.
 */
export async function lockTree(tx: Tx, table: TreeTable, orgId: number) {
  await tx.execute(sql`select pg_advisory_xact_lock(${table === 'locations' ? 72001 : 72002}, ${orgId}::int)`);
}

/** The paths from the top ("Plant / Hall A") of some locations of the organisation, by id: a walk up from each. */
export async function pathsOf(tx: ReadTx, orgId: number, ids: number[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return new Map();
  const rows = rowsOf<{ id: number; path: string }>(
    await tx.execute(sql`with recursive up(id, parent_id, path, depth) as (
        select n.id, n.parent_id, n.name::text, 0 from locations n where n.org_id = ${orgId}::int and n.id in (${sql.join(
          wanted.map((id) => sql`${id}::int`),
          sql`, `,
        )})
        union all
        select up.id, p.parent_id, p.name || ' / ' || up.path, up.depth + 1 from up join locations p on p.org_id = ${orgId}::int and p.id = up.parent_id
        where up.depth < 10000
      ) select id, path from up where parent_id is null`),
  );
  return new Map(rows.map((r) => [Number(r.id), r.path]));
}
