import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../server/db/client';
import { assetStateIntervals } from '../../server/db/schema';
import { rowsOf } from '../../server/db/rows';
import type { AssetState } from './asset-states.schema';

/**
 * A parent's cascade, one level at a time (decision 079, addendum): a child taken down by its parent's down interval
 * points at that interval (`cascaded_from`), a grandchild at the child's cascaded interval, and so on. So a child
 * comes back up when the interval that took it down closes, and not before; one already down (set by hand or by
 * work) is left as it is, with everything under it.
 */

/** Who sets the cascaded rows. */
type By = { setBy: number | null };

/**
 * Takes down the children of `assetId` that are not down already and not independent, each pointing at
 * `parentInterval`, then their children in turn. Returns the assets taken down.
 */
export async function cascadeDown(tx: Tx, orgId: number, assetId: number, parentInterval: number, at: Date, by: By): Promise<number[]> {
  const children = rowsOf<{ id: number; open_id: number | null; state: AssetState | null }>(
    await tx.execute(sql`select c.id, i.id as open_id, i.state from assets c
        left join asset_state_intervals i on i.org_id = c.org_id and i.asset_id = c.id and i.ended_at is null
        where c.org_id = ${orgId}::int and c.parent_id = ${assetId}::int and not c.independent order by c.id`),
  );
  const taken: number[] = [];
  for (const c of children) {
    if (c.state === 'down') continue;
    if (c.open_id !== null) await closeInterval(tx, orgId, c.open_id, at);
    const [row] = await tx
      .insert(assetStateIntervals)
      .values({ orgId, assetId: c.id, state: 'down', startedAt: at, setBy: by.setBy, cascadedFrom: parentInterval })
      .returning({ id: assetStateIntervals.id });
    taken.push(c.id, ...(await cascadeDown(tx, orgId, c.id, row.id, at, by)));
  }
  return taken;
}

/** The children `parentInterval` took down come back up (running), and what they took down in turn. Returns those assets. */
export async function endCascade(tx: Tx, orgId: number, parentInterval: number, at: Date, by: By): Promise<number[]> {
  const taken = await tx
    .select({ id: assetStateIntervals.id, assetId: assetStateIntervals.assetId })
    .from(assetStateIntervals)
    .where(and(eq(assetStateIntervals.orgId, orgId), eq(assetStateIntervals.cascadedFrom, parentInterval), isNull(assetStateIntervals.endedAt)));
  const up: number[] = [];
  for (const t of taken) {
    await closeInterval(tx, orgId, t.id, at);
    await tx.insert(assetStateIntervals).values({ orgId, assetId: t.assetId, state: 'running', startedAt: at, setBy: by.setBy });
    up.push(t.assetId, ...(await endCascade(tx, orgId, t.id, at, by)));
  }
  return up;
}

/**
 * A down asset stays down under another interval (a cascaded child set down by hand, a reason changed): the
 * children its old interval holds down now hang on the new one, so they neither blink up nor go with the old cause.
 */
export async function handOverCascade(tx: Tx, orgId: number, fromInterval: number, toInterval: number) {
  await tx
    .update(assetStateIntervals)
    .set({ cascadedFrom: toInterval })
    .where(and(eq(assetStateIntervals.orgId, orgId), eq(assetStateIntervals.cascadedFrom, fromInterval), isNull(assetStateIntervals.endedAt)));
}

/** Closes one interval at `at`. */
export async function closeInterval(tx: Tx, orgId: number, id: number, at: Date) {
  await tx
    .update(assetStateIntervals)
    .set({ endedAt: at })
    .where(and(eq(assetStateIntervals.orgId, orgId), eq(assetStateIntervals.id, id)));
}
