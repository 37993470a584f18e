import { sql, type SQL } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { pmOccurrences, pmSettings, workOrders } from '../../server/db/schema';
import { type Compliance, type DateRange, type Weekday } from './pm-plans.schema';
import { dayInZone } from '../../shared/dates';
import { orgTimeZone } from '../organization/organization.service';
import { addDays, fixedDueDays, floatingNextDay, type CalendarRule } from './recurrence';
import { rowsOf } from '../../server/db/rows';
import { readOrgSettings } from '../../server/db/org-rows';
import { PROJECTION_LIMIT, PlanRow } from './pm-plan-read.service';

/** The targets of a plan: each asset, or the work station as one target without an asset. */
export const targetsOf = (p: Pick<PlanRow, 'assets'>): (number | null)[] => (p.assets.length ? p.assets.map((a) => a.id) : [null]);

/** Where a plan and asset stand: its latest occurrence, and when that one's work order was completed. */
interface TargetState {
  lastDue: string | null;
  lastStatus: 'created' | 'skipped' | null;
  /** The latest occurrence's work order is still open (assigned or in progress). */
  lastOpen: boolean;
  lastCompletedDay: string | null;
}
export const NO_STATE: TargetState = { lastDue: null, lastStatus: null, lastOpen: false, lastCompletedDay: null };
export const stateKey = (planId: number, assetId: number | null) => `${planId}:${assetId ?? ''}`;

/**
 * When a work order was completed: the time of the history line that set it to completed (status change or
 * edit), else its last update. Null while it is not completed (cancelled counts as not done).
 */
export const completedAtOf = (w: {
  orgId: unknown;
  id: unknown;
  status: unknown;
  updatedAt: unknown;
}) => sql`case when ${w.status} = 'completed' then coalesce((
  select max(a.created_at) from activities a where a.org_id = ${w.orgId} and a.entity_type = 'work-order' and a.entity_id = ${w.id}
    and a.changes -> 'status' ->> 'to' = 'completed'), ${w.updatedAt}) end`;

/** The latest occurrence of each plan and asset (of the given plans, or of all), with its work order's state. */
export async function readStates(tx: ReadTx, orgId: number, zone: string, planIds?: number[]): Promise<Map<string, TargetState>> {
  if (planIds && !planIds.length) return new Map();
  const o = pmOccurrences;
  const rows = rowsOf<{
    plan_id: number;
    asset_id: number | null;
    due_date: string;
    status: 'created' | 'skipped';
    wo_status: string | null;
    completed_at: string | Date | null;
  }>(
    await tx.execute(sql`select distinct on (${o.planId}, ${o.assetId}) ${o.planId} as plan_id, ${o.assetId} as asset_id, ${o.dueDate}::text as due_date, ${o.status} as status,
        ${workOrders.status} as wo_status, ${completedAtOf(workOrders)} as completed_at
      from ${o} left join ${workOrders} on ${workOrders.orgId} = ${o.orgId} and ${workOrders.id} = ${o.workOrderId}
      where ${o.orgId} = ${orgId} ${planIds ? sql`and ${o.planId} = any(${sql.param(planIds)}::int[])` : sql``}
      order by ${o.planId}, ${o.assetId}, ${o.dueDate} desc, ${o.ordinal} desc`),
  );
  const states = new Map<string, TargetState>();
  for (const r of rows) {
    states.set(stateKey(r.plan_id, r.asset_id), {
      lastDue: r.due_date,
      lastStatus: r.status,
      lastOpen: r.status === 'created' && (r.wo_status === 'assigned' || r.wo_status === 'in-progress'),
      // The organisation's day of the completion: a floating plan counts from it.
      lastCompletedDay: r.completed_at ? dayInZone(new Date(r.completed_at), zone) : null,
    });
  }
  return states;
}

/** The plan's calendar rule: its recurrence fields as the calendar reads them (and as the plan's DTO shows them). */
export const ruleOf = (
  p: Pick<PlanRow, 'frequency' | 'interval' | 'weekdays' | 'monthlyMode' | 'monthDay' | 'monthWeek' | 'monthWeekday' | 'schedule' | 'startDate' | 'endDate'>,
) =>
  ({
    frequency: p.frequency,
    interval: p.interval,
    weekdays: p.weekdays as Weekday[],
    monthlyMode: p.monthlyMode,
    monthDay: p.monthDay,
    monthWeek: p.monthWeek,
    monthWeekday: p.monthWeekday as Weekday | null,
    schedule: p.schedule,
    startDate: p.startDate,
    endDate: p.endDate,
  }) satisfies CalendarRule;

const maxDay = (a: string | null, b: string | null) => (!a ? b : !b ? a : a > b ? a : b);

/**
 * The calendar due days still to come for one plan and asset, up to `until` (inclusive), at most `limit`.
 * Never before the plan's activeFrom day, never at or before its latest occurrence. Floating: the day after a
 * completion (or a skip) counts again from it; while the latest is open there is none, unless `assumeOnTime`
 * (the calendar's projection), which takes each open or projected one as completed on its due day.
 */
export function projectDueDays(
  plan: Pick<PlanRow, 'activeFrom'> & Parameters<typeof ruleOf>[0],
  state: TargetState,
  until: string,
  limit: number,
  assumeOnTime: boolean,
): string[] {
  const rule = ruleOf(plan);
  const floor = addDays(plan.activeFrom, -1);
  if (rule.schedule === 'fixed') return fixedDueDays(rule, maxDay(state.lastDue, floor), until, limit);
  let next: string | null;
  if (!state.lastDue) next = fixedDueDays(rule, floor, until, 1)[0] ?? null;
  else if (state.lastStatus === 'skipped') next = floatingNextDay(rule, state.lastDue);
  else if (state.lastCompletedDay) next = floatingNextDay(rule, state.lastCompletedDay);
  else if (state.lastOpen && assumeOnTime) next = floatingNextDay(rule, state.lastDue);
  else next = null;
  // Completed early, or resumed after a pause: move on to a day after the latest occurrence and from activeFrom.
  for (let guard = 0; next && (next <= (state.lastDue ?? '') || next < plan.activeFrom) && guard < PROJECTION_LIMIT; guard++)
    next = floatingNextDay(rule, next);
  const days: string[] = [];
  while (next && next <= until && days.length < limit) {
    days.push(next);
    if (!assumeOnTime) break;
    next = floatingNextDay(rule, next);
  }
  return days;
}

export const byCalendar = (p: Pick<PlanRow, 'trigger'>) => p.trigger === 'calendar' || p.trigger === 'both';

// ---------- compliance ----------

export const EMPTY_COMPLIANCE: Compliance = { due: 0, onTime: 0, late: 0, missed: 0, skipped: 0, rate: null };

export async function graceDaysOf(tx: ReadTx, orgId: number): Promise<number> {
  return (await readOrgSettings(tx, pmSettings, { graceDays: pmSettings.graceDays }, orgId, { graceDays: 0 })).graceDays;
}

/**
 * Compliance of occurrences due in [from, to], per plan (key 0: the organisation): a created occurrence is
 * on time when its work order was completed by its due day plus the grace window, late when completed after,
 * missed when not completed and the window has passed; one whose window is still open is not counted yet.
 * Skipped ones are counted apart and are not due.
 */
export async function complianceByPlan(
  tx: ReadTx,
  orgId: number,
  zone: string,
  range: DateRange,
  today: string,
  graceDays: number,
  planIds?: number[],
  scope?: SQL,
): Promise<Map<number, Compliance>> {
  const o = pmOccurrences;
  const rows = rowsOf<{ plan_id: number | null; skipped: number; on_time: number; late: number; missed: number }>(
    await tx.execute(sql`with occ as (
        select ${o.planId} as plan_id, ${o.status} as status, ${o.dueDate} as due_date,
          ((${completedAtOf(workOrders)}) at time zone ${zone})::date as done_day
        -- Each occurrence's order by its key (lateral, \`offset 0\` keeps it a probe): joined plainly, a filter of
        -- analytics made the planner hash all the organisation's orders (100,000) for a year's 7,000 occurrences.
        from ${o} left join lateral (select w.org_id, w.id, w.status, w.updated_at from ${workOrders} w
          where w.org_id = ${o.orgId} and w.id = ${o.workOrderId} offset 0) ${workOrders} on true
        where ${o.orgId} = ${orgId} and ${o.dueDate} >= ${range.from}::date and ${o.dueDate} <= ${range.to}::date
          ${planIds ? sql`and ${o.planId} = any(${sql.param(planIds)}::int[])` : sql``} ${scope ? sql`and (${scope})` : sql``})
      select plan_id,
        count(*) filter (where status = 'skipped')::int as skipped,
        count(*) filter (where status = 'created' and done_day <= due_date + ${graceDays}::int)::int as on_time,
        count(*) filter (where status = 'created' and done_day > due_date + ${graceDays}::int)::int as late,
        count(*) filter (where status = 'created' and done_day is null and due_date + ${graceDays}::int < ${today}::date)::int as missed
      from occ group by rollup (plan_id)`),
  );
  const out = new Map<number, Compliance>();
  for (const r of rows) {
    const due = r.on_time + r.late + r.missed;
    out.set(r.plan_id ?? 0, { due, onTime: r.on_time, late: r.late, missed: r.missed, skipped: r.skipped, rate: due ? r.on_time / due : null });
  }
  return out;
}

/**
 * PM compliance of the organisation over occurrences due in [from, to] (for analytics): see complianceByPlan.
 * `scope`: analytics' filters, a condition on the tables pm_occurrences and work_orders (left-joined: null for
 * an occurrence without its order).
 */
export async function pmCompliance(
  tx: ReadTx,
  orgId: number,
  range: DateRange,
  now: Date = new Date(),
  scope?: SQL,
): Promise<Compliance & { graceDays: number; plans: { planId: number; compliance: Compliance }[] }> {
  const graceDays = await graceDaysOf(tx, orgId);
  const zone = await orgTimeZone(tx, orgId);
  const byPlan = await complianceByPlan(tx, orgId, zone, range, dayInZone(now, zone), graceDays, undefined, scope);
  const plans = [...byPlan].filter(([id]) => id !== 0).map(([planId, compliance]) => ({ planId, compliance }));
  return { ...(byPlan.get(0) ?? EMPTY_COMPLIANCE), graceDays, plans };
}

// ---------- DTOs ----------

/** The earliest open occurrence and the latest completion of each plan. */
export async function readProgress(tx: ReadTx, orgId: number, planIds: number[]) {
  if (!planIds.length) return new Map<number, { openDue: string | null; lastCompleted: string | null }>();
  const o = pmOccurrences;
  const rows = rowsOf<{ plan_id: number; open_due: string | null; last_completed: string | Date | null }>(
    await tx.execute(sql`select ${o.planId} as plan_id,
        min(${o.dueDate}) filter (where ${workOrders.status} in ('assigned', 'in-progress'))::text as open_due,
        max(${completedAtOf(workOrders)}) as last_completed
      from ${o} left join ${workOrders} on ${workOrders.orgId} = ${o.orgId} and ${workOrders.id} = ${o.workOrderId}
      where ${o.orgId} = ${orgId} and ${o.planId} = any(${sql.param(planIds)}::int[]) and ${o.status} = 'created'
      group by ${o.planId}`),
  );
  return new Map(rows.map((r) => [r.plan_id, { openDue: r.open_due, lastCompleted: r.last_completed ? new Date(r.last_completed).toISOString() : null }]));
}
