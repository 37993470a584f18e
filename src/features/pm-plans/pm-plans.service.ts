import { and, asc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { param, preparedRead } from '../../server/db/prepared';
import { totalOver, pageAndTotal } from '../../server/db/paging';
import { escapeLike } from '../../server/db/like';
import { sameUpdatedAt, StaleEdit } from '../../server/stale-edit';
import { HttpError, notFound } from '../../server/http-error';
import {
  assets,
  meterReadings,
  meters,
  parts,
  pmOccurrences,
  pmPlanAssets,
  pmPlanAssignees,
  pmPlanParts,
  pmPlans,
  pmSettings,
  teamMembers,
  teams,
  users,
  workOrders,
  workStations,
} from '../../server/db/schema';
import { pagination } from '../../shared/pagination';
import { diffChanges, recordActivity, registerActivityEntity } from '../activity/activity.service';
import { sanitizeHtml } from '../work-orders/sanitize-html';
import { createWorkOrders, type NewWorkOrder } from '../work-orders/work-orders.service';
import { notifyGeneratedWork } from '../notifications/notification-events';
import { latestReadings } from '../meters/meters.service';
import { attachProcedure } from '../procedures/procedures.service';
import { procedures } from '../procedures/procedures.table';
import {
  PLAN_MESSAGES,
  planDisplayId,
  type Compliance,
  type DateRange,
  type OccurrenceDto,
  type PlanDto,
  type PlanListQuery,
  type PlannedOccurrence,
  type PlanPreviewValues,
  type PlanValues,
  type PmSettings,
  type Weekday,
} from './pm-plans.schema';
import { dayInZone, zonedInstant } from '../../shared/dates';
import { orgTimeZone } from '../organization/organization.service';
import { addDays, fixedDueDays, floatingNextDay, previewDueDays, type CalendarRule } from './recurrence';
import { rowsOf } from '../../server/db/rows';

// Plans are managers' records: a worker's history, notes and bell never show them (decision 032).
registerActivityEntity('pm-plan', pmPlans, 'Plan', () => sql`false`);

const ENTITY = 'pm-plan';
/** A generator run creates at most this many overdue occurrences per plan and asset (a long outage does not flood). */
const BACKLOG_LIMIT = 31;
/** The projection of one plan and asset stops after this many occurrences (a daily plan over five years). */
const PROJECTION_LIMIT = 2000;
/** The time of day a plan's work order is due on its due day, on the organisation's clock (decision 064). */
export const PM_DUE_TIME = '09:00';
/** A plan's work order is due at PM_DUE_TIME of its due day in the organisation's time zone. */
export const dueInstant = (day: string, zone = 'UTC') => zonedInstant(day, zone, PM_DUE_TIME);

type Actor = { userId: number };

// ---------- reading plans ----------

const assetsOfPlan = sql<{ id: number; name: string }[]>`coalesce((
  select json_agg(json_build_object('id', ${assets.id}, 'name', ${assets.name}) order by ${assets.name}, ${assets.id})
  from ${pmPlanAssets} join ${assets} on ${assets.orgId} = ${pmPlanAssets.orgId} and ${assets.id} = ${pmPlanAssets.assetId}
  where ${pmPlanAssets.orgId} = ${pmPlans.orgId} and ${pmPlanAssets.planId} = ${pmPlans.id}), '[]')`;
const assigneesOfPlan = sql<number[]>`coalesce((
  select json_agg(${pmPlanAssignees.userId} order by ${pmPlanAssignees.userId}) from ${pmPlanAssignees}
  where ${pmPlanAssignees.orgId} = ${pmPlans.orgId} and ${pmPlanAssignees.planId} = ${pmPlans.id}), '[]')`;
const partsOfPlan = sql<{ partId: number; quantity: number; name: string }[]>`coalesce((
  select json_agg(json_build_object('partId', ${pmPlanParts.partId}, 'quantity', ${pmPlanParts.quantity}, 'name', ${parts.name}) order by ${parts.name})
  from ${pmPlanParts} join ${parts} on ${parts.orgId} = ${pmPlanParts.orgId} and ${parts.id} = ${pmPlanParts.partId}
  where ${pmPlanParts.orgId} = ${pmPlans.orgId} and ${pmPlanParts.planId} = ${pmPlans.id}), '[]')`;
/** The team's current members: a plan with a team assigns its work to them (with the plan's own assignees). */
const teamMembersOfPlan = sql<number[]>`coalesce((
  select json_agg(${teamMembers.workerId} order by ${teamMembers.workerId}) from ${teamMembers}
  where ${teamMembers.orgId} = ${pmPlans.orgId} and ${teamMembers.teamId} = ${pmPlans.teamId}), '[]')`;

const planFields = {
  id: pmPlans.id,
  name: pmPlans.name,
  workStationId: pmPlans.workStationId,
  workStationName: workStations.name,
  teamId: pmPlans.teamId,
  teamName: teams.name,
  title: pmPlans.title,
  instructions: pmPlans.instructions,
  priority: pmPlans.priority,
  duration: pmPlans.duration,
  procedureId: pmPlans.procedureId,
  trigger: pmPlans.trigger,
  frequency: pmPlans.frequency,
  interval: pmPlans.interval,
  weekdays: pmPlans.weekdays,
  monthlyMode: pmPlans.monthlyMode,
  monthDay: pmPlans.monthDay,
  monthWeek: pmPlans.monthWeek,
  monthWeekday: pmPlans.monthWeekday,
  schedule: pmPlans.schedule,
  startDate: pmPlans.startDate,
  endDate: pmPlans.endDate,
  leadDays: pmPlans.leadDays,
  meterId: pmPlans.meterId,
  meterEvery: pmPlans.meterEvery,
  meterThreshold: pmPlans.meterThreshold,
  meterLeadUnits: pmPlans.meterLeadUnits,
  meterBase: pmPlans.meterBase,
  paused: pmPlans.paused,
  activeFrom: pmPlans.activeFrom,
  createdAt: pmPlans.createdAt,
  updatedAt: pmPlans.updatedAt,
  assets: assetsOfPlan,
  assignees: assigneesOfPlan,
  parts: partsOfPlan,
  teamMembers: teamMembersOfPlan,
};

function selectPlans(tx: ReadTx) {
  return tx
    .select(planFields)
    .from(pmPlans)
    .leftJoin(workStations, and(eq(workStations.orgId, pmPlans.orgId), eq(workStations.id, pmPlans.workStationId)))
    .leftJoin(teams, and(eq(teams.orgId, pmPlans.orgId), eq(teams.id, pmPlans.teamId)));
}
export type PlanRow = Awaited<ReturnType<typeof selectPlans>>[number];

/** The targets of a plan: each asset, or the work station as one target without an asset. */
const targetsOf = (p: Pick<PlanRow, 'assets'>): (number | null)[] => (p.assets.length ? p.assets.map((a) => a.id) : [null]);

/** Where a plan and asset stand: its latest occurrence, and when that one's work order was completed. */
interface TargetState {
  lastDue: string | null;
  lastStatus: 'created' | 'skipped' | null;
  /** The latest occurrence's work order is still open (assigned or in progress). */
  lastOpen: boolean;
  lastCompletedDay: string | null;
}
const NO_STATE: TargetState = { lastDue: null, lastStatus: null, lastOpen: false, lastCompletedDay: null };
const stateKey = (planId: number, assetId: number | null) => `${planId}:${assetId ?? ''}`;

/**
 * When a work order was completed: the time of the history line that set it to completed (status change or
 * edit), else its last update. Null while it is not completed (cancelled counts as not done).
 */
const completedAtOf = (w: { orgId: unknown; id: unknown; status: unknown; updatedAt: unknown }) => sql`case when ${w.status} = 'completed' then coalesce((
  select max(a.created_at) from activities a where a.org_id = ${w.orgId} and a.entity_type = 'work-order' and a.entity_id = ${w.id}
    and a.changes -> 'status' ->> 'to' = 'completed'), ${w.updatedAt}) end`;

/** The latest occurrence of each plan and asset (of the given plans, or of all), with its work order's state. */
async function readStates(tx: ReadTx, orgId: number, zone: string, planIds?: number[]): Promise<Map<string, TargetState>> {
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

const ruleOf = (
  p: Pick<PlanRow, 'frequency' | 'interval' | 'weekdays' | 'monthlyMode' | 'monthDay' | 'monthWeek' | 'monthWeekday' | 'schedule' | 'startDate' | 'endDate'>,
): CalendarRule => ({
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
});

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

const byCalendar = (p: Pick<PlanRow, 'trigger'>) => p.trigger === 'calendar' || p.trigger === 'both';

// ---------- compliance ----------

const EMPTY_COMPLIANCE: Compliance = { due: 0, onTime: 0, late: 0, missed: 0, skipped: 0, rate: null };

async function graceDaysOf(tx: ReadTx, orgId: number): Promise<number> {
  const [row] = await tx.select({ graceDays: pmSettings.graceDays }).from(pmSettings).where(eq(pmSettings.orgId, orgId));
  return row?.graceDays ?? 0;
}

/**
 * Compliance of occurrences due in [from, to], per plan (key 0: the organisation): a created occurrence is
 * on time when its work order was completed by its due day plus the grace window, late when completed after,
 * missed when not completed and the window has passed; one whose window is still open is not counted yet.
 * Skipped ones are counted apart and are not due.
 */
async function complianceByPlan(
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
async function readProgress(tx: ReadTx, orgId: number, planIds: number[]) {
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

/** Plans with their next due day, last completion and compliance (occurrences due in the last `range`). */
async function toDtos(tx: ReadTx, orgId: number, rows: PlanRow[], now: Date, range?: DateRange): Promise<PlanDto[]> {
  const ids = rows.map((r) => r.id);
  const zone = await orgTimeZone(tx, orgId);
  const today = dayInZone(now, zone);
  const [states, progress, graceDays] = [await readStates(tx, orgId, zone, ids), await readProgress(tx, orgId, ids), await graceDaysOf(tx, orgId)];
  const compliance = await complianceByPlan(tx, orgId, zone, range ?? defaultComplianceRange(now, zone), today, graceDays, ids);
  return rows.map((p) => {
    let nextDue = progress.get(p.id)?.openDue ?? null;
    if (!p.paused && byCalendar(p)) {
      for (const assetId of targetsOf(p)) {
        const [day] = projectDueDays(p, states.get(stateKey(p.id, assetId)) ?? NO_STATE, '9999-12-31', 1, false);
        if (day && (!nextDue || day < nextDue)) nextDue = day;
      }
    }
    return {
      id: p.id,
      planId: planDisplayId(p.id),
      name: p.name,
      assetIds: p.assets.map((a) => a.id),
      assets: p.assets,
      workStationId: p.workStationId,
      workStation: p.workStationId ? { id: p.workStationId, name: p.workStationName ?? '' } : null,
      title: p.title,
      instructions: p.instructions,
      priority: p.priority,
      duration: p.duration,
      teamId: p.teamId,
      team: p.teamId ? { id: p.teamId, name: p.teamName ?? '' } : null,
      assignees: p.assignees,
      parts: p.parts,
      procedureId: p.procedureId,
      trigger: p.trigger,
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
      leadDays: p.leadDays,
      meterId: p.meterId,
      meterEvery: p.meterEvery,
      meterThreshold: p.meterThreshold,
      meterLeadUnits: p.meterLeadUnits,
      paused: p.paused,
      nextDue,
      lastCompleted: progress.get(p.id)?.lastCompleted ?? null,
      compliance: compliance.get(p.id) ?? EMPTY_COMPLIANCE,
      createdAt: p.createdAt.toISOString(),
      updatedAt: p.updatedAt.toISOString(),
    };
  });
}

/** The default compliance period: the 90 days up to today. */
export const defaultComplianceRange = (now: Date, zone = 'UTC'): DateRange => ({ from: addDays(dayInZone(now, zone), -89), to: dayInZone(now, zone) });

/** One plan of the organisation; 404 otherwise. */
export async function getPlan(tx: ReadTx, orgId: number, id: number, now: Date = new Date()): Promise<PlanDto> {
  const rows = await selectPlans(tx).where(and(eq(pmPlans.orgId, orgId), eq(pmPlans.id, id)));
  if (!rows.length) throw notFound('Plan');
  return (await toDtos(tx, orgId, rows, now))[0];
}

/** GET get-plans: by name, filtered by asset, team and trigger; with the organisation's compliance. */
export async function listPlans(tx: ReadTx, orgId: number, query: PlanListQuery & Partial<DateRange>, now: Date = new Date()) {
  const values = {
    orgId,
    name: query.name ? `%${escapeLike(query.name)}%` : undefined,
    assetId: query.assetId,
    teamId: query.teamId,
    trigger: query.trigger,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  };
  const { rows, total } = await pageAndTotal(values, (v) =>
    preparedRead(
      tx,
      'pmPlans.list',
      () =>
        tx
          .select({ ...planFields, total: totalOver() })
          .from(pmPlans)
          .leftJoin(workStations, and(eq(workStations.orgId, pmPlans.orgId), eq(workStations.id, pmPlans.workStationId)))
          .leftJoin(teams, and(eq(teams.orgId, pmPlans.orgId), eq(teams.id, pmPlans.teamId)))
          .where(
            and(
              eq(pmPlans.orgId, param('orgId')),
              values.name ? ilike(pmPlans.name, param('name')) : undefined,
              values.teamId ? eq(pmPlans.teamId, param('teamId')) : undefined,
              values.trigger ? eq(pmPlans.trigger, param('trigger')) : undefined,
              values.assetId
                ? sql`exists (select 1 from ${pmPlanAssets} where ${pmPlanAssets.orgId} = ${pmPlans.orgId} and ${pmPlanAssets.planId} = ${pmPlans.id} and ${pmPlanAssets.assetId} = ${param('assetId')})`
                : undefined,
            ),
          )
          .orderBy(asc(pmPlans.name), asc(pmPlans.id))
          .limit(param('limit'))
          .offset(param('offset')),
      v,
    ),
  );
  const range = query.from && query.to ? { from: query.from, to: query.to } : defaultComplianceRange(now, await orgTimeZone(tx, orgId));
  const plans = await toDtos(tx, orgId, rows as PlanRow[], now, range);
  const org = await pmCompliance(tx, orgId, range, now);
  const { plans: _perPlan, graceDays, ...compliance } = org;
  void _perPlan;
  return { plans, pagination: pagination(total, query.page, query.pageSize), compliance, graceDays, complianceRange: range };
}

// ---------- writing plans ----------

/** Every id in the body must be a record of this organisation: a field message for each one that is not. */
async function checkReferences(tx: Tx, orgId: number, input: PlanValues) {
  const issues: { path: string; message: string }[] = [];
  const missing = async (ids: number[], table: { orgId: never; id: never } & object, path: (i: number) => string, message: string) => {
    if (!ids.length) return;
    const t = table as unknown as typeof assets;
    const found = new Set(
      (
        await tx
          .select({ id: t.id })
          .from(t)
          .where(and(eq(t.orgId, orgId), inArray(t.id, ids)))
      ).map((r) => r.id),
    );
    ids.forEach((id, i) => {
      if (!found.has(id)) issues.push({ path: path(i), message });
    });
  };
  await missing(input.assetIds, assets as never, (i) => `assetIds.${i}`, 'Asset not found');
  if (input.workStationId) await missing([input.workStationId], workStations as never, () => 'workStationId', 'Work station not found');
  if (input.teamId) await missing([input.teamId], teams as never, () => 'teamId', 'Team not found');
  if (input.procedureId) await missing([input.procedureId], procedures as never, () => 'procedureId', 'Procedure not found');
  await missing(input.assignees, users as never, (i) => `assignees.${i}`, 'Assignee not found');
  await missing(
    input.parts.map((p) => p.partId),
    parts as never,
    (i) => `parts.${i}.partId`,
    'Part not found',
  );
  await checkPlanExtensions(tx, orgId, input, issues);
  if (issues.length) throw new HttpError(400, issues[0].message, issues);
}

/** The meter: the organisation's, of the plan's one asset, a counter for "every N units". */
async function checkPlanExtensions(tx: Tx, orgId: number, input: PlanValues, issues: { path: string; message: string }[]) {
  if (input.trigger === 'calendar' || !input.meterId) return;
  const [meter] = await tx
    .select({ assetId: meters.assetId, kind: meters.kind })
    .from(meters)
    .where(and(eq(meters.orgId, orgId), eq(meters.id, input.meterId)));
  if (!meter) issues.push({ path: 'meterId', message: PLAN_MESSAGES.meterNotFound });
  else if (input.assetIds.length !== 1 || input.assetIds[0] !== meter.assetId) issues.push({ path: 'meterId', message: PLAN_MESSAGES.meterAsset });
  else if (input.meterEvery !== undefined && meter.kind !== 'counter') issues.push({ path: 'meterEvery', message: PLAN_MESSAGES.meterCounter });
}

/** Every N units counts from the meter's total when the rule is saved (0 before its first reading). */
async function meterBaseOf(tx: ReadTx, orgId: number, input: PlanValues): Promise<number | null> {
  if (input.trigger === 'calendar' || !input.meterId || input.meterEvery === undefined) return null;
  return (await latestReadings(tx, orgId, [input.meterId])).get(input.meterId)?.total ?? 0;
}

const writable = (input: PlanValues) => ({
  name: input.name,
  workStationId: input.assetIds.length ? null : (input.workStationId ?? null),
  teamId: input.teamId ?? null,
  procedureId: input.procedureId ?? null,
  title: input.title,
  instructions: input.instructions ? sanitizeHtml(input.instructions) : null,
  priority: input.priority ?? 'medium',
  duration: input.duration ?? null,
  trigger: input.trigger,
  frequency: input.frequency,
  interval: input.interval,
  weekdays: input.frequency === 'weekly' ? [...new Set(input.weekdays)].sort((a, b) => WEEK_ORDER.indexOf(a) - WEEK_ORDER.indexOf(b)) : [],
  monthlyMode: input.monthlyMode,
  monthDay: input.frequency === 'monthly' && input.monthlyMode === 'day' ? (input.monthDay ?? null) : null,
  monthWeek: input.frequency === 'monthly' && input.monthlyMode === 'weekday' ? (input.monthWeek ?? null) : null,
  monthWeekday: input.frequency === 'monthly' && input.monthlyMode === 'weekday' ? (input.monthWeekday ?? null) : null,
  schedule: input.schedule,
  startDate: input.startDate,
  endDate: input.endDate ?? null,
  leadDays: input.leadDays,
  meterId: input.trigger === 'calendar' ? null : (input.meterId ?? null),
  meterEvery: input.trigger === 'calendar' ? null : (input.meterEvery ?? null),
  meterThreshold: input.trigger === 'calendar' ? null : (input.meterThreshold ?? null),
  meterLeadUnits: input.trigger === 'calendar' ? 0 : input.meterLeadUnits,
});
const WEEK_ORDER: Weekday[] = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

async function setChildren(tx: Tx, orgId: number, planId: number, input: PlanValues) {
  for (const table of [pmPlanAssets, pmPlanAssignees, pmPlanParts]) await tx.delete(table).where(and(eq(table.orgId, orgId), eq(table.planId, planId)));
  const assetIds = [...new Set(input.assetIds)];
  if (assetIds.length) await tx.insert(pmPlanAssets).values(assetIds.map((assetId) => ({ orgId, planId, assetId })));
  const userIds = [...new Set(input.assignees)];
  if (userIds.length) await tx.insert(pmPlanAssignees).values(userIds.map((userId) => ({ orgId, planId, userId })));
  const quantities = new Map<number, number>();
  for (const p of input.parts) quantities.set(p.partId, (quantities.get(p.partId) ?? 0) + p.quantity);
  if (quantities.size) await tx.insert(pmPlanParts).values([...quantities].map(([partId, quantity]) => ({ orgId, planId, partId, quantity })));
}

/** POST add-plan (managers): the new plan and the refreshed list. Its first occurrences count from today. */
export async function addPlan(tx: Tx, orgId: number, actor: Actor, input: PlanValues, query: PlanListQuery, now: Date = new Date()) {
  await checkReferences(tx, orgId, input);
  const [row] = await tx
    .insert(pmPlans)
    .values({
      orgId,
      ...writable(input),
      meterBase: await meterBaseOf(tx, orgId, input),
      activeFrom: dayInZone(now, await orgTimeZone(tx, orgId)),
      createdById: actor.userId,
    })
    .returning({ id: pmPlans.id });
  await setChildren(tx, orgId, row.id, input);
  await recordActivity(tx, orgId, { entityType: ENTITY, entityId: row.id, userId: actor.userId, action: 'created' });
  return { message: 'Plan added successfully', plan: await getPlan(tx, orgId, row.id, now), ...(await listPlans(tx, orgId, query, now)) };
}

const summary = (p: PlanDto) => ({
  name: p.name,
  title: p.title,
  assets: [...p.assetIds].sort((a, b) => a - b),
  workStationId: p.workStationId,
  teamId: p.teamId,
  procedureId: p.procedureId,
  assignees: p.assignees,
  priority: p.priority,
  trigger: p.trigger,
  schedule: `${p.schedule} ${p.frequency}/${p.interval}`,
  startDate: p.startDate,
  endDate: p.endDate,
  leadDays: p.leadDays,
});

/**
 * PUT update-plan/{id} (managers). Occurrences already created or skipped stay; the new schedule applies to
 * due days after the latest of them (the unique key keeps a run that read the old plan from repeating one).
 */
export async function updatePlan(tx: Tx, orgId: number, actor: Actor, id: number, input: PlanValues, now: Date = new Date()) {
  const [claimed] = await tx
    .update(pmPlans)
    .set({ updatedAt: new Date() })
    .where(and(eq(pmPlans.orgId, orgId), eq(pmPlans.id, id), sameUpdatedAt(pmPlans.updatedAt, input.updatedAt)))
    .returning({ id: pmPlans.id });
  if (!claimed) throw new StaleEdit(await getPlan(tx, orgId, id, now));
  const before = await getPlan(tx, orgId, id, now);
  await checkReferences(tx, orgId, input);
  // The meter's base moves only when its rule changes: an unrelated edit keeps the units counted so far.
  const sameMeterRule =
    before.meterId === (input.meterId ?? null) &&
    before.meterEvery === (input.meterEvery ?? null) &&
    before.trigger !== 'calendar' &&
    input.trigger !== 'calendar';
  const meterBase = sameMeterRule ? undefined : await meterBaseOf(tx, orgId, input);
  await tx
    .update(pmPlans)
    .set({ ...writable(input), ...(meterBase === undefined ? {} : { meterBase }) })
    .where(and(eq(pmPlans.orgId, orgId), eq(pmPlans.id, id)));
  await setChildren(tx, orgId, id, input);
  const plan = await getPlan(tx, orgId, id, now);
  const changes = diffChanges(summary(before), summary(plan), Object.keys(summary(plan)) as (keyof ReturnType<typeof summary>)[]);
  if (Object.keys(changes).length) await recordActivity(tx, orgId, { entityType: ENTITY, entityId: id, userId: actor.userId, action: 'updated', changes });
  return { message: 'Plan updated successfully', plan };
}

/** DELETE delete-plan/{id} (managers): its occurrences go with it; the work orders it created stay. */
export async function deletePlan(tx: Tx, orgId: number, actor: Actor, id: number, query: PlanListQuery, now: Date = new Date()) {
  const rows = await tx
    .delete(pmPlans)
    .where(and(eq(pmPlans.orgId, orgId), eq(pmPlans.id, id)))
    .returning({ id: pmPlans.id });
  if (!rows.length) throw notFound('Plan');
  await recordActivity(tx, orgId, { entityType: ENTITY, entityId: id, userId: actor.userId, action: 'deleted' });
  return { message: 'Plan deleted successfully', ...(await listPlans(tx, orgId, query, now)) };
}

/**
 * PUT pause/{id} and resume/{id}: a paused plan creates nothing. Resuming counts from today: the occurrences
 * that fell due while it was paused are not created afterwards.
 */
export async function setPaused(tx: Tx, orgId: number, actor: Actor, id: number, paused: boolean, now: Date = new Date()) {
  const rows = await tx
    .update(pmPlans)
    .set(paused ? { paused } : { paused, activeFrom: dayInZone(now, await orgTimeZone(tx, orgId)) })
    .where(and(eq(pmPlans.orgId, orgId), eq(pmPlans.id, id), eq(pmPlans.paused, !paused)))
    .returning({ id: pmPlans.id });
  if (rows.length)
    await recordActivity(tx, orgId, {
      entityType: ENTITY,
      entityId: id,
      userId: actor.userId,
      action: 'status',
      changes: { paused: { from: !paused, to: paused } },
    });
  else await getPlan(tx, orgId, id, now);
  return { message: paused ? 'Plan paused' : 'Plan resumed', plan: await getPlan(tx, orgId, id, now) };
}

/**
 * POST skip-next/{id}: the next occurrence of each of the plan's assets (or of the one named) is recorded as
 * skipped with the reason; the generator then moves past it. 409 when there is no next occurrence.
 */
export async function skipNext(tx: Tx, orgId: number, actor: Actor, id: number, input: { reason: string; assetId?: number }, now: Date = new Date()) {
  const [plan] = await selectPlans(tx).where(and(eq(pmPlans.orgId, orgId), eq(pmPlans.id, id)));
  if (!plan) throw notFound('Plan');
  const targets = targetsOf(plan).filter((a) => !input.assetId || a === Number(input.assetId));
  if (!targets.length) throw new HttpError(400, 'Asset not found', [{ path: 'assetId', message: 'This asset is not in the plan' }]);
  const states = await readStates(tx, orgId, await orgTimeZone(tx, orgId), [id]);
  const rows = targets.flatMap((assetId) => {
    const [dueDate] = byCalendar(plan) ? projectDueDays(plan, states.get(stateKey(id, assetId)) ?? NO_STATE, '9999-12-31', 1, false) : [];
    return dueDate ? [{ orgId, planId: id, assetId, dueDate, status: 'skipped' as const, reason: String(input.reason), createdById: actor.userId }] : [];
  });
  if (!rows.length) throw new HttpError(409, 'This plan has no next occurrence to skip');
  const skipped = await tx.insert(pmOccurrences).values(rows).onConflictDoNothing().returning({ dueDate: pmOccurrences.dueDate });
  await recordActivity(tx, orgId, {
    entityType: ENTITY,
    entityId: id,
    userId: actor.userId,
    action: 'updated',
    changes: { skipped: { from: null, to: `${skipped.map((s) => s.dueDate).join(', ')}: ${input.reason}` } },
  });
  return { message: 'Occurrence skipped', plan: await getPlan(tx, orgId, id, now), occurrences: await listOccurrences(tx, orgId, id) };
}

/** GET get-occurrences/{id}: the plan's created and skipped occurrences, newest due first (the last 200). */
export async function listOccurrences(tx: ReadTx, orgId: number, planId: number): Promise<OccurrenceDto[]> {
  const [exists] = await tx
    .select({ id: pmPlans.id })
    .from(pmPlans)
    .where(and(eq(pmPlans.orgId, orgId), eq(pmPlans.id, planId)));
  if (!exists) throw notFound('Plan');
  const o = pmOccurrences;
  const rows = rowsOf<{
    id: number;
    plan_id: number;
    asset_id: number | null;
    asset_name: string | null;
    due_date: string;
    status: 'created' | 'skipped';
    reason: string | null;
    work_order_id: number | null;
    wo_status: string | null;
    completed_at: string | Date | null;
    created_at: string | Date;
  }>(
    await tx.execute(sql`select ${o.id} as id, ${o.planId} as plan_id, ${o.assetId} as asset_id, ${assets.name} as asset_name, ${o.dueDate}::text as due_date,
        ${o.status} as status, ${o.reason} as reason, ${o.workOrderId} as work_order_id, ${workOrders.status} as wo_status,
        ${completedAtOf(workOrders)} as completed_at, ${o.createdAt} as created_at
      from ${o}
      left join ${workOrders} on ${workOrders.orgId} = ${o.orgId} and ${workOrders.id} = ${o.workOrderId}
      left join ${assets} on ${assets.orgId} = ${o.orgId} and ${assets.id} = ${o.assetId}
      where ${o.orgId} = ${orgId} and ${o.planId} = ${planId}
      order by ${o.dueDate} desc, ${o.id} desc limit 200`),
  );
  return rows.map((r) => ({
    id: r.id,
    planId: r.plan_id,
    assetId: r.asset_id,
    assetName: r.asset_name,
    dueDate: r.due_date,
    status: r.status,
    reason: r.reason,
    workOrderId: r.work_order_id,
    workOrderStatus: r.wo_status,
    completedAt: r.completed_at ? new Date(r.completed_at).toISOString() : null,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}

/**
 * POST preview-plan: the next 12 due days of the plan as entered, and its meter values (every N units: the
 * next 12 totals from the meter's current total; a threshold: the threshold). Nothing is saved.
 */
export async function previewPlan(tx: ReadTx, orgId: number, preview: PlanPreviewValues) {
  const input = { ...preview, name: preview.name ?? '', title: preview.title ?? '' };
  const rule: CalendarRule = { ...writable(input), weekdays: writable(input).weekdays as Weekday[] };
  const dueDates = byCalendar(input) ? previewDueDays(rule, 12) : [];
  let meterValues: number[] = [];
  if (input.trigger !== 'calendar' && input.meterEvery) {
    const base = (await meterBaseOf(tx, orgId, input)) ?? 0;
    const first = nextMultiple(base, input.meterEvery);
    meterValues = Array.from({ length: 12 }, (_, i) => first + i * input.meterEvery!);
  } else if (input.trigger !== 'calendar' && input.meterThreshold !== undefined) meterValues = [input.meterThreshold];
  return { dueDates, meterValues, createDates: dueDates.map((d) => addDays(d, -input.leadDays)) };
}

/** The first multiple of `every` above `base`. */
const nextMultiple = (base: number, every: number) => (Math.floor(base / every + 1e-9) + 1) * every;

// ---------- settings ----------

export async function getPmSettings(tx: ReadTx, orgId: number): Promise<PmSettings> {
  return { graceDays: await graceDaysOf(tx, orgId) };
}

/** PUT settings (managers): the grace window of compliance. */
export async function updatePmSettings(tx: Tx, orgId: number, input: PmSettings) {
  await tx
    .insert(pmSettings)
    .values({ orgId, graceDays: input.graceDays })
    .onConflictDoUpdate({ target: pmSettings.orgId, set: { graceDays: input.graceDays } });
  return { message: 'Settings saved', settings: await getPmSettings(tx, orgId) };
}

// ---------- projection: calendar, dry run ----------

interface ProjectionFilter {
  assetId?: number;
  teamId?: number;
  assigneeId?: number;
}

/** Active (not paused) calendar plans with their targets and people. */
async function activePlans(tx: ReadTx, orgId: number, filter: ProjectionFilter = {}, withMeterPlans = false): Promise<PlanRow[]> {
  return selectPlans(tx).where(
    and(
      eq(pmPlans.orgId, orgId),
      eq(pmPlans.paused, false),
      withMeterPlans ? undefined : sql`${pmPlans.trigger} in ('calendar', 'both')`,
      filter.teamId ? eq(pmPlans.teamId, filter.teamId) : undefined,
      filter.assetId
        ? sql`exists (select 1 from ${pmPlanAssets} where ${pmPlanAssets.orgId} = ${pmPlans.orgId} and ${pmPlanAssets.planId} = ${pmPlans.id} and ${pmPlanAssets.assetId} = ${filter.assetId})`
        : undefined,
      filter.assigneeId
        ? sql`(exists (select 1 from ${pmPlanAssignees} where ${pmPlanAssignees.orgId} = ${pmPlans.orgId} and ${pmPlanAssignees.planId} = ${pmPlans.id} and ${pmPlanAssignees.userId} = ${filter.assigneeId})
            or exists (select 1 from ${teamMembers} where ${teamMembers.orgId} = ${pmPlans.orgId} and ${teamMembers.teamId} = ${pmPlans.teamId} and ${teamMembers.workerId} = ${filter.assigneeId}))`
        : undefined,
    ) as SQL,
  );
}

const assigneesFor = (p: PlanRow) => [...new Set([...p.assignees, ...p.teamMembers])].sort((a, b) => a - b);

function planned(p: PlanRow, assetId: number | null, dueDate: string): PlannedOccurrence {
  return {
    planId: p.id,
    planName: p.name,
    title: p.title,
    priority: p.priority,
    assetId,
    assetName: assetId ? (p.assets.find((a) => a.id === assetId)?.name ?? null) : null,
    workStationId: p.workStationId,
    teamId: p.teamId,
    assigneeIds: assigneesFor(p),
    dueDate,
    createOn: addDays(dueDate, -p.leadDays),
  };
}

/**
 * The projected occurrences (not created yet) due in [from, to], for the calendar: every active calendar
 * plan's due days after its latest occurrence; floating ones as if each were completed on its due day.
 * Filters: an asset of the plan, the plan's team, a person assigned (directly or through the team).
 */
export async function listPlannedOccurrences(tx: ReadTx, orgId: number, options: DateRange & ProjectionFilter): Promise<PlannedOccurrence[]> {
  const plans = await activePlans(tx, orgId, options);
  const states = await readStates(
    tx,
    orgId,
    await orgTimeZone(tx, orgId),
    plans.map((p) => p.id),
  );
  const out: PlannedOccurrence[] = [];
  for (const p of plans) {
    for (const assetId of targetsOf(p)) {
      if (options.assetId && assetId !== options.assetId) continue;
      for (const day of projectDueDays(p, states.get(stateKey(p.id, assetId)) ?? NO_STATE, options.to, PROJECTION_LIMIT, true)) {
        if (day >= options.from) out.push(planned(p, assetId, day));
      }
    }
  }
  return out.sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.planId - b.planId || (a.assetId ?? 0) - (b.assetId ?? 0));
}

/**
 * GET dry-run: the work orders the generator would create on the days [from, to] (by creation day: due day
 * minus lead time), nothing created. Occurrences already due and not created yet come on `from` when it is today.
 */
export async function dryRun(tx: ReadTx, orgId: number, range: DateRange, now: Date = new Date()) {
  const zone = await orgTimeZone(tx, orgId);
  const today = dayInZone(now, zone);
  const plans = await activePlans(tx, orgId);
  const states = await readStates(
    tx,
    orgId,
    zone,
    plans.map((p) => p.id),
  );
  const occurrences: PlannedOccurrence[] = [];
  for (const p of plans) {
    for (const assetId of targetsOf(p)) {
      const state = states.get(stateKey(p.id, assetId)) ?? NO_STATE;
      const untilDue = addDays(range.to, p.leadDays);
      // Like the generator: floating ones only after the latest is completed.
      for (const day of projectDueDays(p, state, untilDue, PROJECTION_LIMIT, false)) {
        const createOn = addDays(day, -p.leadDays);
        if (createOn >= range.from || (range.from <= today && createOn < today)) occurrences.push(planned(p, assetId, day));
      }
    }
  }
  occurrences.sort((a, b) => a.createOn.localeCompare(b.createOn) || a.planId - b.planId);
  return { occurrences, total: occurrences.length };
}

// ---------- the generator ----------

/**
 * Creates the work orders that are due (due day minus lead time on or before today) for one organisation, in
 * the caller's transaction. Each occurrence is inserted with ON CONFLICT DO NOTHING first: only the ones this
 * run inserted get a work order, so two runs at once (two instances, a retry) never create one twice; the
 * second waits on the first's uncommitted key and then skips it.
 */
export async function generateDueWork(tx: Tx, orgId: number, now: Date = new Date()): Promise<{ created: number }> {
  const plans = await activePlans(tx, orgId, {}, true);
  if (!plans.length) return { created: 0 };
  // The organisation's today: its due days are its own calendar's (decision 064).
  const zone = await orgTimeZone(tx, orgId);
  const today = dayInZone(now, zone);
  const states = await readStates(tx, orgId, zone);
  const due: Due[] = [];
  for (const p of plans.filter(byCalendar)) {
    for (const assetId of targetsOf(p)) {
      for (const dueDate of projectDueDays(p, states.get(stateKey(p.id, assetId)) ?? NO_STATE, addDays(today, p.leadDays), BACKLOG_LIMIT, false))
        due.push({ plan: p, assetId, dueDate, kind: 'calendar', ordinal: 0 });
    }
  }
  due.push(...(await meterDue(tx, orgId, plans.filter(byMeter), today)));
  return createOccurrences(tx, orgId, due, zone);
}

type Due = { plan: PlanRow; assetId: number | null; dueDate: string; kind: 'calendar' | 'meter'; meterValue?: number; ordinal: number };
const byMeter = (p: Pick<PlanRow, 'trigger' | 'meterId'>) => (p.trigger === 'meter' || p.trigger === 'both') && p.meterId !== null;
const dueKey = (d: { planId: number; assetId: number | null; dueDate: string; ordinal: number }) =>
  `${stateKey(d.planId, d.assetId)}:${d.dueDate}:${d.ordinal}`;
const OPEN_ORDER = new Set(['assigned', 'in-progress']);

/** Where a meter plan stands (one statement for all of them): see meterDue. */
interface MeterState {
  id: number;
  /** The latest occurrence that a meter asked for (or that counted for the meter): its value, when, its order's status. */
  last_value: number | null;
  last_meter_at: string | Date | null;
  last_status: string | null;
  /** The latest completion of any of the plan's orders (calendar or meter), and the meter's total then. */
  done_at: string | Date | null;
  done_total: number | null;
  /** The latest reading below the threshold. */
  below_at: string | Date | null;
  /** Today's occurrences: the highest ordinal, and whether one is an open order the meter has not counted yet. */
  today_max: number | null;
  today_open_free: boolean | null;
}

/**
 * The meter plans whose meter asks for work now, due today (decision 064).
 * Every N units: counts from the last service, whichever trigger made it: the meter's total when the plan's
 * latest order was completed, or the value of its latest meter occurrence when that one is newer (still open),
 * or else the first multiple of N above the base. Once the total is within the lead units of the next point,
 * ONE occurrence, at the last point the total has reached (a jump from 100 to 2,600 every 500 is one order at
 * 2,500; the next at 3,000).
 * A threshold: when a reading reaches it, again after a reading has gone back below it, but not while the order
 * of the previous crossing is still open: that order covers the crossings until it is completed.
 * A second one on the same day takes the next ordinal (unless an open order of today has not counted for the
 * meter yet: that one does, "whichever comes first").
 */
async function meterDue(tx: ReadTx, orgId: number, plans: PlanRow[], today: string): Promise<Due[]> {
  if (!plans.length) return [];
  const latest = await latestReadings(
    tx,
    orgId,
    plans.map((p) => p.meterId!),
  );
  const o = pmOccurrences;
  const r = meterReadings;
  const rows = rowsOf<MeterState>(
    await tx.execute(sql`select p.id, lm.meter_value as last_value, lm.created_at as last_meter_at, lm.wo_status as last_status, lc.done_at,
        (select ${r.total} from ${r} where ${r.orgId} = p.org_id and ${r.meterId} = p.meter_id and ${r.readAt} <= lc.done_at
          order by ${r.readAt} desc, ${r.id} desc limit 1) as done_total,
        (select max(${r.readAt}) from ${r} where ${r.orgId} = p.org_id and ${r.meterId} = p.meter_id and ${r.value} < p.meter_threshold) as below_at,
        (select max(${o.ordinal}) from ${o} where ${o.orgId} = p.org_id and ${o.planId} = p.id and ${o.dueDate} = ${today}::date) as today_max,
        exists (select 1 from ${o} join ${workOrders} on ${workOrders.orgId} = ${o.orgId} and ${workOrders.id} = ${o.workOrderId}
          where ${o.orgId} = p.org_id and ${o.planId} = p.id and ${o.dueDate} = ${today}::date and ${o.ordinal} = 0 and ${o.meterValue} is null
            and ${workOrders.status} in ('assigned', 'in-progress')) as today_open_free
      from ${pmPlans} p
      left join lateral (select ${o.meterValue} as meter_value, ${o.createdAt} as created_at, ${workOrders.status} as wo_status
        from ${o} left join ${workOrders} on ${workOrders.orgId} = ${o.orgId} and ${workOrders.id} = ${o.workOrderId}
        where ${o.orgId} = p.org_id and ${o.planId} = p.id and ${o.meterValue} is not null
        order by ${o.dueDate} desc, ${o.ordinal} desc, ${o.id} desc limit 1) lm on true
      left join lateral (select max(${completedAtOf(workOrders)}) as done_at
        from ${o} join ${workOrders} on ${workOrders.orgId} = ${o.orgId} and ${workOrders.id} = ${o.workOrderId}
        where ${o.orgId} = p.org_id and ${o.planId} = p.id and ${o.status} = 'created') lc on true
      where p.org_id = ${orgId} and p.id = any(${sql.param(plans.map((p) => p.id))}::int[])`),
  );
  const state = new Map(rows.map((row) => [row.id, row]));
  const due: Due[] = [];
  const time = (v: string | Date | null) => (v === null ? null : new Date(v).getTime());
  for (const p of plans) {
    const reading = latest.get(p.meterId!);
    const s = state.get(p.id);
    if (!reading || !s) continue;
    const assetId = p.assets[0]?.id ?? null;
    const ordinal = s.today_max === null ? 0 : s.today_open_free ? 0 : Number(s.today_max) + 1;
    const doneAt = time(s.done_at);
    const lastMeterAt = time(s.last_meter_at);
    if (p.meterEvery) {
      if (reading.total === null) continue;
      const every = p.meterEvery;
      let next: number;
      if (doneAt !== null && s.done_total !== null && (lastMeterAt === null || doneAt > lastMeterAt)) next = Number(s.done_total) + every;
      else if (s.last_value !== null) next = Number(s.last_value) + every;
      else next = nextMultiple(p.meterBase ?? 0, every);
      const reached = reading.total + p.meterLeadUnits;
      if (reached < next) continue;
      // Past several points at once (a jump, readings missed): one order, at the last point reached.
      const point = next + Math.floor((reached - next) / every + 1e-9) * every;
      due.push({ plan: p, assetId, dueDate: today, kind: 'meter', meterValue: point, ordinal });
    } else if (p.meterThreshold !== null && reading.value >= p.meterThreshold) {
      // Back below after the last crossing's order and after the last service (which covered what came before).
      const crossedAgain = lastMeterAt === null || (s.below_at !== null && time(s.below_at)! > Math.max(lastMeterAt, doneAt ?? 0));
      // The previous crossing's order is still open: the technician is on it, no second order.
      const previousOpen = s.last_status !== null && OPEN_ORDER.has(s.last_status);
      if (crossedAgain && !previousOpen) due.push({ plan: p, assetId, dueDate: today, kind: 'meter', meterValue: reading.value, ordinal });
    }
  }
  return due;
}

/** Inserts the occurrences (skipping any that exist) and creates a work order for each one inserted, due in `zone`. */
async function createOccurrences(tx: Tx, orgId: number, all: Due[], zone: string): Promise<{ created: number }> {
  let created = 0;
  // A calendar and a meter occurrence of the same plan, asset and day are one ("whichever comes first").
  const seen = new Map<string, Due>();
  for (const d of all) {
    const key = dueKey({ planId: d.plan.id, ...d });
    const first = seen.get(key);
    if (!first) seen.set(key, d);
    else if (d.meterValue !== undefined) first.meterValue = d.meterValue;
  }
  const due = [...seen.values()];
  for (let i = 0; i < due.length; i += 500) {
    const chunk = due.slice(i, i + 500);
    const inserted = await tx
      .insert(pmOccurrences)
      .values(
        chunk.map((d) => ({
          orgId,
          planId: d.plan.id,
          assetId: d.assetId,
          dueDate: d.dueDate,
          ordinal: d.ordinal,
          status: 'created' as const,
          kind: d.kind,
          meterValue: d.meterValue ?? null,
        })),
      )
      .onConflictDoNothing()
      .returning({
        id: pmOccurrences.id,
        planId: pmOccurrences.planId,
        assetId: pmOccurrences.assetId,
        dueDate: pmOccurrences.dueDate,
        ordinal: pmOccurrences.ordinal,
      });
    // The meter asked for work on a day that already has its occurrence: that one counts for the meter too.
    const taken = new Set(inserted.map(dueKey));
    for (const d of chunk) {
      if (d.meterValue === undefined || taken.has(dueKey({ planId: d.plan.id, ...d }))) continue;
      await tx
        .update(pmOccurrences)
        .set({ meterValue: d.meterValue })
        .where(
          and(
            eq(pmOccurrences.orgId, orgId),
            eq(pmOccurrences.planId, d.plan.id),
            d.assetId === null ? sql`${pmOccurrences.assetId} is null` : eq(pmOccurrences.assetId, d.assetId),
            eq(pmOccurrences.dueDate, d.dueDate),
            eq(pmOccurrences.ordinal, d.ordinal),
            sql`${pmOccurrences.meterValue} is null`,
          ),
        );
    }
    if (!inserted.length) continue;
    const byKey = new Map(chunk.map((d) => [dueKey({ planId: d.plan.id, ...d }), d]));
    const items: NewWorkOrder[] = inserted.map((o) => {
      const { plan, kind } = byKey.get(dueKey(o))!;
      return {
        title: plan.title,
        instructions: plan.instructions,
        priority: plan.priority,
        duration: plan.duration,
        dueDate: dueInstant(o.dueDate, zone),
        assetId: o.assetId,
        assignees: assigneesFor(plan),
        parts: plan.parts.map((p) => ({ partId: p.partId, quantity: p.quantity })),
        source: `PM plan "${plan.name}" (${planDisplayId(plan.id)}), due ${o.dueDate}${kind === 'meter' ? ' (meter)' : ''}`,
      };
    });
    const ids = await createWorkOrders(tx, orgId, items);
    await tx.execute(sql`update ${pmOccurrences} set work_order_id = v.work_order_id
      from (values ${sql.join(
        inserted.map((o, j) => sql`(${o.id}::int, ${ids[j]}::int)`),
        sql`, `,
      )}) as v(id, work_order_id)
      where ${pmOccurrences.orgId} = ${orgId} and ${pmOccurrences.id} = v.id`);
    await afterWorkOrdersCreated(
      tx,
      orgId,
      inserted.map((o, j) => ({ workOrderId: ids[j], plan: byKey.get(dueKey(o))!.plan })),
    );
    created += inserted.length;
  }
  return { created };
}

/** The plan's procedure, copied into each work order it created (the procedures feature's service). */
async function afterWorkOrdersCreated(tx: Tx, orgId: number, orders: { workOrderId: number; plan: PlanRow }[]) {
  for (const { workOrderId, plan } of orders) if (plan.procedureId) await attachProcedure(tx, orgId, workOrderId, plan.procedureId, null);
  // Their assignees hear of them, the plan's team by name (decision 082).
  await notifyGeneratedWork(
    tx,
    orgId,
    orders.map(({ workOrderId, plan }) => ({
      id: workOrderId,
      title: plan.title,
      assignees: plan.assignees,
      team: plan.teamId ? { name: plan.teamName ?? '', members: plan.teamMembers } : null,
    })),
  );
}

/** Which work orders came from plans (analytics): occurrence, plan and due day of each given work order. */
export async function planOfWorkOrders(tx: ReadTx, orgId: number, workOrderIds: number[]) {
  if (!workOrderIds.length) return [];
  return tx
    .select({ workOrderId: pmOccurrences.workOrderId, planId: pmOccurrences.planId, occurrenceId: pmOccurrences.id, dueDate: pmOccurrences.dueDate })
    .from(pmOccurrences)
    .where(and(eq(pmOccurrences.orgId, orgId), inArray(pmOccurrences.workOrderId, workOrderIds)));
}

/** The records a plan names, as an export writes them (decision 059): what another organisation can look up. */
export interface PlanExportNames {
  assets: string[];
  workStation: string | null;
  procedure: string | null;
  assignees: string[];
  parts: { part: string; quantity: number }[];
  meter: string | null;
}

/**
 * A page of plans for the export with the names of what they refer to: assets by code (else name), the station by
 * code, the procedure and meter by name, people by e-mail, parts by SKU (else name).
 */
export async function exportPlansPage(tx: ReadTx, orgId: number, page: number, limit: number, now: Date = new Date()) {
  const { plans } = await listPlans(tx, orgId, { page, pageSize: limit } as PlanListQuery, now);
  return namePlans(tx, orgId, plans);
}

/** The plans with the names of the records they refer to (`PlanExportNames`). */
export async function namePlans(tx: ReadTx, orgId: number, plans: PlanDto[]) {
  const ids = <T extends number | null>(f: (p: PlanDto) => T | T[]) => [...new Set(plans.flatMap((p) => f(p)).filter((v): v is NonNullable<T> => v !== null))];
  const byId = async <R extends { id: number }>(wanted: number[], read: (slice: number[]) => Promise<R[]>) =>
    new Map((wanted.length ? await read(wanted) : []).map((r) => [r.id, r]));
  const assetRows = await byId(
    ids((p) => p.assetIds),
    (w) =>
      tx
        .select({ id: assets.id, name: assets.name, code: assets.assetCode })
        .from(assets)
        .where(and(eq(assets.orgId, orgId), inArray(assets.id, w))),
  );
  const stationRows = await byId(
    ids((p) => p.workStationId),
    (w) =>
      tx
        .select({ id: workStations.id, code: workStations.code })
        .from(workStations)
        .where(and(eq(workStations.orgId, orgId), inArray(workStations.id, w))),
  );
  const procedureRows = await byId(
    ids((p) => p.procedureId),
    (w) =>
      tx
        .select({ id: procedures.id, name: procedures.name })
        .from(procedures)
        .where(and(eq(procedures.orgId, orgId), inArray(procedures.id, w))),
  );
  const userRows = await byId(
    ids((p) => p.assignees),
    (w) =>
      tx
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(and(eq(users.orgId, orgId), inArray(users.id, w))),
  );
  const partRows = await byId(
    ids((p) => p.parts.map((l) => l.partId)),
    (w) =>
      tx
        .select({ id: parts.id, name: parts.name, sku: parts.skuCode })
        .from(parts)
        .where(and(eq(parts.orgId, orgId), inArray(parts.id, w))),
  );
  const meterRows = await byId(
    ids((p) => p.meterId),
    (w) =>
      tx
        .select({ id: meters.id, name: meters.name })
        .from(meters)
        .where(and(eq(meters.orgId, orgId), inArray(meters.id, w))),
  );
  return plans.map((p) => ({
    ...p,
    names: {
      assets: p.assetIds.map((id) => assetRows.get(id)?.code || assetRows.get(id)?.name || ''),
      workStation: p.workStationId ? (stationRows.get(p.workStationId)?.code ?? null) : null,
      procedure: p.procedureId ? (procedureRows.get(p.procedureId)?.name ?? null) : null,
      assignees: p.assignees.map((id) => userRows.get(id)?.email ?? ''),
      parts: p.parts.map((l) => ({ part: partRows.get(l.partId)?.sku || l.name, quantity: l.quantity })),
      meter: p.meterId ? (meterRows.get(p.meterId)?.name ?? null) : null,
    } satisfies PlanExportNames,
  }));
}
