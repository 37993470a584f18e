import { sql, type SQL } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { rowsOf } from '../../server/db/rows';
import { moneySettings } from '../organization/organization.service';
import { quotationNumber } from '../quotations/quotations.schema';
import { workOrderDisplayId } from '../work-orders/work-orders.schema';
import { pmCompliance } from '../pm-plans/pm-plans.service';
import { laborCostMinor } from '../work-orders/work-orders.service';
import { addDays } from '../../shared/dates';
import {
  AGE_BUCKETS,
  daysIn,
  type AnalyticsFilters,
  type BacklogFigures,
  type ComplianceFigures,
  type CostFigures,
  type DayRange,
  type DowntimeFigures,
  type MtbfFigures,
  type MttrFigures,
  type MyWorkFigures,
  type PlannedShareFigures,
  QUOTED_ROWS_CAP,
  type QuotedActual,
  type QuotedVsActualFigures,
  type RepairTimeStats,
  type ThroughputFigures,
} from './analytics.schema';

/*
 * Every figure of the analytics screen (decisions 038, 063), each one function and, where it can, one statement:
 * plain SQL over the rows (work orders, work_order_closures, labour, parts, plans' occurrences), the same SQL with
 * or without a filter (no roll-up, so nothing to drift). Days, weeks and months are those of a time zone (`tz`,
 * an IANA name, 'UTC' by default): a range [from, to] of whole days there. "Open" is assigned or in progress; a
 * work order's completion time is its row in work_order_closures. A work order is planned when a PM plan created
 * it (pm_occurrences), reactive otherwise. Its work stations and teams are its plan's, plus those of the people
 * assigned to it (user_work_stations, team_members).
 */

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const round2 = (v: unknown) => Math.round(num(v) * 100) / 100;

/** The instant day `day` starts in time zone `tz`. */
const dayStart = (day: string, tz: string) => sql`(${day}::date::timestamp at time zone ${tz}::text)`;
/** The instant the day after `day` starts in `tz` (a range's end, exclusive). */
const dayEnd = (day: string, tz: string) => sql`((${day}::date + 1)::timestamp at time zone ${tz}::text)`;
/** The day of `tz` an instant falls in. */
const localDay = (t: SQL, tz: string) => sql`((${t}) at time zone ${tz}::text)::date`;
const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** The time zone (IANA name) whose days the organisation's figures count in: its company setting (decision 064). */
export { orgTimeZone } from '../organization/organization.service';

/**
 * The work order of each row of a smaller set (labour, parts, closures) as alias `w`, by its key: an index probe
 * per row (lateral, `offset 0` keeps it one). Joined plainly, the planner read all the organisation's orders to
 * hash them (100,000 at the budget's size) for a year's 10,000 rows.
 */
const orderOf = (orgId: number, id: SQL, f: AnalyticsFilters) =>
  // A team or work-station filter probes a set of orders (ordersOf): per probed row the planner scanned that set
  // (4 s for a year's repairs); joined plainly, both sides are hashed.
  f.teamId || f.workStationId
    ? sql`join work_orders w on w.org_id = ${orgId}::int and w.id = ${id}`
    : sql`cross join lateral (select w.org_id, w.id, w.asset_id, w.created_at, w.status from work_orders w
    where w.org_id = ${orgId}::int and w.id = ${id} offset 0) w`;

/** Does a labour or parts figure with these filters need the work order's row (`w`)? The assignee filter of labour is its worker. */
const needsOrder = (f: AnalyticsFilters, labor: boolean) => !!(f.assetId || f.assetCategoryId || f.workStationId || f.teamId || (f.assigneeId && !labor));

/** Is work order `w` (an alias) one a PM plan created? */
const plannedOf = (w: string) => sql.raw(`exists (select 1 from pm_occurrences o where o.org_id = ${w}.org_id and o.work_order_id = ${w}.id)`);

/**
 * The work orders of a work station or a team, as a set: those its plans created, and those of the people in it
 * (a station's people: user_work_stations; a team's: team_members). Not correlated with the order being filtered,
 * so a statement builds the set once and probes it by hash (asked per order it took seconds at 1M orders).
 */
const ordersOf = (orgId: number, by: 'workStation' | 'team', id: number) => {
  const [planColumn, people] =
    by === 'team'
      ? [sql.raw('p.team_id'), sql`select worker_id from team_members where org_id = ${orgId}::int and team_id = ${id}::int`]
      : [sql.raw('p.work_station_id'), sql`select user_id from user_work_stations where org_id = ${orgId}::int and work_station_id = ${id}::int`];
  return sql`(select o.work_order_id from pm_occurrences o join pm_plans p on p.org_id = o.org_id and p.id = o.plan_id
      where o.org_id = ${orgId}::int and ${planColumn} = ${id}::int and o.work_order_id is not null
    union select wa.work_order_id from work_order_assignees wa where wa.org_id = ${orgId}::int and wa.user_id in (${people}))`;
};

/**
 * The (work order, work station) pairs of the orders whose ids `ids` (an array) holds, as a relation to join:
 * two index scans over those ids (the organisation's pairs, 35,000 at the budget's size, took 200 ms to build).
 */
const orderStations = (orgId: number, ids: SQL) => sql`(select wa.work_order_id as wo_id, s.work_station_id as ws from work_order_assignees wa
      join user_work_stations s on s.org_id = wa.org_id and s.user_id = wa.user_id where wa.org_id = ${orgId}::int and wa.work_order_id = any(${ids})
    union select o.work_order_id, p.work_station_id from pm_occurrences o join pm_plans p on p.org_id = o.org_id and p.id = o.plan_id
      where o.org_id = ${orgId}::int and p.work_station_id is not null and o.work_order_id = any(${ids}))`;

/**
 * The filters as a condition on work order `w` (the organisation is in the caller's WHERE). `laborAlias`: in a
 * labour figure the assignee filter means the person who logged the time.
 */
function scopeOf(orgId: number, w: string, f: AnalyticsFilters, laborAlias?: string): SQL {
  const parts: SQL[] = [];
  if (f.assetId) parts.push(sql`and ${sql.raw(w)}.asset_id = ${f.assetId}::int`);
  if (f.assetCategoryId)
    parts.push(sql`and exists (select 1 from assets fa where fa.org_id = ${sql.raw(w)}.org_id and fa.id = ${sql.raw(w)}.asset_id and fa.asset_category_id = ${f.assetCategoryId}::int)`);
  if (f.workStationId) parts.push(sql`and ${sql.raw(w)}.id in ${ordersOf(orgId, 'workStation', f.workStationId)}`);
  if (f.teamId) parts.push(sql`and ${sql.raw(w)}.id in ${ordersOf(orgId, 'team', f.teamId)}`);
  if (f.assigneeId) {
    if (laborAlias) parts.push(sql`and ${sql.raw(laborAlias)}.worker_id = ${f.assigneeId}::int`);
    else parts.push(sql`and exists (select 1 from work_order_assignees fw where fw.org_id = ${sql.raw(w)}.org_id and fw.work_order_id = ${sql.raw(w)}.id and fw.user_id = ${f.assigneeId}::int)`);
  }
  return sql.join(parts, sql` `);
}

/** The filters on maintenance order `m`: it has an asset but no assignee, team or work station, so those filters leave it out. */
function maintenanceOrderScope(m: string, f: AnalyticsFilters): SQL {
  if (f.workStationId || f.teamId || f.assigneeId) return sql`and false`;
  const parts: SQL[] = [];
  if (f.assetId) parts.push(sql`and ${sql.raw(m)}.asset_id = ${f.assetId}::int`);
  if (f.assetCategoryId)
    parts.push(sql`and exists (select 1 from assets fa where fa.org_id = ${sql.raw(m)}.org_id and fa.id = ${sql.raw(m)}.asset_id and fa.asset_category_id = ${f.assetCategoryId}::int)`);
  return sql.join(parts, sql` `);
}

// ---------- backlog ----------

/** Open work orders now (by age, overdue), and at the end of each day of the range (and the day before it). */
export async function backlogFigures(tx: ReadTx, orgId: number, range: DayRange, f: AnalyticsFilters, now: Date, tz = 'UTC'): Promise<BacklogFigures> {
  const n = ts(now);
  const [head] = rowsOf<Record<string, string | number>>(
    await tx.execute(sql`select count(*)::int as open, count(*) filter (where w.due_date < ${n})::int as overdue,
        count(*) filter (where w.created_at > ${n} - interval '8 days')::int as a0,
        count(*) filter (where w.created_at <= ${n} - interval '8 days' and w.created_at > ${n} - interval '31 days')::int as a1,
        count(*) filter (where w.created_at <= ${n} - interval '31 days' and w.created_at > ${n} - interval '91 days')::int as a2,
        count(*) filter (where w.created_at <= ${n} - interval '91 days')::int as a3
      from work_orders w where w.org_id = ${orgId}::int and w.status in ('assigned', 'in-progress') ${scopeOf(orgId, 'w', f)}`),
  );
  // Open at the end of day d = open now - created after d + closed after d (every closed order was created before
  // it closed): the events from the day before the range up to now, per day of the time zone.
  const since = dayStart(addDays(range.from, -1), tz);
  const series = rowsOf<{ day: string; open: number }>(
    await tx.execute(sql`with ev as (
        select ${localDay(sql`w.created_at`, tz)} as d, -1 as k from work_orders w
          where w.org_id = ${orgId}::int and w.created_at >= ${since} and w.created_at <= ${n} ${scopeOf(orgId, 'w', f)}
        union all
        select ${localDay(sql`c.closed_at`, tz)}, 1 from work_order_closures c ${orderOf(orgId, sql`c.work_order_id`, f)}
          where c.org_id = ${orgId}::int and c.closed_at >= ${since} and c.closed_at <= ${n} and w.created_at <= ${n} ${scopeOf(orgId, 'w', f)}),
      per_day as materialized (select d, sum(k)::int as k from ev group by d),
      total as (select coalesce(sum(k), 0)::int as k from per_day),
      days as (select g::date as d from generate_series((${range.from}::date - 1)::timestamp, ${range.to}::date::timestamp, interval '1 day') g)
      -- open at the end of day d = open now + the events after d = open now + all events - those up to d
      select to_char(days.d, 'YYYY-MM-DD') as day,
        (${head.open}::int + total.k - sum(coalesce(p.k, 0)) over (order by days.d))::int as open
      from days cross join total left join per_day p on p.d = days.d order by days.d`),
  );
  const [before, ...inRange] = series;
  const counts = [head.a0, head.a1, head.a2, head.a3].map(num);
  return {
    range,
    openNow: num(head.open),
    overdueNow: num(head.overdue),
    ageBuckets: AGE_BUCKETS.map((bucket, i) => ({ bucket, count: counts[i] })),
    overTime: inRange.map((r) => ({ day: r.day, open: num(r.open) })),
    openAtEnd: { current: num(inRange.at(-1)?.open), previous: num(before?.open) },
  };
}

// ---------- throughput ----------

/** Created and completed per ISO week of the range; totals now and in the period before. */
export async function throughputFigures(tx: ReadTx, orgId: number, range: DayRange, previous: DayRange, f: AnalyticsFilters, tz = 'UTC'): Promise<ThroughputFigures> {
  const pf = dayStart(previous.from, tz);
  const te = dayEnd(range.to, tz);
  const rows = rowsOf<{ week: string | null; created: number; completed: number }>(
    await tx.execute(sql`with ev as (
        select ${localDay(sql`w.created_at`, tz)} as d, 1 as c, 0 as k from work_orders w
          where w.org_id = ${orgId}::int and w.created_at >= ${pf} and w.created_at < ${te} ${scopeOf(orgId, 'w', f)}
        union all
        select ${localDay(sql`c.closed_at`, tz)}, 0, 1 from work_order_closures c ${needsOrder(f, false) ? orderOf(orgId, sql`c.work_order_id`, f) : sql``}
          where c.org_id = ${orgId}::int and c.status = 'completed' and c.closed_at >= ${pf} and c.closed_at < ${te} ${scopeOf(orgId, 'w', f)}),
      weeks as (select g::date as wk from generate_series(date_trunc('week', ${range.from}::date::timestamp), ${range.to}::date::timestamp, interval '1 week') g),
      cur as (select date_trunc('week', d::timestamp)::date as wk, sum(c)::int as created, sum(k)::int as completed from ev where d >= ${range.from}::date group by 1)
      select to_char(weeks.wk, 'YYYY-MM-DD') as week, coalesce(cur.created, 0) as created, coalesce(cur.completed, 0) as completed
        from weeks left join cur on cur.wk = weeks.wk
      union all
      select null, coalesce(sum(c), 0)::int, coalesce(sum(k), 0)::int from ev where d < ${range.from}::date
      order by 1 nulls first`),
  );
  const prev = rows.find((r) => r.week === null)!;
  const weeks = rows.filter((r) => r.week !== null).map((r) => ({ week: r.week!, created: num(r.created), completed: num(r.completed) }));
  const sum = (k: 'created' | 'completed') => weeks.reduce((s, w) => s + w[k], 0);
  return {
    range,
    weeks,
    created: { current: sum('created'), previous: num(prev.created) },
    completed: { current: sum('completed'), previous: num(prev.completed) },
  };
}

// ---------- MTTR ----------

const stats = (r: { n?: unknown; mean?: unknown; median?: unknown }): RepairTimeStats => ({
  count: num(r.n),
  meanHours: r.mean === null || r.mean === undefined ? null : round2(r.mean),
  medianHours: r.median === null || r.median === undefined ? null : round2(r.median),
});

type RepairStat = { id: number | null; name: string | null; n?: unknown; mean?: unknown; median?: unknown };
type MttrRow = { overall: RepairStat | null; previous: RepairStat | null; by_category: RepairStat[] | null; by_team: RepairStat[] | null };

/**
 * Reactive work orders completed in the range: hours from creation to completion, mean and median; by asset
 * category (the asset's), by team (a repair has no plan, so its teams are those of its assignees today, each
 * team once).
 */
export async function mttrFigures(tx: ReadTx, orgId: number, range: DayRange, previous: DayRange, f: AnalyticsFilters, tz = 'UTC'): Promise<MttrFigures> {
  const org = sql`${orgId}::int`;
  const repairs = (r: DayRange) => sql`select w.id, w.asset_id, extract(epoch from (c.closed_at - w.created_at)) / 3600.0::float8 as h
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
  return { range, worst: rows.map((r) => ({ assetId: r.asset_id, name: r.name, failures: num(r.failures), intervals: num(r.intervals), mtbfHours: round2(r.mtbf) })) };
}

// ---------- labour and parts (the one place their cost is computed) ----------

/**
 * Labour rows (alias `l` in `where`, a condition such as a range of start times): hours and cost, the rate the
 * line kept when it was logged (`rate_minor`, or a contractor's own rate) through the work orders' one formula
 * `laborCostMinor` (minor units, rounded per row; null without a rate). Every labour figure reads it, as the
 * order's own cost (getWorkOrderCost) reads the same columns with the same formula (decision 063).
 */
export function laborRows(orgId: number, where: SQL): SQL {
  return sql`select l.org_id, l.id, l.work_order_id, l.worker_id, l.reason_id, l.start_date, l.share_id is not null as external,
      extract(epoch from (l.end_date - l.start_date)) / 3600.0 as hours,
      ${laborCostMinor(sql`l.start_date`, sql`l.end_date`, sql`coalesce(l.external_rate_minor, l.rate_minor)`)} as cost
    from work_order_labors l where l.org_id = ${orgId}::int and ${where}`;
}
/** Labour that started in a range of days. */
const laborIn = (orgId: number, r: DayRange, tz: string) => laborRows(orgId, sql`l.start_date >= ${dayStart(r.from, tz)} and l.start_date < ${dayEnd(r.to, tz)}`);

/**
 * Parts used on work orders (alias `wp` in `where`): quantity x the unit price the line kept when the part was
 * used (minor units), a contractor's parts at the unit price they reported.
 */
export function partRows(orgId: number, where: SQL): SQL {
  return sql`select wp.org_id, wp.work_order_id, wp.created_at, wp.quantity * coalesce(wp.external_unit_price_minor, wp.unit_price_minor, 0) as cost
    from work_order_parts wp where wp.org_id = ${orgId}::int and ${where}`;
}
const partsIn = (orgId: number, r: DayRange, tz: string) => partRows(orgId, sql`wp.created_at >= ${dayStart(r.from, tz)} and wp.created_at < ${dayEnd(r.to, tz)}`);

// ---------- downtime ----------

const byCat = (cat: string) => sql.raw(`coalesce(sum(hours) filter (where category = '${cat}'), 0)`);

/** Labour hours by the reason's category (and blocking flag), per asset and per work station; availability loss per asset. */
export async function downtimeFigures(tx: ReadTx, orgId: number, range: DayRange, previous: DayRange, f: AnalyticsFilters, tz = 'UTC'): Promise<DowntimeFigures> {
  const hoursOf = (r: DayRange) => sql`select l.hours, w.asset_id, w.id as wo_id, t.type as category, t.is_blocking_reason as blocking
      from (${laborIn(orgId, r, tz)}) l ${orderOf(orgId, sql`l.work_order_id`, f)}
      join time_tracking_reasons t on t.org_id = l.org_id and t.id = l.reason_id
      where true ${scopeOf(orgId, 'w', f, 'l')}`;
  const [row] = rowsOf<{ by_category: Record<string, unknown>[] | null; by_asset: Record<string, unknown>[] | null; by_station: Record<string, unknown>[] | null; cur: unknown; prev: unknown }>(
    await tx.execute(sql`with h as materialized (${hoursOf(range)}),
      by_asset as (select s.*, a.name from (select h.asset_id, ${byCat('availability')} as availability, ${byCat('performance')} as performance,
            ${byCat('quality')} as quality, ${byCat('productivity')} as productivity
          from h group by h.asset_id order by availability desc, 1 nulls last limit 50) s
        left join assets a on a.org_id = ${orgId}::int and a.id = s.asset_id),
      by_station as (select s.id as work_station_id, s.name, ${byCat('availability')} as availability, ${byCat('performance')} as performance,
            ${byCat('quality')} as quality, ${byCat('productivity')} as productivity
          from (select h.*, st.ws from h left join ${orderStations(orgId, sql`array(select distinct wo_id from h)`)} st on st.wo_id = h.wo_id) hw
            left join work_stations s on s.org_id = ${orgId}::int and s.id = hw.ws
          group by s.id, s.name order by availability desc, 1 nulls last limit 50)
      select (select json_agg(c order by c.category, c.blocking) from (select category, blocking, sum(hours) as hours from h group by 1, 2) c) as by_category,
        (select json_agg(b order by b.availability desc, b.asset_id nulls last) from by_asset b) as by_asset,
        (select json_agg(b order by b.availability desc, b.work_station_id nulls last) from by_station b) as by_station,
        (select coalesce(sum(hours), 0) from h where category = 'availability') as cur,
        (select coalesce(sum(hours), 0) from (${hoursOf(previous)}) p where category = 'availability') as prev`),
  );
  const rangeHours = daysIn(range) * 24;
  const cats = (r: Record<string, unknown>) => ({
    availability: round2(r.availability),
    performance: round2(r.performance),
    quality: round2(r.quality),
    productivity: round2(r.productivity),
  });
  return {
    range,
    byCategory: (row.by_category ?? []).map((r) => ({ category: r.category as DowntimeFigures['byCategory'][number]['category'], blocking: r.blocking as boolean, hours: round2(r.hours) })),
    byAsset: (row.by_asset ?? []).map((r) => ({
      assetId: numOrNull(r.asset_id),
      name: (r.name as string | null) ?? null,
      ...cats(r),
      availabilityLoss: Math.round((num(r.availability) / rangeHours) * 10_000) / 10_000,
    })),
    byWorkStation: (row.by_station ?? []).map((r) => ({ workStationId: numOrNull(r.work_station_id), name: (r.name as string | null) ?? null, ...cats(r) })),
    availabilityHours: { current: round2(row.cur), previous: round2(row.prev) },
  };
}

// ---------- planned vs reactive ----------

/** Work orders created in the range (and maintenance orders) planned vs reactive, and labour hours of the range on each. */
export async function plannedShareFigures(tx: ReadTx, orgId: number, range: DayRange, previous: DayRange, f: AnalyticsFilters, tz = 'UTC'): Promise<PlannedShareFigures> {
  const one = async (r: DayRange) => {
    const from = dayStart(r.from, tz);
    const to = dayEnd(r.to, tz);
    // One pass over the orders and one over the labour, each row marked planned or not once.
    // The plans' orders once, as a set to hash (asked per row, `exists` took a probe per order and per labour row).
    const [row] = rowsOf<Record<string, unknown>>(
      await tx.execute(sql`with pl as materialized (select distinct o.work_order_id as id from pm_occurrences o where o.org_id = ${orgId}::int and o.work_order_id is not null)
        select o.planned, o.reactive, h.planned_hours, h.reactive_hours,
          (select count(*) from maintenance_orders m where m.org_id = ${orgId}::int and m.created_at >= ${from} and m.created_at < ${to} and m.status <> 'cancel'
            ${maintenanceOrderScope('m', f)})::int as mos
        from (select count(pl.id)::int as planned, (count(*) - count(pl.id))::int as reactive
            from work_orders w left join pl on pl.id = w.id
            where w.org_id = ${orgId}::int and w.created_at >= ${from} and w.created_at < ${to} ${scopeOf(orgId, 'w', f)}) o,
          (select coalesce(sum(l.hours) filter (where pl.id is not null), 0) as planned_hours, coalesce(sum(l.hours) filter (where pl.id is null), 0) as reactive_hours
            from (${laborIn(orgId, r, tz)}) l ${needsOrder(f, true) ? orderOf(orgId, sql`l.work_order_id`, f) : sql``} left join pl on pl.id = l.work_order_id
            where true ${scopeOf(orgId, 'w', f, 'l')}) h`),
    );
    return { planned: num(row.planned), reactive: num(row.reactive), mos: num(row.mos), plannedHours: num(row.planned_hours), reactiveHours: num(row.reactive_hours) };
  };
  const cur = await one(range);
  const prev = await one(previous);
  const orderShare = (x: typeof cur) => (x.planned + x.mos + x.reactive ? (x.planned + x.mos) / (x.planned + x.mos + x.reactive) : null);
  const hourShare = (x: typeof cur) => (x.plannedHours + x.reactiveHours ? x.plannedHours / (x.plannedHours + x.reactiveHours) : null);
  return {
    range,
    plannedOrders: cur.planned,
    reactiveOrders: cur.reactive,
    maintenanceOrders: cur.mos,
    plannedHours: round2(cur.plannedHours),
    reactiveHours: round2(cur.reactiveHours),
    plannedOrderShare: { current: orderShare(cur), previous: orderShare(prev) },
    plannedHourShare: { current: hourShare(cur), previous: hourShare(prev) },
  };
}

// ---------- PM compliance ----------

/** Maintenance orders due in the range (not cancelled): done by the due day, after it, or not done with the day passed. */
async function orderCompliance(tx: ReadTx, orgId: number, r: DayRange, f: AnalyticsFilters, now: Date, tz: string) {
  const [row] = rowsOf<{ on_time: number; late: number; missed: number }>(
    await tx.execute(sql`select
        count(*) filter (where ${localDay(sql`m.completion_date`, tz)} <= ${localDay(sql`m.due_date`, tz)})::int as on_time,
        count(*) filter (where ${localDay(sql`m.completion_date`, tz)} > ${localDay(sql`m.due_date`, tz)})::int as late,
        count(*) filter (where m.completion_date is null and ${localDay(sql`m.due_date`, tz)} < ${localDay(ts(now), tz)})::int as missed
      from maintenance_orders m where m.org_id = ${orgId}::int and m.status <> 'cancel'
        and m.due_date >= ${dayStart(r.from, tz)} and m.due_date < ${dayEnd(r.to, tz)} ${maintenanceOrderScope('m', f)}`),
  );
  const due = num(row.on_time) + num(row.late) + num(row.missed);
  return { due, onTime: num(row.on_time), late: num(row.late), missed: num(row.missed), rate: due ? num(row.on_time) / due : null };
}

/**
 * The filters on a plan's occurrence (pmCompliance's scope, on the tables pm_occurrences and work_orders, the
 * order left-joined): asset and category by the occurrence's asset; team and work station by its plan's or,
 * once the order exists, the order's (as every other figure); assignee by the order's assignees.
 */
function occurrenceScope(orgId: number, f: AnalyticsFilters): SQL | undefined {
  const parts: SQL[] = [];
  if (f.assetId) parts.push(sql`pm_occurrences.asset_id = ${f.assetId}::int`);
  if (f.assetCategoryId)
    parts.push(sql`exists (select 1 from assets fa where fa.org_id = pm_occurrences.org_id and fa.id = pm_occurrences.asset_id and fa.asset_category_id = ${f.assetCategoryId}::int)`);
  const ofPlan = (column: string, id: number) =>
    sql`exists (select 1 from pm_plans fp where fp.org_id = pm_occurrences.org_id and fp.id = pm_occurrences.plan_id and ${sql.raw(`fp.${column}`)} = ${id}::int)`;
  if (f.teamId) parts.push(sql`(${ofPlan('team_id', f.teamId)} or work_orders.id in ${ordersOf(orgId, 'team', f.teamId)})`);
  if (f.workStationId) parts.push(sql`(${ofPlan('work_station_id', f.workStationId)} or work_orders.id in ${ordersOf(orgId, 'workStation', f.workStationId)})`);
  if (f.assigneeId)
    parts.push(sql`exists (select 1 from work_order_assignees fw where fw.org_id = work_orders.org_id and fw.work_order_id = work_orders.id and fw.user_id = ${f.assigneeId}::int)`);
  return parts.length ? sql.join(parts, sql` and `) : undefined;
}

/** PM compliance from the plans' occurrences (pmCompliance) once a plan exists; before, from maintenance orders. Every filter applies. */
export async function complianceFigures(tx: ReadTx, orgId: number, range: DayRange, previous: DayRange, f: AnalyticsFilters, now: Date, tz = 'UTC'): Promise<ComplianceFigures> {
  const [{ plans }] = rowsOf<{ plans: boolean }>(await tx.execute(sql`select exists (select 1 from pm_plans where org_id = ${orgId}::int) as plans`));
  if (plans) {
    const cur = await pmCompliance(tx, orgId, range, now, occurrenceScope(orgId, f));
    const prev = await pmCompliance(tx, orgId, previous, now, occurrenceScope(orgId, f));
    return { range, source: 'plans', due: cur.due, onTime: cur.onTime, late: cur.late, missed: cur.missed, rate: { current: cur.rate, previous: prev.rate } };
  }
  const cur = await orderCompliance(tx, orgId, range, f, now, tz);
  const prev = await orderCompliance(tx, orgId, previous, f, now, tz);
  return { range, source: 'maintenance-orders', due: cur.due, onTime: cur.onTime, late: cur.late, missed: cur.missed, rate: { current: cur.rate, previous: prev.rate } };
}

// ---------- cost ----------

/**
 * Labour (laborRows) plus parts used (partRows) per asset, work station and month; labour counts by its start,
 * parts by the day they were added to the order. The range's items are read once (one materialised CTE) and
 * every total and breakdown comes out of the same statement.
 */
export async function costFigures(tx: ReadTx, orgId: number, range: DayRange, previous: DayRange, f: AnalyticsFilters, tz = 'UTC'): Promise<CostFigures> {
  const { currency } = await moneySettings(tx, orgId);
  const items = (r: DayRange) => sql`
      select w.id as wo_id, w.asset_id, ${localDay(sql`l.start_date`, tz)} as at, coalesce(l.cost, 0) as labor, 0::numeric as parts, case when l.cost is null then l.hours else 0 end as unrated
        from (${laborIn(orgId, r, tz)}) l ${orderOf(orgId, sql`l.work_order_id`, f)} where true ${scopeOf(orgId, 'w', f, 'l')}
      union all
      select w.id, w.asset_id, ${localDay(sql`pr.created_at`, tz)}, 0, pr.cost, 0
        from (${partsIn(orgId, r, tz)}) pr ${orderOf(orgId, sql`pr.work_order_id`, f)} where true ${scopeOf(orgId, 'w', f)}`;
  // The period before: its total alone, from the lines without their orders when no filter needs them.
  const previousTotal =
    needsOrder(f, true) || needsOrder(f, false)
      ? sql`select coalesce(sum(labor + parts), 0) from (${items(previous)}) p`
      : sql`select coalesce((select sum(l.cost) from (${laborIn(orgId, previous, tz)}) l where true ${scopeOf(orgId, 'w', f, 'l')}), 0)
          + coalesce((select sum(pr.cost) from (${partsIn(orgId, previous, tz)}) pr), 0)`;
  const [row] = rowsOf<{ totals: Record<string, unknown>; by_asset: Record<string, unknown>[] | null; by_station: Record<string, unknown>[] | null; by_month: Record<string, unknown>[] | null }>(
    await tx.execute(sql`with i as materialized (${items(range)}),
      by_asset as (select s.asset_id, a.name, s.labor, s.parts from (
          select asset_id, sum(labor) as labor, sum(parts) as parts from i group by 1 order by sum(labor) + sum(parts) desc, 1 nulls last limit 50) s
        left join assets a on a.org_id = ${orgId}::int and a.id = s.asset_id),
      by_station as (select s.id as work_station_id, s.name, sum(labor) as labor, sum(parts) as parts
        from (select st.ws, i.labor, i.parts from i left join ${orderStations(orgId, sql`array(select distinct wo_id from i)`)} st on st.wo_id = i.wo_id) st
          left join work_stations s on s.org_id = ${orgId}::int and s.id = st.ws group by 1, 2 order by sum(labor + parts) desc, 1 nulls last limit 50),
      by_month as (select to_char(at, 'YYYY-MM') as month, sum(labor) as labor, sum(parts) as parts from i group by 1 order by 1)
      select (select json_build_object('labor', coalesce(sum(labor), 0), 'parts', coalesce(sum(parts), 0), 'unrated', coalesce(sum(unrated), 0),
            'prev', (${previousTotal})) from i) as totals,
        (select json_agg(b order by b.labor + b.parts desc, b.asset_id nulls last) from by_asset b) as by_asset,
        (select json_agg(b order by b.labor + b.parts desc, b.work_station_id nulls last) from by_station b) as by_station,
        (select json_agg(b order by b.month) from by_month b) as by_month`),
  );
  const totals = row.totals;
  const money = (r: Record<string, unknown>) => ({ labor: num(r.labor), parts: num(r.parts), total: num(r.labor) + num(r.parts) });
  return {
    range,
    currency,
    laborCost: num(totals.labor),
    partsCost: num(totals.parts),
    unratedHours: round2(totals.unrated),
    byAsset: (row.by_asset ?? []).map((r) => ({ assetId: numOrNull(r.asset_id), name: (r.name as string | null) ?? null, ...money(r) })),
    byWorkStation: (row.by_station ?? []).map((r) => ({ workStationId: numOrNull(r.work_station_id), name: (r.name as string | null) ?? null, ...money(r) })),
    byMonth: (row.by_month ?? []).map((r) => ({ month: r.month as string, ...money(r) })),
    total: { current: num(totals.labor) + num(totals.parts), previous: num(totals.prev) },
  };
}

// ---------- quoted vs actual ----------

/**
 * Work orders linked to a quotation (work_orders.quotation_id) and created in the range, with the filters: the
 * quotation's stored amounts (the tax engine's, src/shared/tax.ts) against the order's actual cost, all its
 * labour (laborRows) and parts (partRows) whenever logged. Per quotation: its amounts once, against the sum of
 * those orders. Difference = actual - the quoted amount before tax (cost carries no tax). The totals and counts
 * are over all of them; the lists hold the QUOTED_ROWS_CAP quotations and orders with the largest absolute
 * difference (decision 038, fourth addendum).
 */
export async function quotedVsActualFigures(tx: ReadTx, orgId: number, range: DayRange, f: AnalyticsFilters, tz = 'UTC'): Promise<QuotedVsActualFigures> {
  const { currency } = await moneySettings(tx, orgId);
  type Sums = { labor: unknown; parts: unknown; unrated: unknown; untaxed: unknown; total: unknown };
  type OrderRow = Sums & { id: number; title: string; status: string; quotation_id: number };
  type QuotationRow = Sums & { quotation_id: number; orders: number; q_status: string; customer: string | null };
  const linked = sql`(select id from o)`;
  const [row] = rowsOf<{ totals: { quoted: unknown; untaxed: unknown; actual: unknown; quotations: unknown; orders: unknown }; quotations: QuotationRow[] | null; work_orders: OrderRow[] | null }>(
    await tx.execute(sql`with o as materialized (select w.id, w.title, w.status, w.quotation_id from work_orders w
          where w.org_id = ${orgId}::int and w.quotation_id is not null and w.created_at >= ${dayStart(range.from, tz)} and w.created_at < ${dayEnd(range.to, tz)}
            ${scopeOf(orgId, 'w', f)}),
      lab as (select l.work_order_id, sum(coalesce(l.cost, 0)) as labor, sum(case when l.cost is null then l.hours else 0 end) as unrated
        from (${laborRows(orgId, sql`l.work_order_id in ${linked}`)}) l group by 1),
      par as (select p.work_order_id, sum(p.cost) as parts from (${partRows(orgId, sql`wp.work_order_id in ${linked}`)}) p group by 1),
      k as materialized (select o.*, coalesce(lab.labor, 0) as labor, coalesce(par.parts, 0) as parts, coalesce(lab.unrated, 0) as unrated
        from o left join lab on lab.work_order_id = o.id left join par on par.work_order_id = o.id),
      qa as materialized (select s.quotation_id, s.orders, s.labor, s.parts, s.unrated, q.status as q_status, q.untaxed, q.total, q.customer_id,
          s.labor + s.parts - q.untaxed as difference
        from (select quotation_id, count(*)::int as orders, sum(labor) as labor, sum(parts) as parts, sum(unrated) as unrated from k group by quotation_id) s
          join quotations q on q.org_id = ${orgId}::int and q.id = s.quotation_id),
      top_q as (select t.*, cv.name as customer
        from (select * from qa order by abs(difference) desc, quotation_id limit ${QUOTED_ROWS_CAP}::int) t
          left join customer_vendors cv on cv.org_id = ${orgId}::int and cv.id = t.customer_id),
      top_w as (select k.*, qa.untaxed, qa.total, k.labor + k.parts - qa.untaxed as difference
        from k join qa on qa.quotation_id = k.quotation_id order by abs(k.labor + k.parts - qa.untaxed) desc, k.id limit ${QUOTED_ROWS_CAP}::int)
      select (select json_build_object('quoted', coalesce(sum(total), 0), 'untaxed', coalesce(sum(untaxed), 0), 'actual', coalesce(sum(labor + parts), 0),
            'quotations', count(*), 'orders', coalesce(sum(orders), 0)) from qa) as totals,
        (select json_agg(t order by abs(t.difference) desc, t.quotation_id) from top_q t) as quotations,
        (select json_agg(t order by abs(t.difference) desc, t.id) from top_w t) as work_orders`),
  );
  const amounts = (r: Sums): QuotedActual => {
    const labor = num(r.labor);
    const parts = num(r.parts);
    return { quoted: num(r.total), quotedUntaxed: num(r.untaxed), labor, parts, actual: labor + parts, difference: labor + parts - num(r.untaxed), unratedHours: round2(r.unrated) };
  };
  const totals = row.totals;
  return {
    range,
    currency,
    workOrders: (row.work_orders ?? []).map((r) => ({
      workOrderId: r.id,
      number: workOrderDisplayId(r.id),
      title: r.title,
      status: r.status,
      quotationId: r.quotation_id,
      quotationNumber: quotationNumber(r.quotation_id),
      ...amounts(r),
    })),
    workOrderCount: num(totals.orders),
    quotations: (row.quotations ?? []).map((r) => ({
      quotationId: r.quotation_id,
      number: quotationNumber(r.quotation_id),
      customer: r.customer,
      status: r.q_status,
      workOrders: num(r.orders),
      ...amounts(r),
    })),
    quotationCount: num(totals.quotations),
    total: { quoted: num(totals.quoted), quotedUntaxed: num(totals.untaxed), actual: num(totals.actual), difference: num(totals.actual) - num(totals.untaxed) },
  };
}

// ---------- technician view ----------

/** One person's view: their open work, their hours this ISO week (of the time zone) by reason, their completions of the range (on time: by the due day). */
export async function myWorkFigures(tx: ReadTx, orgId: number, userId: number, range: DayRange, now: Date, tz = 'UTC'): Promise<MyWorkFigures> {
  const n = ts(now);
  const open = rowsOf<{ id: number; title: string; status: string; priority: string; due_date: string | Date | null; overdue: boolean; total: number }>(
    // From the person's assignments (an index range), never from the organisation's open orders; each
    // assignment's order by its key (lateral, `offset 0` keeps it a probe).
    await tx.execute(sql`with mine as materialized (select work_order_id from work_order_assignees where org_id = ${orgId}::int and user_id = ${userId}::int)
      select w.id, w.title, w.status, w.priority, w.due_date, coalesce(w.due_date < ${n}, false) as overdue, count(*) over ()::int as total
      from mine cross join lateral (select w.id, w.title, w.status, w.priority, w.due_date from work_orders w
          where w.org_id = ${orgId}::int and w.id = mine.work_order_id and w.status in ('assigned', 'in-progress') offset 0) w
      order by w.due_date asc nulls last, w.id limit 10`),
  );
  // Monday 00:00 of this week in the time zone, and a week later.
  const monday = sql`date_trunc('week', ${n} at time zone ${tz}::text)`;
  const week = rowsOf<{ reason_id: number; name: string; category: string; hours: unknown }>(
    await tx.execute(sql`select t.id as reason_id, t.name, t.type as category, sum(l.hours) as hours
      from (${laborRows(orgId, sql`l.worker_id = ${userId}::int and l.start_date >= (${monday} at time zone ${tz}::text) and l.start_date < ((${monday} + interval '7 days') at time zone ${tz}::text)`)}) l
      join time_tracking_reasons t on t.org_id = l.org_id and t.id = l.reason_id
      group by t.id, t.name, t.type order by hours desc, t.id`),
  );
  const [done] = rowsOf<{ completed: number; on_time: number; with_due: number }>(
    // The same: each assignment's closure by its key.
    await tx.execute(sql`select count(*)::int as completed, count(c.due_date)::int as with_due,
        count(*) filter (where ${localDay(sql`c.closed_at`, tz)} <= ${localDay(sql`c.due_date`, tz)})::int as on_time
      from (select work_order_id from work_order_assignees where org_id = ${orgId}::int and user_id = ${userId}::int offset 0) a
      cross join lateral (select c.closed_at, w.due_date from work_order_closures c join work_orders w on w.org_id = c.org_id and w.id = c.work_order_id
          where c.org_id = ${orgId}::int and c.work_order_id = a.work_order_id
          and c.status = 'completed' and c.closed_at >= ${dayStart(range.from, tz)} and c.closed_at < ${dayEnd(range.to, tz)} offset 0) c`),
  );
  return {
    range,
    openCount: num(open[0]?.total),
    open: open.map((r) => ({ id: r.id, title: r.title, status: r.status, priority: r.priority, dueDate: r.due_date ? new Date(r.due_date).toISOString() : null, overdue: r.overdue })),
    hoursThisWeek: week.map((r) => ({ reasonId: r.reason_id, name: r.name, category: r.category, hours: round2(r.hours) })),
    completed: num(done.completed),
    completedOnTime: num(done.on_time),
    completedWithDue: num(done.with_due),
  };
}
