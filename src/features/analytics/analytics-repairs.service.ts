import { sql } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { rowsOf } from '../../server/db/rows';
import { type AnalyticsFilters, type DayRange, type MtbfFigures, type MttrFigures, type RepairTimeStats } from './analytics.schema';
import { num, round2, dayStart, dayEnd, orderOf, plannedOf, scopeOf } from './analytics-sql';

/** Repair times of the insights screen (decisions 038, 063): MTTR and MTBF. SQL helpers: analytics-sql.ts. */

// ---------- MTTR ----------

const stats = (r: { n?: unknown; mean?: unknown; median?: unknown }): RepairTimeStats => ({
  count: num(r.n),
  meanHours: r.mean === null || r.mean === undefined ? null : round2(r.mean),
  medianHours: r.median === null || r.median === undefined ? null : round2(r.median),
});

type RepairStat = { id: number | null; name: string | null; n?: unknown; mean?: unknown; median?: unknown };
type MttrRow = { overall: RepairStat | null; previous: RepairStat | null; by_category: RepairStat[] | null; by_team: RepairStat[] | null };

/**
 * Reactive work orders completed in the range: hours from creation to completion less the time on hold (decision 080), mean and median; by asset
 * category (the asset's), by team (a repair has no plan, so its teams are those of its assignees today, each
 * team once).
 */
export async function mttrFigures(tx: ReadTx, orgId: number, range: DayRange, previous: DayRange, f: AnalyticsFilters, tz = 'UTC'): Promise<MttrFigures> {
  const org = sql`${orgId}::int`;
  const repairs = (r: DayRange) => sql`select w.id, w.asset_id, (extract(epoch from (c.closed_at - w.created_at)) - w.held_seconds) / 3600.0::float8 as h
    from work_order_closures c ${orderOf(orgId, sql`c.work_order_id`, f)}
    where c.org_id = ${org} and c.status = 'completed' and c.closed_at >= ${dayStart(r.from, tz)} and c.closed_at < ${dayEnd(r.to, tz)}
      and not ${plannedOf('w')} ${scopeOf(orgId, 'w', f)}`;
  const agg = sql`count(*)::int as n, avg(h) as mean, percentile_cont(0.5) within group (order by h) as median`;
  const [row] = rowsOf<MttrRow>(
    await tx.execute(sql`with r as materialized (${repairs(range)}),
      cat as (select a.asset_category_id as id, ac.name, ${agg} from r
          left join assets a on a.org_id = ${org} and a.id = r.asset_id
          left join asset_categories ac on ac.org_id = ${org} and ac.id = a.asset_category_id
        group by a.asset_category_id, ac.name),
      r_team as materialized (select distinct r.id, r.h, m.team_id from r
          join work_order_assignees wa on wa.org_id = ${org} and wa.work_order_id = r.id
          join team_members m on m.org_id = ${org} and m.worker_id = wa.user_id),
      team as (select t.id, t.name, s.n, s.mean, s.median
        from (select team_id, ${agg} from r_team group by team_id) s
        join teams t on t.org_id = ${org} and t.id = s.team_id)
      select (select row_to_json(o) from (select ${agg} from r) o) as overall,
        (select row_to_json(o) from (select ${agg} from (${repairs(previous)}) p) o) as previous,
        (select json_agg(c order by c.mean desc nulls last, c.id) from cat c) as by_category,
        (select json_agg(c order by c.mean desc nulls last, c.id) from team c) as by_team`),
  );
  return {
    range,
    overall: stats(row.overall ?? {}),
    previous: stats(row.previous ?? {}),
    byAssetCategory: (row.by_category ?? []).map((r) => ({ assetCategoryId: r.id, name: r.name, ...stats(r) })),
    byTeam: (row.by_team ?? []).map((r) => ({ teamId: r.id as number, name: r.name as string, ...stats(r) })),
  };
}

// ---------- MTBF ----------

/**
 * Per asset, over its reactive (not cancelled) work orders created in the range: the mean of the hours from the
 * completion of one to the creation of the next (0 when the next came before the previous was done; a pair whose
 * earlier order is not completed is not an interval). The ten assets with the shortest MTBF.
 */
export async function mtbfFigures(tx: ReadTx, orgId: number, range: DayRange, f: AnalyticsFilters, tz = 'UTC'): Promise<MtbfFigures> {
  const rows = rowsOf<{ asset_id: number; name: string; failures: number; intervals: number; mtbf: unknown }>(
    await tx.execute(sql`with fail as (
        select w.asset_id, w.created_at, lag(c.closed_at) over (partition by w.asset_id order by w.created_at, w.id) as prev_closed
        from work_orders w left join work_order_closures c on c.org_id = w.org_id and c.work_order_id = w.id and c.status = 'completed'
        where w.org_id = ${orgId}::int and w.asset_id is not null and w.status <> 'cancelled'
          and w.created_at >= ${dayStart(range.from, tz)} and w.created_at < ${dayEnd(range.to, tz)} and not ${plannedOf('w')} ${scopeOf(orgId, 'w', f)})
      select fail.asset_id, a.name, count(*)::int as failures, count(fail.prev_closed)::int as intervals,
        avg(greatest(0, extract(epoch from (fail.created_at - fail.prev_closed)) / 3600.0)) filter (where fail.prev_closed is not null) as mtbf
      from fail join assets a on a.org_id = ${orgId}::int and a.id = fail.asset_id
      group by fail.asset_id, a.name having count(fail.prev_closed) > 0
      order by mtbf asc, failures desc, fail.asset_id limit 10`),
  );
  return {
    range,
    worst: rows.map((r) => ({ assetId: r.asset_id, name: r.name, failures: num(r.failures), intervals: num(r.intervals), mtbfHours: round2(r.mtbf) })),
  };
}
