import { sql, type SQL } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { rowsOf } from '../../server/db/rows';
import { moneySettings } from '../organization/organization.service';
import { quotationNumber } from '../quotations/quotations.schema';
import { workOrderDisplayId } from '../work-orders/work-orders.schema';
import { pmCompliance } from '../pm-plans/pm-plans.service';
import { laborCostMinor } from '../work-orders/work-orders.service';
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
 * Every figure of the analytics screen (decision 038), each one function and, where it can, one statement,
 * computed in SQL over whole UTC days [range.from, range.to]. "Open" is assigned or in progress; a work order's
 * completion time is its row in work_order_closures. A work order is planned when a PM plan created it
 * (pm_occurrences), reactive otherwise. Its work stations and teams are its plan's, plus those of the people
 * assigned to it (user_work_stations, team_members).
 */

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const round2 = (v: unknown) => Math.round(num(v) * 100) / 100;

/** The instant a day starts (UTC) and the start of the day after the range. */
/** A repair's time is kept in microseconds (work_order_failures.repair_us). */
const HOUR_US = 3_600_000_000;
const startOf = (day: string) => `${day}T00:00:00.000Z`;
const endOf = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();
const ts = (iso: string) => sql`${iso}::timestamptz`;

/** Is work order `w` (an alias) one a PM plan created? */
const plannedOf = (w: string) => sql.raw(`exists (select 1 from pm_occurrences o where o.org_id = ${w}.org_id and o.work_order_id = ${w}.id)`);

/**
 * The work orders of a work station or a team, as a set: those its plans created, and those of the people in it
 * (a station's people: user_work_stations; a team's: team_members). Not correlated with the order being filtered,
 * so a statement builds the set once and probes it by hash: asked per order (`x in (the order's teams)`), a
 * year's filtered figure at 1M orders took 6 to 43 s.
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

/** Every (work order, work station) pair of the organisation, as a relation to join. */
const orderStations = (orgId: number) => sql`(select wa.work_order_id as wo_id, s.work_station_id as ws from work_order_assignees wa
      join user_work_stations s on s.org_id = wa.org_id and s.user_id = wa.user_id where wa.org_id = ${orgId}::int
    union select o.work_order_id, p.work_station_id from pm_occurrences o join pm_plans p on p.org_id = o.org_id and p.id = o.plan_id
      where o.org_id = ${orgId}::int and p.work_station_id is not null and o.work_order_id is not null)`;

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

/** Is any filter set? Without one, throughput and the backlog over time read the daily roll-up. */
const filtered = (f: AnalyticsFilters) => !!(f.assetId || f.assetCategoryId || f.workStationId || f.teamId || f.assigneeId);

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The whole calendar months inside a range, as [start, end) first days; null when there is none. */
export function wholeMonths(r: DayRange): { start: string; end: string } | null {
  const [y, m, d] = r.from.split('-').map(Number);
  const start = d === 1 ? r.from : isoDay(Date.UTC(y, m, 1)); // m is 1-based: the first of the next month
  const after = new Date(endOf(r.to));
  const end = isoDay(Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), 1));
  return start < end ? { start, end } : null;
}

/**
 * A range read from a monthly roll-up and its rows: `monthly(start, end)` for the range's whole months (first days,
 * end exclusive), `rest(from, toExcl)` for the days around them (the whole range when it holds no whole month).
 */
function byMonths(r: DayRange, monthly: (start: string, end: string) => SQL, rest: (from: string, toExcl: string) => SQL): SQL {
  const after = isoDay(Date.parse(endOf(r.to)));
  const wm = wholeMonths(r);
  if (!wm) return rest(r.from, after);
  return sql`${monthly(wm.start, wm.end)} union all ${rest(r.from, wm.start)} union all ${rest(wm.end, after)}`;
}

/** The labour and parts sums of a range per asset and reason, unfiltered: whole months from work_order_asset_monthly, the rest from work_order_cost_daily. */
function assetRollup(orgId: number, r: DayRange): SQL {
  const cols = sql.raw('asset_id, reason_id, hours, labor_cost, unrated_hours, parts_major, parts_minor');
  return byMonths(
    r,
    (start, end) => sql`select ${cols} from work_order_asset_monthly where org_id = ${orgId}::int and month >= ${start}::date and month < ${end}::date`,
    (from, toExcl) => sql`select ${cols} from work_order_cost_daily where org_id = ${orgId}::int and day >= ${from}::date and day < ${toExcl}::date`,
  );
}

// ---------- backlog ----------

/** Open work orders now (by age, overdue), and at the end of each day of the range (and the day before it). */
export async function backlogFigures(tx: ReadTx, orgId: number, range: DayRange, f: AnalyticsFilters, now: Date): Promise<BacklogFigures> {
  const n = ts(now.toISOString());
  // Without a filter: whole days from work_order_open_daily, the day an instant falls in from the open orders' rows.
  const dayOf = (t: SQL) => sql`((${t}) at time zone 'UTC')::date`;
  const openDays = sql`work_order_open_daily where org_id = ${orgId}::int`;
  const openRows = sql`work_orders w where w.org_id = ${orgId}::int and w.status in ('assigned', 'in-progress')`;
  /** Open orders created after instant t. */
  const createdAfter = (t: SQL) => sql`((select coalesce(sum(created_open), 0) from ${openDays} and day > ${dayOf(t)})
    + (select count(*) from ${openRows} and w.created_at > ${t} and w.created_at < (${dayOf(t)} + 1)::timestamp at time zone 'UTC'))`;
  const rolledHead = sql`select o.open, o.overdue, o.c8 as a0, o.c31 - o.c8 as a1, o.c91 - o.c31 as a2, o.open - o.c91 as a3 from (select
      (select coalesce(sum(created_open), 0) from ${openDays})::int as open,
      ((select coalesce(sum(due_open), 0) from ${openDays} and day < ${dayOf(n)})
        + (select count(*) from ${openRows} and w.due_date >= ${dayOf(n)}::timestamp at time zone 'UTC' and w.due_date < ${n}))::int as overdue,
      ${createdAfter(sql`${n} - interval '8 days'`)}::int as c8,
      ${createdAfter(sql`${n} - interval '31 days'`)}::int as c31,
      ${createdAfter(sql`${n} - interval '91 days'`)}::int as c91) o`;
  const [head] = rowsOf<Record<string, string | number>>(
    await tx.execute(filtered(f) ? rawHead() : rolledHead),
  );
  function rawHead() {
    return sql`select count(*)::int as open, count(*) filter (where w.due_date < ${n})::int as overdue,
        count(*) filter (where w.created_at > ${n} - interval '8 days')::int as a0,
        count(*) filter (where w.created_at <= ${n} - interval '8 days' and w.created_at > ${n} - interval '31 days')::int as a1,
        count(*) filter (where w.created_at <= ${n} - interval '31 days' and w.created_at > ${n} - interval '91 days')::int as a2,
        count(*) filter (where w.created_at <= ${n} - interval '91 days')::int as a3
      from work_orders w where w.org_id = ${orgId}::int and w.status in ('assigned', 'in-progress') ${scopeOf(orgId, 'w', f)}`;
  }
  // Open at instant t = open now - created since t + closed since t (every closed order was created before it closed).
  const since = ts(startOf(range.from));
  const raw = sql`with ev as (
        select (w.created_at at time zone 'UTC')::date as d, -1 as k from work_orders w
          where w.org_id = ${orgId}::int and w.created_at >= ${since} - interval '1 day' and w.created_at <= ${n} ${scopeOf(orgId, 'w', f)}
        union all
        select (c.closed_at at time zone 'UTC')::date, 1 from work_order_closures c join work_orders w on w.org_id = c.org_id and w.id = c.work_order_id
          where c.org_id = ${orgId}::int and c.closed_at >= ${since} - interval '1 day' and c.closed_at <= ${n} and w.created_at <= ${n} ${scopeOf(orgId, 'w', f)}),
      per_day as materialized (select d, sum(k)::int as k from ev group by d),`;
  // Without a filter: the daily roll-up (closed - created per day), not the rows.
  const rolled = sql`with per_day as materialized (select day as d, (closed - created)::int as k from work_order_daily_counts
        where org_id = ${orgId}::int and day >= ${range.from}::date - 1 and day <= (${n} at time zone 'UTC')::date),`;
  const series = rowsOf<{ day: string; open: number }>(
    await tx.execute(sql`${filtered(f) ? raw : rolled}
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
export async function throughputFigures(tx: ReadTx, orgId: number, range: DayRange, previous: DayRange, f: AnalyticsFilters): Promise<ThroughputFigures> {
  const pf = ts(startOf(previous.from));
  const te = ts(endOf(range.to));
  const raw = sql`with ev as (
        select (w.created_at at time zone 'UTC')::date as d, 1 as c, 0 as k from work_orders w
          where w.org_id = ${orgId}::int and w.created_at >= ${pf} and w.created_at < ${te} ${scopeOf(orgId, 'w', f)}
        union all
        select (c.closed_at at time zone 'UTC')::date, 0, 1 from work_order_closures c join work_orders w on w.org_id = c.org_id and w.id = c.work_order_id
          where c.org_id = ${orgId}::int and c.status = 'completed' and c.closed_at >= ${pf} and c.closed_at < ${te} ${scopeOf(orgId, 'w', f)}),`;
  // Without a filter: the daily roll-up.
  const rolled = sql`with ev as (select day as d, created as c, completed as k from work_order_daily_counts
        where org_id = ${orgId}::int and day >= ${previous.from}::date and day <= ${range.to}::date),`;
  const rows = rowsOf<{ week: string | null; created: number; completed: number }>(
    await tx.execute(sql`${filtered(f) ? raw : rolled}
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

/** Reactive work orders completed in the range: hours from creation to completion, mean and median; by asset category, by team. */
export async function mttrFigures(tx: ReadTx, orgId: number, range: DayRange, previous: DayRange, f: AnalyticsFilters): Promise<MttrFigures> {
  const row = filtered(f) ? await mttrFiltered(tx, orgId, range, previous, f) : await mttrKept(tx, orgId, range, previous);
  return {
    range,
    overall: stats(row.overall ?? {}),
    previous: stats(row.previous ?? {}),
    byAssetCategory: (row.by_category ?? []).map((r) => ({ assetCategoryId: r.id, name: r.name, ...stats(r) })),
    byTeam: (row.by_team ?? []).map((r) => ({ teamId: r.id as number, name: r.name as string, ...stats(r) })),
  };
}

type RepairStat = { id: number | null; name: string | null; n?: unknown; mean?: unknown; median?: unknown };
type MttrRow = { overall: RepairStat | null; previous: RepairStat | null; by_category: RepairStat[] | null; by_team: RepairStat[] | null };

/**
 * Each assignee set of `sets` (a relation with an `assignees` column) with the teams of its people today, each
 * team once: a repair has no plan, so its teams are its assignees' (a repair counts once per team).
 */
const setTeams = (orgId: number, sets: SQL) => sql`select distinct s.assignees, m.team_id from (select distinct assignees from ${sets}) s
  cross join unnest(s.assignees) u(user_id) join team_members m on m.org_id = ${orgId}::int and m.worker_id = u.user_id`;

/**
 * The filters on work_order_failures' columns (a reactive order's): it has no plan, so its team and work station
 * are its assignees' (as `scopeOf` has them for every order), and its category is its asset's (copied).
 */
function failureScope(orgId: number, f: AnalyticsFilters): SQL {
  const conds: SQL[] = [];
  if (f.assetId) conds.push(sql`and asset_id = ${f.assetId}::int`);
  if (f.assetCategoryId) conds.push(sql`and asset_category_id = ${f.assetCategoryId}::int`);
  if (f.workStationId)
    conds.push(sql`and assignees && array(select user_id from user_work_stations where org_id = ${orgId}::int and work_station_id = ${f.workStationId}::int)`);
  if (f.teamId) conds.push(sql`and assignees && array(select worker_id from team_members where org_id = ${orgId}::int and team_id = ${f.teamId}::int)`);
  if (f.assigneeId) conds.push(sql`and assignees @> array[${f.assigneeId}::int]`);
  return sql.join(conds, sql` `);
}

/** With a filter: the filtered repairs, read from work_order_failures (the histograms keep no filter's groups). */
async function mttrFiltered(tx: ReadTx, orgId: number, range: DayRange, previous: DayRange, f: AnalyticsFilters): Promise<MttrRow> {
  const org = sql`${orgId}::int`;
  const repairs = (r: DayRange) => sql`select asset_category_id, assignees, repair_us / ${HOUR_US}::float8 as h from work_order_failures
    where org_id = ${org} and closed_at >= ${ts(startOf(r.from))} and closed_at < ${ts(endOf(r.to))} ${failureScope(orgId, f)}`;
  const agg = sql`count(*)::int as n, avg(h) as mean, percentile_cont(0.5) within group (order by h) as median`;
  const [row] = rowsOf<MttrRow>(
    await tx.execute(sql`with r as materialized (${repairs(range)}),
      set_teams as materialized (${setTeams(orgId, sql`r`)}),
      cat as (select r.asset_category_id as id, ac.name, ${agg} from r
          left join asset_categories ac on ac.org_id = ${org} and ac.id = r.asset_category_id
        group by r.asset_category_id, ac.name),
      team as (select t.id, t.name, s.n, s.mean, s.median
        from (select st.team_id, ${agg} from r join set_teams st on st.assignees = r.assignees group by st.team_id) s
        join teams t on t.org_id = ${org} and t.id = s.team_id)
      select (select row_to_json(o) from (select ${agg} from r) o) as overall,
        (select row_to_json(o) from (select ${agg} from (${repairs(previous)}) p) o) as previous,
        (select json_agg(c order by c.mean desc nulls last, c.id) from cat c) as by_category,
        (select json_agg(c order by c.mean desc nulls last, c.id) from team c) as by_team`),
  );
  return row;
}

/**
 * Without a filter: from the kept histogram (work_order_repair_monthly, decision 038, fifth addendum), in one
 * statement so every figure is of one snapshot. Each figure's repairs per bucket of time are the range's whole
 * months from the histogram plus its partial months from the repairs (index-only); count and mean come from those
 * sums. The median (percentile_cont(0.5): the values at ranks floor((n-1)/2) and ceil((n-1)/2), halfway between)
 * is read from the repairs of the bucket(s) holding those ranks only, so it is exact, not a bucket bound. A repair
 * has no plan, so a team's repairs are those with one of its members (today's) among the assignees, each once.
 */
async function mttrKept(tx: ReadTx, orgId: number, range: DayRange, previous: DayRange): Promise<MttrRow> {
  const org = sql`${orgId}::int`;
  const bounds = (r: DayRange) => [ts(startOf(r.from)), ts(endOf(r.to))] as const;
  const [from, to] = bounds(range);
  const [prevFrom, prevTo] = bounds(previous);
  // A range's repairs per (key, bucket), the key an asset category or an assignee set: whole months from that
  // key's kept histogram, the partial months from the repairs (index-only).
  const histogram = (r: DayRange, by: 'category' | 'assignees') => {
    const [kept, key, only] =
      by === 'category'
        ? [sql.raw('work_order_repair_monthly'), sql.raw('asset_category_id'), sql``]
        : [sql.raw('work_order_repair_assignee_monthly'), sql.raw('assignees'), sql`and cardinality(assignees) > 0`];
    const parts = byMonths(
      r,
      (start, end) => sql`select ${key} as key, bucket, repairs as n, micros as us from ${kept}
        where org_id = ${org} and month >= ${start}::date and month < ${end}::date`,
      (from, toExcl) => sql`select ${key} as key, repair_bucket as bucket, 1 as n, repair_us as us from work_order_failures
        where org_id = ${org} and closed_at >= ${ts(startOf(from))} and closed_at < ${ts(startOf(toExcl))} ${only}`,
    );
    // A combination that lost its last repair keeps a row of zeros: it is no bucket.
    return sql`select key, bucket, sum(n)::int as n, sum(us) as us from (${parts}) x group by key, bucket having sum(n) > 0`;
  };
  // The repairs of the buckets that hold a median, in a range (index-only: an index condition on the bucket).
  const bucketRows = (a: SQL, b: SQL, which: SQL) => sql`select repair_bucket as bucket, repair_us as us, asset_category_id, assignees
    from work_order_failures where org_id = ${org} and closed_at >= ${a} and closed_at < ${b}
      and repair_bucket = any(array(select distinct bucket from need where ${which}))`;
  // The values at a figure's median ranks that fall in one bucket: `rows` gives (bucket, us, key), a keyed figure
  // (category, team) takes its key's rows. The bucket holds n of them (the histogram's count), so the value at
  // rank k of the bucket is percentile_disc((k + 0.5) / n): the first whose position is at least k + 1.
  const atRanks = (grp: 'all' | 'prev' | 'cat' | 'team', rows: SQL) => sql`select n.grp, n.key, percentile_disc(array[n.f1, n.f2]) within group (order by c.us) as us
    from (${rows} offset 0) c join need n on n.grp = ${sql.raw(`'${grp}'`)} and n.bucket = c.bucket
      ${grp === 'cat' || grp === 'team' ? sql`and coalesce(n.key, -1) = coalesce(c.key, -1)` : sql``}
    group by n.id, n.grp, n.key, n.f1, n.f2`;
  const [row] = rowsOf<MttrRow>(
    await tx.execute(sql`with cur as materialized (${histogram(range, 'category')}),
      cur_sets as materialized (${histogram(range, 'assignees')}),
      prev as materialized (${histogram(previous, 'category')}),
      set_teams as materialized (${setTeams(orgId, sql`(select key as assignees from cur_sets) k`)}),
      -- Each figure's histogram: the range's (all), the previous range's (prev), per category, per team.
      g as (select 'all' as grp, null::int as key, bucket, sum(n)::bigint as n, sum(us) as us from cur group by bucket
        union all select 'prev', null, bucket, sum(n)::bigint, sum(us) from prev group by bucket
        union all select 'cat', key, bucket, n, us from cur
        union all select 'team', st.team_id, c.bucket, sum(c.n)::bigint, sum(c.us) from cur_sets c join set_teams st on st.assignees = c.key
          group by st.team_id, c.bucket),
      -- The median's ranks (0-based: (count - 1) / 2 and count / 2, in whole numbers) and the buckets holding them;
      -- per bucket, the fractions that pick the ranks falling in it (at, the rank its first repair has in the figure).
      need as materialized (select row_number() over () as id, grp, key, bucket,
          (greatest(lo, at) - at + 0.5) / n::float8 as f1, (least(hi, at + n - 1) - at + 0.5) / n::float8 as f2
        from (select grp, key, bucket, n, sum(n) over (partition by grp, key order by bucket) - n as at,
            (sum(n) over (partition by grp, key) - 1) / 2 as lo, sum(n) over (partition by grp, key) / 2 as hi from g) w
        where lo < at + n and hi >= at),
      cur_rows as materialized (${bucketRows(from, to, sql`grp <> 'prev'`)}),
      prev_rows as materialized (${bucketRows(prevFrom, prevTo, sql`grp = 'prev'`)}),
      -- percentile_cont(0.5): the value at the middle rank, or halfway between the two middle ones.
      med as (select grp, key, (min(v) + (max(v) - min(v)) / 2.0) / ${HOUR_US}::float8 as median from (
          ${atRanks('all', sql`select bucket, us, null::int as key from cur_rows`)}
          union all ${atRanks('prev', sql`select bucket, us, null::int as key from prev_rows`)}
          union all ${atRanks('cat', sql`select bucket, us, asset_category_id as key from cur_rows`)}
          union all ${atRanks('team', sql`select r.bucket, r.us, st.team_id as key from cur_rows r join set_teams st on st.assignees = r.assignees`)}) x
          cross join unnest(x.us) v group by grp, key),
      stat as (select g.grp, g.key, sum(g.n)::int as n, sum(g.us) / sum(g.n) / ${HOUR_US}::float8 as mean, m.median
        from g left join med m on m.grp = g.grp and m.key is not distinct from g.key group by g.grp, g.key, m.median)
      select (select row_to_json(s) from (select n, mean, median from stat where grp = 'all') s) as overall,
        (select row_to_json(s) from (select n, mean, median from stat where grp = 'prev') s) as previous,
        (select json_agg(c order by c.mean desc nulls last, c.id) from (select s.key as id, ac.name, s.n, s.mean, s.median from stat s
            left join asset_categories ac on ac.org_id = ${org} and ac.id = s.key where s.grp = 'cat') c) as by_category,
        (select json_agg(c order by c.mean desc nulls last, c.id) from (select s.key as id, t.name, s.n, s.mean, s.median from stat s
            join teams t on t.org_id = ${org} and t.id = s.key where s.grp = 'team') c) as by_team`),
  );
  return row;
}

// ---------- MTBF ----------

/**
 * Per asset, over its reactive (not cancelled) work orders created in the range: the mean of the hours from the
 * completion of one to the creation of the next (0 when the next came before the previous was done; a pair whose
 * earlier order is not completed is not an interval). The ten assets with the shortest MTBF.
 */
export async function mtbfFigures(tx: ReadTx, orgId: number, range: DayRange, f: AnalyticsFilters): Promise<MtbfFigures> {
  const from = ts(startOf(range.from));
  const to = ts(endOf(range.to));
  // With a team, work station or assignee filter: the filtered failures' own pairs (which the kept chains, of all
  // an asset's failures, do not hold).
  const raw = sql`with fail as (
        select asset_id, created_at, lag(closed_at) over (partition by asset_id order by created_at, work_order_id) as prev_closed
        from work_order_failures
        where org_id = ${orgId}::int and asset_id is not null and created_at >= ${from} and created_at < ${to} ${failureScope(orgId, f)})
      select fail.asset_id, a.name, count(*)::int as failures, count(fail.prev_closed)::int as intervals,
        avg(greatest(0, extract(epoch from (fail.created_at - fail.prev_closed)) / 3600.0)) filter (where fail.prev_closed is not null) as mtbf
      from fail join assets a on a.org_id = ${orgId}::int and a.id = fail.asset_id
      group by fail.asset_id, a.name having count(fail.prev_closed) > 0
      order by mtbf asc, failures desc, fail.asset_id limit 10`;
  // Without a filter, or with an asset or category filter (which keeps every failure of the assets it keeps): per
  // asset, its first and last kept failure in the range (two index probes); the running sums of the last minus
  // those of the first (whose own interval began before the range) are the range's.
  const chain = (cond: SQL, order: SQL) => sql`(select f.created_at, f.run_failures, f.run_intervals, f.run_interval_hours from work_order_failures f
      where f.org_id = ${orgId}::int and f.asset_id = a.id and ${cond} order by ${order} limit 1)`;
  const rolled = sql`select a.id as asset_id, a.name, (l.run_failures - g.run_failures + 1)::int as failures, (l.run_intervals - g.run_intervals)::int as intervals,
        (l.run_interval_hours - g.run_interval_hours) / (l.run_intervals - g.run_intervals) as mtbf
      from assets a
        cross join lateral ${chain(sql`f.created_at >= ${from}`, sql`f.created_at, f.work_order_id`)} g
        cross join lateral ${chain(sql`f.created_at < ${to}`, sql`f.created_at desc, f.work_order_id desc`)} l
      where a.org_id = ${orgId}::int ${f.assetId ? sql`and a.id = ${f.assetId}::int` : sql``}
        ${f.assetCategoryId ? sql`and a.asset_category_id = ${f.assetCategoryId}::int` : sql``}
        and g.created_at < ${to} and l.run_intervals > g.run_intervals
      order by mtbf asc, failures desc, a.id limit 10`;
  const ofSomeFailures = !!(f.workStationId || f.teamId || f.assigneeId);
  const rows = rowsOf<{ asset_id: number; name: string; failures: number; intervals: number; mtbf: unknown }>(await tx.execute(ofSomeFailures ? raw : rolled));
  return { range, worst: rows.map((r) => ({ assetId: r.asset_id, name: r.name, failures: num(r.failures), intervals: num(r.intervals), mtbfHours: round2(r.mtbf) })) };
}

// ---------- labour (the one place labour cost is computed) ----------

/**
 * Labour rows that started in [from, to): hours and cost (the worker's or the contractor's hourly rate through
 * the work orders' one formula, `laborCostMinor`: minor units, rounded per row; null without a rate). The one function every labour figure reads, so a new kind of labour row (with
 * its own rate) is added here once.
 */
export function laborRows(orgId: number, fromIso: string, toIso: string): SQL {
  // A contractor's time (through a share, decision 040) is costed at their own rate, a worker's at theirs.
  return sql`select l.org_id, l.id, l.work_order_id, l.worker_id, l.reason_id, l.start_date, l.share_id is not null as external,
      extract(epoch from (l.end_date - l.start_date)) / 3600.0 as hours,
      ${laborCostMinor(sql`l.start_date`, sql`l.end_date`, sql`coalesce(l.external_rate_minor, u.hourly_rate)`)} as cost
    from work_order_labors l left join users u on u.org_id = l.org_id and u.id = l.worker_id
    where l.org_id = ${orgId}::int and l.start_date >= ${ts(fromIso)} and l.start_date < ${ts(toIso)}`;
}

// ---------- downtime ----------

/** A daily roll-up's rows (alias `d`) of the organisation within a range of days, ends included. */
const rollupDays = (orgId: number, r: DayRange) => sql`d.org_id = ${orgId}::int and d.day >= ${r.from}::date and d.day <= ${r.to}::date`;

const byCat = (cat: string) => sql.raw(`coalesce(sum(hours) filter (where category = '${cat}'), 0)`);

/** Labour hours by the reason's category (and blocking flag), per asset and per work station; availability loss per asset. */
export async function downtimeFigures(tx: ReadTx, orgId: number, range: DayRange, previous: DayRange, f: AnalyticsFilters): Promise<DowntimeFigures> {
  // Without a filter: the labour roll-ups (work_order_cost_daily per asset, work_order_station_daily per station).
  const rolled = !filtered(f);
  const reasonOf = sql`join time_tracking_reasons t on t.org_id = ${orgId}::int and t.id = d.reason_id`;
  // Totals from the roll-up without the asset (work_order_reason_daily); per asset, whole months and the rest (assetRollup).
  const hoursOf = (r: DayRange) =>
    rolled
      ? sql`select t.type as category, t.is_blocking_reason as blocking, d.hours from work_order_reason_daily d ${reasonOf} where ${rollupDays(orgId, r)}`
      : rawHours(r);
  const assetHours = rolled
    ? sql`select d.asset_id, t.type as category, d.hours from (${assetRollup(orgId, range)}) d ${reasonOf}`
    : rawHours(range);
  function rawHours(r: DayRange) {
    return sql`select l.*, w.asset_id, w.id as wo_id, w.org_id as wo_org, t.type as category, t.is_blocking_reason as blocking
      from (${laborRows(orgId, startOf(r.from), endOf(r.to))}) l
      join work_orders w on w.org_id = l.org_id and w.id = l.work_order_id
      join time_tracking_reasons t on t.org_id = l.org_id and t.id = l.reason_id
      where true ${scopeOf(orgId, 'w', f, 'l')}`;
  }
  const stationHours = rolled
    ? sql`select d.work_station_id as ws, t.type as category, d.hours from work_order_station_daily d ${reasonOf} where ${rollupDays(orgId, range)}`
    : sql`select h.*, st.ws from (${rawHours(range)}) h left join ${orderStations(orgId)} st on st.wo_id = h.wo_id`;
  const byCategory = rowsOf<{ category: DowntimeFigures['byCategory'][number]['category']; blocking: boolean; hours: unknown }>(
    await tx.execute(sql`select category, blocking, sum(hours) as hours from (${hoursOf(range)}) h group by 1, 2 order by 1, 2`),
  );
  const rangeHours = daysIn(range) * 24;
  const byAsset = rowsOf<Record<string, unknown>>(
    // Grouped by the id alone and named after the limit (the name in the key spilled the hash to disk at 1M orders).
    await tx.execute(sql`select s.*, a.name from (select h.asset_id, ${byCat('availability')} as availability, ${byCat('performance')} as performance,
        ${byCat('quality')} as quality, ${byCat('productivity')} as productivity
      from (${assetHours}) h group by h.asset_id order by availability desc, 1 nulls last limit 50) s
      left join assets a on a.org_id = ${orgId}::int and a.id = s.asset_id order by s.availability desc, 1 nulls last`),
  );
  const byStation = rowsOf<Record<string, unknown>>(
    await tx.execute(sql`select s.id as work_station_id, s.name, ${byCat('availability')} as availability, ${byCat('performance')} as performance,
        ${byCat('quality')} as quality, ${byCat('productivity')} as productivity
      from (${stationHours}) hw
        left join work_stations s on s.org_id = ${orgId}::int and s.id = hw.ws
      group by s.id, s.name order by availability desc, 1 nulls last limit 50`),
  );
  const [kpi] = rowsOf<{ cur: unknown; prev: unknown }>(
    await tx.execute(sql`select (select coalesce(sum(hours), 0) from (${hoursOf(range)}) h where category = 'availability') as cur,
        (select coalesce(sum(hours), 0) from (${hoursOf(previous)}) h where category = 'availability') as prev`),
  );
  return {
    range,
    byCategory: byCategory.map((r) => ({ category: r.category, blocking: r.blocking, hours: round2(r.hours) })),
    byAsset: byAsset.map((r) => ({
      assetId: numOrNull(r.asset_id),
      name: (r.name as string | null) ?? null,
      availability: round2(r.availability),
      performance: round2(r.performance),
      quality: round2(r.quality),
      productivity: round2(r.productivity),
      availabilityLoss: Math.round((num(r.availability) / rangeHours) * 10_000) / 10_000,
    })),
    byWorkStation: byStation.map((r) => ({
      workStationId: numOrNull(r.work_station_id),
      name: (r.name as string | null) ?? null,
      availability: round2(r.availability),
      performance: round2(r.performance),
      quality: round2(r.quality),
      productivity: round2(r.productivity),
    })),
    availabilityHours: { current: round2(kpi.cur), previous: round2(kpi.prev) },
  };
}

// ---------- planned vs reactive ----------

/** Work orders created in the range (and maintenance orders) planned vs reactive, and labour hours of the range on each. */
export async function plannedShareFigures(tx: ReadTx, orgId: number, range: DayRange, previous: DayRange, f: AnalyticsFilters): Promise<PlannedShareFigures> {
  const one = async (r: DayRange) => {
    const from = startOf(r.from);
    const to = endOf(r.to);
    const mos = sql`(select count(*) from maintenance_orders m where m.org_id = ${orgId}::int and m.created_at >= ${ts(from)} and m.created_at < ${ts(to)} and m.status <> 'cancel'
          ${maintenanceOrderScope('m', f)})::int as mos`;
    // Without a filter: orders from the daily counts (created, planned), hours from the labour roll-up.
    const [row] = rowsOf<Record<string, unknown>>(
      await tx.execute(
        filtered(f)
          ? // One pass over the orders and one over the labour, each row marked planned or not once.
            sql`select o.planned, o.reactive, ${mos}, h.planned_hours, h.reactive_hours
        from (select count(*) filter (where p)::int as planned, count(*) filter (where not p)::int as reactive
            from (select ${plannedOf('w')} as p from work_orders w
              where w.org_id = ${orgId}::int and w.created_at >= ${ts(from)} and w.created_at < ${ts(to)} ${scopeOf(orgId, 'w', f)}) x) o,
          (select coalesce(sum(hours) filter (where p), 0) as planned_hours, coalesce(sum(hours) filter (where not p), 0) as reactive_hours
            from (select l.hours, ${plannedOf('w')} as p from (${laborRows(orgId, from, to)}) l join work_orders w on w.org_id = l.org_id and w.id = l.work_order_id
              where true ${scopeOf(orgId, 'w', f, 'l')}) x) h`
          : sql`select c.planned, c.created - c.planned as reactive, ${mos}, h.planned_hours, h.reactive_hours
        from (select coalesce(sum(planned), 0)::int as planned, coalesce(sum(created), 0)::int as created from work_order_daily_counts
            where org_id = ${orgId}::int and day >= ${r.from}::date and day <= ${r.to}::date) c,
          (select coalesce(sum(d.hours) filter (where d.planned), 0) as planned_hours, coalesce(sum(d.hours) filter (where not d.planned), 0) as reactive_hours
            from work_order_reason_daily d where ${rollupDays(orgId, r)}) h`,
      ),
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
async function orderCompliance(tx: ReadTx, orgId: number, r: DayRange, f: AnalyticsFilters, now: Date) {
  const [row] = rowsOf<{ on_time: number; late: number; missed: number }>(
    await tx.execute(sql`select
        count(*) filter (where (m.completion_date at time zone 'UTC')::date <= (m.due_date at time zone 'UTC')::date)::int as on_time,
        count(*) filter (where (m.completion_date at time zone 'UTC')::date > (m.due_date at time zone 'UTC')::date)::int as late,
        count(*) filter (where m.completion_date is null and (m.due_date at time zone 'UTC')::date < (${ts(now.toISOString())} at time zone 'UTC')::date)::int as missed
      from maintenance_orders m where m.org_id = ${orgId}::int and m.status <> 'cancel'
        and m.due_date >= ${ts(startOf(r.from))} and m.due_date < ${ts(endOf(r.to))} ${maintenanceOrderScope('m', f)}`),
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
export async function complianceFigures(tx: ReadTx, orgId: number, range: DayRange, previous: DayRange, f: AnalyticsFilters, now: Date): Promise<ComplianceFigures> {
  const [{ plans }] = rowsOf<{ plans: boolean }>(await tx.execute(sql`select exists (select 1 from pm_plans where org_id = ${orgId}::int) as plans`));
  if (plans) {
    const cur = await pmCompliance(tx, orgId, range, now, occurrenceScope(orgId, f));
    const prev = await pmCompliance(tx, orgId, previous, now, occurrenceScope(orgId, f));
    return { range, source: 'plans', due: cur.due, onTime: cur.onTime, late: cur.late, missed: cur.missed, rate: { current: cur.rate, previous: prev.rate } };
  }
  const cur = await orderCompliance(tx, orgId, range, f, now);
  const prev = await orderCompliance(tx, orgId, previous, f, now);
  return { range, source: 'maintenance-orders', due: cur.due, onTime: cur.onTime, late: cur.late, missed: cur.missed, rate: { current: cur.rate, previous: prev.rate } };
}

// ---------- cost ----------

/**
 * Parts used on work orders, added in [from, to): quantity x the part's price (the only price a part has, in
 * minor units; `scale` is 10^digits of the currency), a contractor's parts at the unit price they reported.
 * With laborRows, the one place a work order's cost is computed.
 */
export function partRows(orgId: number, scale: number, fromIso: string, toIso: string): SQL {
  return sql`select wp.org_id, wp.work_order_id, wp.created_at,
      wp.quantity * coalesce(wp.external_unit_price_minor, round(p.sales_price * ${scale}::int)) as cost
    from work_order_parts wp left join parts p on p.org_id = wp.org_id and p.id = wp.part_id
    where wp.org_id = ${orgId}::int and wp.created_at >= ${ts(fromIso)} and wp.created_at < ${ts(toIso)}`;
}

/**
 * Labour (laborRows) plus parts used (partRows) per asset, work station and month; labour counts by its start,
 * parts by the day they were added to the order. The range's items are read once (one materialised CTE) and
 * every total and breakdown comes out of the same statement.
 */
export async function costFigures(tx: ReadTx, orgId: number, range: DayRange, previous: DayRange, f: AnalyticsFilters): Promise<CostFigures> {
  const { currency, digits } = await moneySettings(tx, orgId);
  const scale = 10 ** digits;
  // Without a filter: the labour and parts roll-ups (totals and months per day without the asset; per asset, whole
  // months and the rest; per work station and day).
  const rolled = !filtered(f);
  const partsOf = sql`round(d.parts_major * ${scale}::int) + d.parts_minor`;
  const items = (r: DayRange) =>
    rolled
      ? sql`select null::int as asset_id, null::int as wo_id, d.day as at, d.labor_cost as labor, ${partsOf} as parts, d.unrated_hours as unrated
        from work_order_reason_daily d where ${rollupDays(orgId, r)}`
      : sql`
      select w.id as wo_id, w.asset_id, (l.start_date at time zone 'UTC')::date as at, coalesce(l.cost, 0) as labor, 0::numeric as parts, case when l.cost is null then l.hours else 0 end as unrated
        from (${laborRows(orgId, startOf(r.from), endOf(r.to))}) l join work_orders w on w.org_id = l.org_id and w.id = l.work_order_id where true ${scopeOf(orgId, 'w', f, 'l')}
      union all
      select w.id, w.asset_id, (pr.created_at at time zone 'UTC')::date, 0, pr.cost, 0
        from (${partRows(orgId, scale, startOf(r.from), endOf(r.to))}) pr join work_orders w on w.org_id = pr.org_id and w.id = pr.work_order_id where true ${scopeOf(orgId, 'w', f)}`;
  // Per asset: catalogue parts (major units) and the rest (minor) summed apart and scaled once (each row's
  // quantity x price x 10^digits is a whole number, so this is the rows' sum), grouped by the id alone and named
  // after the limit: a numeric expression per row and the name in the key made this 900 ms at 1M orders.
  const assetItems = rolled
    ? sql`select d.asset_id, d.labor_cost as labor, d.parts_major as pm, d.parts_minor as pn from (${assetRollup(orgId, range)}) d`
    : sql`select asset_id, labor, 0::numeric as pm, parts as pn from i`;
  const stationItems = rolled
    ? sql`select d.work_station_id as ws, d.labor_cost as labor, ${partsOf} as parts from work_order_station_daily d
        where ${rollupDays(orgId, range)}`
    : sql`select st.ws, i.labor, i.parts from i left join ${orderStations(orgId)} st on st.wo_id = i.wo_id`;
  const [row] = rowsOf<{ totals: Record<string, unknown>; by_asset: Record<string, unknown>[] | null; by_station: Record<string, unknown>[] | null; by_month: Record<string, unknown>[] | null }>(
    await tx.execute(sql`with i as materialized (${items(range)}),
      by_asset as (select s.asset_id, a.name, s.labor, s.parts from (
          select i.asset_id, sum(labor) as labor, round(sum(pm) * ${scale}::int) + sum(pn) as parts from (${assetItems}) i
          group by 1 order by sum(labor) + round(sum(pm) * ${scale}::int) + sum(pn) desc, 1 nulls last limit 50) s
        left join assets a on a.org_id = ${orgId}::int and a.id = s.asset_id),
      by_station as (select s.id as work_station_id, s.name, sum(labor) as labor, sum(parts) as parts
        from (${stationItems}) st left join work_stations s on s.org_id = ${orgId}::int and s.id = st.ws group by 1, 2 order by sum(labor + parts) desc, 1 nulls last limit 50),
      by_month as (select to_char(at, 'YYYY-MM') as month, sum(labor) as labor, sum(parts) as parts from i group by 1 order by 1)
      select (select json_build_object('labor', coalesce(sum(labor), 0), 'parts', coalesce(sum(parts), 0), 'unrated', coalesce(sum(unrated), 0),
            'prev', (select coalesce(sum(labor + parts), 0) from (${items(previous)}) p)) from i) as totals,
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
export async function quotedVsActualFigures(tx: ReadTx, orgId: number, range: DayRange, f: AnalyticsFilters): Promise<QuotedVsActualFigures> {
  const { currency, digits } = await moneySettings(tx, orgId);
  type Sums = { labor: unknown; parts: unknown; unrated: unknown; untaxed: unknown; total: unknown };
  type OrderRow = Sums & { id: number; title: string; status: string; quotation_id: number };
  type QuotationRow = Sums & { quotation_id: number; orders: number; q_status: string; customer: string | null };
  // The linked orders with their title, status and actual cost kept (work_order_quoted_actuals, the same formulas
  // as laborRows and partRows), by creation time; with a filter, joined to the orders it applies to. Probing each
  // order's labour and parts took ~1 s at 1M orders (20,000 linked a year). Summed, ranked and capped here: the
  // whole list was 10 MB of JSON at 1M orders, most of the answer's time.
  const [row] = rowsOf<{ totals: { quoted: unknown; untaxed: unknown; actual: unknown; quotations: unknown; orders: unknown }; quotations: QuotationRow[] | null; work_orders: OrderRow[] | null }>(
    await tx.execute(sql`with k as materialized (select k.work_order_id as id, k.title, k.status, k.quotation_id,
          k.labor_cost as labor, k.parts_major * ${10 ** digits}::int + k.parts_minor as parts, k.unrated_hours as unrated
        from work_order_quoted_actuals k ${filtered(f) ? sql`join work_orders w on w.org_id = ${orgId}::int and w.id = k.work_order_id` : sql``}
        where k.org_id = ${orgId}::int and k.created_at >= ${ts(startOf(range.from))} and k.created_at < ${ts(endOf(range.to))} ${scopeOf(orgId, 'w', f)}),
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

/** One person's view: their open work, their hours this ISO week by reason, their completions of the range (on time: by the due day). */
export async function myWorkFigures(tx: ReadTx, orgId: number, userId: number, range: DayRange, now: Date): Promise<MyWorkFigures> {
  const n = ts(now.toISOString());
  const open = rowsOf<{ id: number; title: string; status: string; priority: string; due_date: string | Date | null; overdue: boolean; total: number }>(
    // From the person's assignments (an index range), never from the organisation's open orders.
    // Each assignment's order by its key (lateral, `offset 0` keeps it a probe): joined plainly, the planner walked
    // the organisation's 500,000 open orders by due date for the LIMIT and scanned the person's 5,000 assignments
    // for each (200 s at 1M orders).
    await tx.execute(sql`with mine as materialized (select work_order_id from work_order_assignees where org_id = ${orgId}::int and user_id = ${userId}::int)
      select w.id, w.title, w.status, w.priority, w.due_date, coalesce(w.due_date < ${n}, false) as overdue, count(*) over ()::int as total
      from mine cross join lateral (select w.id, w.title, w.status, w.priority, w.due_date from work_orders w
          where w.org_id = ${orgId}::int and w.id = mine.work_order_id and w.status in ('assigned', 'in-progress') offset 0) w
      order by w.due_date asc nulls last, w.id limit 10`),
  );
  const week = rowsOf<{ reason_id: number; name: string; category: string; hours: unknown }>(
    await tx.execute(sql`select t.id as reason_id, t.name, t.type as category, sum(l.hours) as hours
      from (${laborRows(orgId, new Date(weekStart(now)).toISOString(), new Date(weekStart(now) + 7 * 86_400_000).toISOString())}) l
      join time_tracking_reasons t on t.org_id = l.org_id and t.id = l.reason_id
      where l.worker_id = ${userId}::int group by t.id, t.name, t.type order by hours desc, t.id`),
  );
  const [done] = rowsOf<{ completed: number; on_time: number; with_due: number }>(
    // The same: each assignment's closure by its key (a merge join read the year's 225,000 closures at 1M orders).
    await tx.execute(sql`select count(*)::int as completed, count(c.due_date)::int as with_due,
        count(*) filter (where (c.closed_at at time zone 'UTC')::date <= (c.due_date at time zone 'UTC')::date)::int as on_time
      from (select work_order_id from work_order_assignees where org_id = ${orgId}::int and user_id = ${userId}::int offset 0) a
      cross join lateral (select c.closed_at, w.due_date from work_order_closures c join work_orders w on w.org_id = c.org_id and w.id = c.work_order_id
          where c.org_id = ${orgId}::int and c.work_order_id = a.work_order_id
          and c.status = 'completed' and c.closed_at >= ${ts(startOf(range.from))} and c.closed_at < ${ts(endOf(range.to))} offset 0) c`),
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

/** Monday 00:00 UTC of the ISO week of `now`, in ms. */
function weekStart(now: Date): number {
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return day - ((new Date(day).getUTCDay() + 6) % 7) * 86_400_000;
}
