import { sql, type SQL } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { rowsOf } from '../../server/db/rows';
import { addDays } from '../../shared/dates';
import { AGE_BUCKETS, type AnalyticsFilters, type BacklogFigures, type DayRange, type PlannedShareFigures, type ThroughputFigures } from './analytics.schema';
import {
  num,
  round2,
  dayStart,
  dayEnd,
  localDay,
  ts,
  orderOf,
  needsOrder,
  scopeOf,
  maintenanceOrderScope,
  laborRows,
  type PeriodFigures,
} from './analytics-sql';

/** The work-order counts of the insights screen (decisions 038, 063): backlog, throughput, planned vs reactive. SQL helpers: analytics-sql.ts. */

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
export const throughputFigures: PeriodFigures<ThroughputFigures> = async (tx, orgId, range, previous, f, tz = 'UTC') => {
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
};

// ---------- planned vs reactive ----------

/** Work orders created in the range (and maintenance orders) planned vs reactive, and labour hours of the range on each. */
export const plannedShareFigures: PeriodFigures<PlannedShareFigures> = async (tx, orgId, range, previous, f, tz = 'UTC') => {
  // Both periods in one statement (the previous one ends where the range starts): the plans' orders and a
  // team's or work station's orders (scopeOf) are built once, not once per period.
  const from = dayStart(previous.from, tz);
  const split = dayStart(range.from, tz);
  const to = dayEnd(range.to, tz);
  const per = (t: SQL, what: SQL, and = sql`true`) => sql`${what} filter (where ${t} >= ${split} and ${and})`;
  const before = (t: SQL, what: SQL, and = sql`true`) => sql`${what} filter (where ${t} < ${split} and ${and})`;
  // One pass over the orders and one over the labour, each row marked planned or not once.
  // The plans' orders once, as a set to hash (asked per row, `exists` took a probe per order and per labour row).
  const [row] = rowsOf<Record<string, unknown>>(
    await tx.execute(sql`with pl as materialized (select distinct o.work_order_id as id from pm_occurrences o where o.org_id = ${orgId}::int and o.work_order_id is not null)
      select o.*, h.*, m.*
      from (select ${per(sql`w.created_at`, sql`count(pl.id)`)}::int as planned, ${per(sql`w.created_at`, sql`count(*)`)}::int as orders,
            ${before(sql`w.created_at`, sql`count(pl.id)`)}::int as prev_planned, ${before(sql`w.created_at`, sql`count(*)`)}::int as prev_orders
          from work_orders w left join pl on pl.id = w.id
          where w.org_id = ${orgId}::int and w.created_at >= ${from} and w.created_at < ${to} ${scopeOf(orgId, 'w', f)}) o,
        (select ${per(sql`l.start_date`, sql`sum(l.hours)`, sql`pl.id is not null`)} as planned_hours, ${per(sql`l.start_date`, sql`sum(l.hours)`, sql`pl.id is null`)} as reactive_hours,
            ${before(sql`l.start_date`, sql`sum(l.hours)`, sql`pl.id is not null`)} as prev_planned_hours,
            ${before(sql`l.start_date`, sql`sum(l.hours)`, sql`pl.id is null`)} as prev_reactive_hours
          from (${laborRows(orgId, sql`l.start_date >= ${from} and l.start_date < ${to}`)}) l ${needsOrder(f, true) ? orderOf(orgId, sql`l.work_order_id`, f) : sql``} left join pl on pl.id = l.work_order_id
          where true ${scopeOf(orgId, 'w', f, 'l')}) h,
        (select ${per(sql`m.created_at`, sql`count(*)`)}::int as mos, ${before(sql`m.created_at`, sql`count(*)`)}::int as prev_mos
          from maintenance_orders m where m.org_id = ${orgId}::int and m.created_at >= ${from} and m.created_at < ${to} and m.status <> 'cancel'
            ${maintenanceOrderScope(orgId, 'm', f)}) m`),
  );
  // The statement names the previous period's columns as the range's with `prev_` before them.
  const period = (p: '' | 'prev_') => ({
    planned: num(row[`${p}planned`]),
    reactive: num(row[`${p}orders`]) - num(row[`${p}planned`]),
    mos: num(row[`${p}mos`]),
    plannedHours: num(row[`${p}planned_hours`]),
    reactiveHours: num(row[`${p}reactive_hours`]),
  });
  const cur = period('');
  const prev = period('prev_');
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
};
