import { and, eq, isNull, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { assets, assetStateIntervals } from '../../server/db/schema';
import { badRequest, notFound } from '../../server/http-error';
import { now } from '../../server/clock';
import { rowsOf } from '../../server/db/rows';
import { cascadeDown, closeInterval, endCascade, handOverCascade } from './asset-states.cascade';
import { displayId } from '../../shared/reference-fields';
import { lockTree, subtreeIds } from '../locations/location-tree';
import { emitWebhookEvent } from '../webhooks/webhooks.service';
import { downMinutesByAsset } from './asset-states.sql';
import { MINUTE, toMinute } from './asset-states.time';
import {
  ASSET_STATE_MESSAGES as M,
  type AssetState,
  type AssetStateInterval,
  type AssetStatesAnswer,
  type Availability,
  type AvailabilityQuery,
  type SetAssetStateInput,
} from './asset-states.schema';
import { readOrgRow } from '../../server/db/org-rows';

/**
 * Asset state over time (decision 079): intervals of running / down / standby / planned maintenance, one open per
 * asset. Every change closes the open interval and opens the next at the same minute; a parent going down takes
 * its children down (independent ones and everything under them excepted), and its coming back closes them
 * (one level at a time: `asset-states.cascade.ts`).
 */

const DAY = 86_400_000;

/** Where a change comes from: who, and the work order or request that made it. */
export interface StateSource {
  setBy: number | null;
  workOrderId?: number | null;
  maintenanceRequestId?: number | null;
}

type Open = { id: number; state: AssetState; startedAt: Date; workOrderId: number | null; maintenanceRequestId: number | null; cascadedFrom: number | null };

async function openOf(tx: Tx, orgId: number, assetId: number): Promise<Open | undefined> {
  const [row] = await tx
    .select({
      id: assetStateIntervals.id,
      state: assetStateIntervals.state,
      startedAt: assetStateIntervals.startedAt,
      workOrderId: assetStateIntervals.workOrderId,
      maintenanceRequestId: assetStateIntervals.maintenanceRequestId,
      cascadedFrom: assetStateIntervals.cascadedFrom,
    })
    .from(assetStateIntervals)
    .where(and(eq(assetStateIntervals.orgId, orgId), eq(assetStateIntervals.assetId, assetId), isNull(assetStateIntervals.endedAt)));
  return row;
}

/**
 * Changes an asset's state from `at` (default now, in whole minutes): closes the open interval (and what it took
 * down with it), opens the new one, cascades a down state, and tells the webhooks (asset.down / asset.up).
 */
export async function changeAssetState(
  tx: Tx,
  orgId: number,
  assetId: number,
  change: { state: AssetState; reason?: string | null; at?: Date },
  source: StateSource,
): Promise<number> {
  // One change at a time per organisation: a cascade walks the tree, a move could change it meanwhile.
  await lockTree(tx, 'assets', orgId);
  const current = toMinute(now());
  const at = change.at ? toMinute(change.at) : current;
  if (at.getTime() > current.getTime()) throw badRequest(M.atFuture, 'at');
  const open = await openOf(tx, orgId, assetId);
  if (open && at.getTime() < open.startedAt.getTime()) throw badRequest(M.atBeforeOpen, 'at');
  if (open) await closeInterval(tx, orgId, open.id, at);
  const [created] = await tx
    .insert(assetStateIntervals)
    .values({
      orgId,
      assetId,
      state: change.state,
      reason: change.reason ?? null,
      startedAt: at,
      setBy: source.setBy,
      workOrderId: source.workOrderId ?? null,
      maintenanceRequestId: source.maintenanceRequestId ?? null,
    })
    .returning({ id: assetStateIntervals.id });
  const wasDown = open?.state === 'down';
  const down = change.state === 'down';
  // The children the old down interval holds: handed over when the asset stays down, brought up when it comes up.
  let cascaded: number[] = [];
  if (open && wasDown && down) await handOverCascade(tx, orgId, open.id, created.id);
  else if (open && wasDown) cascaded = await endCascade(tx, orgId, open.id, at, source);
  if (down) cascaded = await cascadeDown(tx, orgId, assetId, created.id, at, source);
  if (wasDown !== down) {
    await emitWebhookEvent(tx, orgId, down ? 'asset.down' : 'asset.up', async () => {
      return {
        ...(await assetRef(tx, orgId, assetId)),
        state: change.state,
        reason: change.reason ?? null,
        at: at.toISOString(),
        workOrderId: source.workOrderId ?? null,
        maintenanceRequestId: source.maintenanceRequestId ?? null,
        cascadedAssetIds: cascaded,
      };
    });
  }
  return created.id;
}

async function assetRef(tx: ReadTx, orgId: number, assetId: number) {
  const a = await readOrgRow(tx, assets, { id: assets.id, name: assets.name }, orgId, assetId);
  if (!a) throw notFound('Asset');
  return { id: a.id, assetId: displayId('AS', a.id), name: a.name };
}

/** POST set-asset-state/{id}: by hand, with a reason and optionally since when. */
export async function setAssetState(tx: Tx, orgId: number, userId: number, assetId: number, input: SetAssetStateInput) {
  await assetRef(tx, orgId, assetId);
  await changeAssetState(tx, orgId, assetId, { state: input.state, reason: input.reason ?? null, at: input.at }, { setBy: userId });
  return { message: M.updated, ...(await listAssetStates(tx, orgId, assetId, {})) };
}

/**
 * A work order or request marks its asset down (the "Asset is down" box), or no longer (unticked): opens a down
 * interval with the record as source unless the asset is down already; unticked, closes the record's own.
 */
export async function markAssetDown(tx: Tx, orgId: number, assetId: number | null, down: boolean | undefined, source: StateSource) {
  if (!assetId || down === undefined) return;
  const open = await openOf(tx, orgId, assetId);
  const own =
    open?.state === 'down' &&
    ((source.workOrderId && open.workOrderId === source.workOrderId) ||
      (source.maintenanceRequestId && open.maintenanceRequestId === source.maintenanceRequestId));
  if (down && open?.state !== 'down') await changeAssetState(tx, orgId, assetId, { state: 'down' }, source);
  else if (!down && own) await changeAssetState(tx, orgId, assetId, { state: 'running' }, source);
}

/**
 * Work done: a completed work order brings its asset back up when it is down because of a work order or a
 * request (`any-work`; not when a person set it down by hand, nor when its parent holds it down). A cancelled
 * order, or a closed request, brings it back only from its own down interval (`own`).
 */
export async function workDone(tx: Tx, orgId: number, assetId: number | null, how: 'any-work' | 'own', source: StateSource) {
  if (!assetId) return;
  const open = await openOf(tx, orgId, assetId);
  if (!open || open.state !== 'down' || open.cascadedFrom !== null) return;
  const own =
    (source.workOrderId && open.workOrderId === source.workOrderId) ||
    (source.maintenanceRequestId && open.maintenanceRequestId === source.maintenanceRequestId);
  const byWork = open.workOrderId !== null || open.maintenanceRequestId !== null;
  if (own || (how === 'any-work' && byWork)) await changeAssetState(tx, orgId, assetId, { state: 'running' }, source);
}

/** Is the record's own down interval open (the "Asset is down" box as it stands)? */
export const ownDownInterval = (column: 'work_order_id' | 'maintenance_request_id', orgId: SQLish, id: SQLish) =>
  sql<boolean>`exists (select 1 from asset_state_intervals asi where asi.org_id = ${orgId} and asi.${sql.raw(column)} = ${id} and asi.ended_at is null and asi.state = 'down')`;
type SQLish = Parameters<typeof sql>[1];

/** The period asked for, in whole minutes; absent: the last 30 days up to now. */
function periodOf(q: { from?: Date; to?: Date }) {
  const to = toMinute(q.to ?? now());
  const from = toMinute(q.from ?? new Date(to.getTime() - 30 * DAY));
  if (to.getTime() <= from.getTime()) throw badRequest(M.range, 'to');
  return { from, to };
}

/** GET list-asset-states/{id}: the intervals that meet the period, newest first (up to 500), and the state now. */
export async function listAssetStates(tx: ReadTx, orgId: number, assetId: number, q: { from?: Date; to?: Date }): Promise<AssetStatesAnswer> {
  await assetRef(tx, orgId, assetId);
  const { from, to } = periodOf(q);
  const rows = rowsOf<{
    id: number;
    asset_id: number;
    state: AssetState;
    reason: string | null;
    started_at: string | Date;
    ended_at: string | Date | null;
    set_by: number | null;
    by_name: string | null;
    work_order_id: number | null;
    maintenance_request_id: number | null;
    cascaded_from: number | null;
  }>(
    await tx.execute(sql`select i.id, i.asset_id, i.state, i.reason, i.started_at, i.ended_at, i.set_by, trim(u.first_name || ' ' || u.last_name) as by_name,
        i.work_order_id, i.maintenance_request_id, i.cascaded_from
      from asset_state_intervals i left join users u on u.org_id = i.org_id and u.id = i.set_by
      where i.org_id = ${orgId}::int and i.asset_id = ${assetId}::int
        and i.started_at <= ${to.toISOString()}::timestamptz and (i.ended_at is null or i.ended_at > ${from.toISOString()}::timestamptz)
      order by i.started_at desc, i.id desc limit 500`),
  );
  const [open] = rowsOf<{ state: AssetState }>(
    await tx.execute(sql`select state from asset_state_intervals where org_id = ${orgId}::int and asset_id = ${assetId}::int and ended_at is null`),
  );
  const iso = (v: string | Date) => new Date(v).toISOString();
  const intervals: AssetStateInterval[] = rows.map((r) => ({
    id: r.id,
    assetId: r.asset_id,
    state: r.state,
    reason: r.reason,
    startedAt: iso(r.started_at),
    endedAt: r.ended_at === null ? null : iso(r.ended_at),
    setBy: r.set_by !== null ? { id: r.set_by, name: r.by_name ?? '' } : null,
    workOrderId: r.work_order_id,
    maintenanceRequestId: r.maintenance_request_id,
    cascadedFrom: r.cascaded_from,
  }));
  return { state: open?.state ?? 'running', from: from.toISOString(), to: to.toISOString(), intervals };
}

/**
 * GET get-asset-availability: time not down / time in the period, over one asset, a location and everything
 * under it, a category, or all the organisation's assets; minute-exact from the intervals.
 */
export async function assetAvailability(tx: ReadTx, orgId: number, q: AvailabilityQuery): Promise<Availability> {
  const { from, to } = periodOf(q);
  if (q.assetId) await assetRef(tx, orgId, q.assetId);
  const o = sql`${orgId}::int`;
  const scope = q.assetId
    ? sql`(select a.id from assets a where a.org_id = ${o} and a.id = ${q.assetId}::int)`
    : q.locationId
      ? sql`(select a.id from assets a where a.org_id = ${o} and a.location_id in ${subtreeIds('locations', o, sql`${q.locationId}::int`)})`
      : q.assetCategoryId
        ? sql`(select a.id from assets a where a.org_id = ${o} and a.asset_category_id = ${q.assetCategoryId}::int)`
        : sql`(select a.id from assets a where a.org_id = ${o})`;
  const f = sql`${from.toISOString()}::timestamptz`;
  const t = sql`${to.toISOString()}::timestamptz`;
  const at = sql`${toMinute(now()).toISOString()}::timestamptz`;
  const [row] = rowsOf<{ n: number | string; down: number | string | null; top: { asset_id: number; name: string; down_minutes: number }[] | null }>(
    await tx.execute(sql`with d as materialized (${downMinutesByAsset(orgId, scope, f, t, at)})
      select (select count(*) from ${scope} s) as n, (select sum(down_minutes) from d) as down,
        (select json_agg(x order by x.down_minutes desc, x.asset_id) from (
          select d.asset_id, a.name, d.down_minutes from d join assets a on a.org_id = ${o} and a.id = d.asset_id order by d.down_minutes desc, d.asset_id limit 50) x) as top`),
  );
  const periodMinutes = Math.round((to.getTime() - from.getTime()) / MINUTE);
  const n = Number(row.n);
  const down = Math.round(Number(row.down ?? 0));
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    periodMinutes,
    assets: n,
    downMinutes: down,
    availability: n ? (n * periodMinutes - down) / (n * periodMinutes) : null,
    byAsset: (row.top ?? []).map((r) => ({
      id: r.asset_id,
      assetId: displayId('AS', r.asset_id),
      name: r.name,
      downMinutes: Math.round(Number(r.down_minutes)),
      availability: (periodMinutes - Number(r.down_minutes)) / periodMinutes,
    })),
  };
}
