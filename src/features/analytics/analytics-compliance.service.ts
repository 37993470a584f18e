import { sql, type SQL } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { rowsOf } from '../../server/db/rows';
import { pmCompliance } from '../pm-plans/pm-plans.service';
import { type AnalyticsFilters, type ComplianceFigures, type DayRange, type MyWorkFigures } from './analytics.schema';
import { num, round2, dayStart, dayEnd, localDay, ts, ordersOf, maintenanceOrderScope, laborRows, assetScope } from './analytics-sql';

/** PM compliance and the technician view of the insights screen (decisions 038, 063, 064). SQL helpers: analytics-sql.ts. */

// ---------- PM compliance ----------

/** Maintenance orders due in the range (not cancelled): done by the due day, after it, or not done with the day passed. */
async function orderCompliance(tx: ReadTx, orgId: number, r: DayRange, f: AnalyticsFilters, now: Date, tz: string) {
  const [row] = rowsOf<{ on_time: number; late: number; missed: number }>(
    await tx.execute(sql`select
        count(*) filter (where ${localDay(sql`m.completion_date`, tz)} <= ${localDay(sql`m.due_date`, tz)})::int as on_time,
        count(*) filter (where ${localDay(sql`m.completion_date`, tz)} > ${localDay(sql`m.due_date`, tz)})::int as late,
        count(*) filter (where m.completion_date is null and ${localDay(sql`m.due_date`, tz)} < ${localDay(ts(now), tz)})::int as missed
      from maintenance_orders m where m.org_id = ${orgId}::int and m.status <> 'cancel'
        and m.due_date >= ${dayStart(r.from, tz)} and m.due_date < ${dayEnd(r.to, tz)} ${maintenanceOrderScope(orgId, 'm', f)}`),
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
  const parts: SQL[] = assetScope(orgId, 'pm_occurrences', 'asset_id', f);
  const ofPlan = (column: string, id: number) =>
    sql`exists (select 1 from pm_plans fp where fp.org_id = pm_occurrences.org_id and fp.id = pm_occurrences.plan_id and ${sql.raw(`fp.${column}`)} = ${id}::int)`;
  if (f.teamId) parts.push(sql`(${ofPlan('team_id', f.teamId)} or pm_occurrences.work_order_id in ${ordersOf(orgId, 'team', f.teamId)})`);
  if (f.workStationId)
    parts.push(sql`(${ofPlan('work_station_id', f.workStationId)} or pm_occurrences.work_order_id in ${ordersOf(orgId, 'workStation', f.workStationId)})`);
  if (f.assigneeId)
    parts.push(
      sql`exists (select 1 from work_order_assignees fw where fw.org_id = pm_occurrences.org_id and fw.work_order_id = pm_occurrences.work_order_id and fw.user_id = ${f.assigneeId}::int)`,
    );
  return parts.length ? sql.join(parts, sql` and `) : undefined;
}

/** PM compliance from the plans' occurrences (pmCompliance) once a plan exists; before, from maintenance orders. Every filter applies. */
export async function complianceFigures(
  tx: ReadTx,
  orgId: number,
  range: DayRange,
  previous: DayRange,
  f: AnalyticsFilters,
  now: Date,
  tz = 'UTC',
): Promise<ComplianceFigures> {
  const [{ plans }] = rowsOf<{ plans: boolean }>(await tx.execute(sql`select exists (select 1 from pm_plans where org_id = ${orgId}::int) as plans`));
  if (plans) {
    const cur = await pmCompliance(tx, orgId, range, now, occurrenceScope(orgId, f));
    const prev = await pmCompliance(tx, orgId, previous, now, occurrenceScope(orgId, f));
    return { range, source: 'plans', due: cur.due, onTime: cur.onTime, late: cur.late, missed: cur.missed, rate: { current: cur.rate, previous: prev.rate } };
  }
  const cur = await orderCompliance(tx, orgId, range, f, now, tz);
  const prev = await orderCompliance(tx, orgId, previous, f, now, tz);
  return {
    range,
    source: 'maintenance-orders',
    due: cur.due,
    onTime: cur.onTime,
    late: cur.late,
    missed: cur.missed,
    rate: { current: cur.rate, previous: prev.rate },
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
    open: open.map((r) => ({
      id: r.id,
      title: r.title,
      status: r.status,
      priority: r.priority,
      dueDate: r.due_date ? new Date(r.due_date).toISOString() : null,
      overdue: r.overdue,
    })),
    hoursThisWeek: week.map((r) => ({ reasonId: r.reason_id, name: r.name, category: r.category, hours: round2(r.hours) })),
    completed: num(done.completed),
    completedOnTime: num(done.on_time),
    completedWithDue: num(done.with_due),
  };
}
