import { sql, type SQL } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { rowsOf } from '../../server/db/rows';
import { now } from '../../server/clock';
import { laborRows, partRows } from '../analytics/analytics.service';
import { downMinutesByAsset } from '../asset-states/asset-states.sql';
import { toMinute } from '../asset-states/asset-states.time';
import { subtreeIds } from '../locations/location-tree';
import { ROLLUP_DOWN_DAYS, type RollUp } from './asset-rollup.schema';

/**
 * The roll-up of a set of assets (decision 072), for an asset and its descendants or a location and everything
 * under it: `own` and `total` are subqueries of asset ids (`own` within `total`). Work = work orders on them
 * (open = assigned or in progress); cost = labour and parts of those orders through analytics' `laborRows` /
 * `partRows` (the one cost formula), null when `seesAmounts` is false (a worker); down time = the assets' down
 * minutes over the last ROLLUP_DOWN_DAYS days to now, from the intervals (`downMinutesByAsset`, the availability's
 * formula: each asset's overlapping intervals merged, the assets' minutes added up).
 */
export async function rollUp(tx: ReadTx, orgId: number, own: SQL, total: SQL, seesAmounts: boolean): Promise<RollUp> {
  const at = toMinute(now());
  const to = sql`${at.toISOString()}::timestamptz`;
  const from = sql`${new Date(at.getTime() - ROLLUP_DOWN_DAYS * 86_400_000).toISOString()}::timestamptz`;
  const [row] = rowsOf<
    Record<'wo_own' | 'wo_total' | 'open_own' | 'open_total' | 'cost_own' | 'cost_total' | 'down_own' | 'down_total', string | number | null>
  >(
    await tx.execute(sql`with own as materialized (select id from ${own} o), total as materialized (select id from ${total} t),
        wo as (select w.id, w.asset_id in (select id from own) as mine, w.status from work_orders w
          where w.org_id = ${orgId}::int and w.asset_id in (select id from total)),
        cost as (
          select c.work_order_id, sum(c.cost) as cost from (
            select l.work_order_id, coalesce(l.cost, 0) as cost from (${laborRows(orgId, sql`l.work_order_id in (select id from wo)`)}) l
            union all
            select p.work_order_id, p.cost from (${partRows(orgId, sql`wp.work_order_id in (select id from wo)`)}) p
          ) c group by c.work_order_id
        ),
        down as (${downMinutesByAsset(orgId, sql`(select id from total)`, from, to, to)})
      select
        (select count(*) from wo where wo.mine) as wo_own,
        (select count(*) from wo) as wo_total,
        (select count(*) from wo where wo.mine and wo.status in ('assigned', 'in-progress')) as open_own,
        (select count(*) from wo where wo.status in ('assigned', 'in-progress')) as open_total,
        (select coalesce(sum(cost.cost), 0) from cost join wo on wo.id = cost.work_order_id where wo.mine) as cost_own,
        (select coalesce(sum(cost.cost), 0) from cost) as cost_total,
        (select coalesce(sum(down.down_minutes), 0) from down where down.asset_id in (select id from own)) as down_own,
        (select coalesce(sum(down.down_minutes), 0) from down) as down_total`),
  );
  const n = (v: string | number | null) => Number(v ?? 0);
  return {
    workOrders: { own: n(row.wo_own), total: n(row.wo_total) },
    openWorkOrders: { own: n(row.open_own), total: n(row.open_total) },
    costMinor: seesAmounts ? { own: n(row.cost_own), total: n(row.cost_total) } : null,
    downMinutes: { own: Math.round(n(row.down_own)), total: Math.round(n(row.down_total)) },
  };
}

/** The roll-up of a location (decision 072): "own" the assets in it, "total" those in it and everything under it. */
export function locationRollUp(tx: ReadTx, orgId: number, locationId: number, seesAmounts: boolean): Promise<RollUp> {
  const o = sql`${orgId}::int`;
  const inside = (locations: SQL) => sql`(select a.id from assets a where a.org_id = ${o} and a.location_id in ${locations})`;
  return rollUp(tx, orgId, inside(sql`(${locationId}::int)`), inside(subtreeIds('locations', o, sql`${locationId}::int`)), seesAmounts);
}
