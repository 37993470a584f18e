import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { notFound } from '../../server/http-error';
import { assets, pmOccurrences, pmPlanAssets, pmPlanAssignees, pmPlans, pmSettings, teamMembers, workOrders } from '../../server/db/schema';
import { type DateRange, type OccurrenceDto, type PlannedOccurrence, type PlanPreviewValues, type PmSettings, type Weekday } from './pm-plans.schema';
import { orgTimeZone } from '../organization/organization.service';
import { addDays, previewDueDays, type CalendarRule } from './recurrence';
import { rowsOf } from '../../server/db/rows';
import { PROJECTION_LIMIT, selectPlans, PlanRow, meterBaseOf, writable } from './pm-plan-read.service';
import { targetsOf, NO_STATE, stateKey, completedAtOf, readStates, projectDueDays, byCalendar, graceDaysOf } from './pm-plan-compliance.service';
import { readOrgRow, saveOrgSettings } from '../../server/db/org-rows';

/** GET get-occurrences/{id}: the plan's created and skipped occurrences, newest due first (the last 200). */
export async function listOccurrences(tx: ReadTx, orgId: number, planId: number): Promise<OccurrenceDto[]> {
  const exists = await readOrgRow(tx, pmPlans, { id: pmPlans.id }, orgId, planId);
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
export const nextMultiple = (base: number, every: number) => (Math.floor(base / every + 1e-9) + 1) * every;

// ---------- settings ----------

export async function getPmSettings(tx: ReadTx, orgId: number): Promise<PmSettings> {
  return { graceDays: await graceDaysOf(tx, orgId) };
}

/** PUT settings (managers): the grace window of compliance. */
export async function updatePmSettings(tx: Tx, orgId: number, input: PmSettings) {
  await saveOrgSettings(tx, pmSettings, orgId, { graceDays: input.graceDays });
  return { message: 'Settings saved', settings: await getPmSettings(tx, orgId) };
}

// ---------- projection: calendar, dry run ----------

interface ProjectionFilter {
  assetId?: number;
  teamId?: number;
  assigneeId?: number;
}

/** Active (not paused) calendar plans with their targets and people. */
export async function activePlans(tx: ReadTx, orgId: number, filter: ProjectionFilter = {}, withMeterPlans = false): Promise<PlanRow[]> {
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

export const assigneesFor = (p: PlanRow) => [...new Set([...p.assignees, ...p.teamMembers])].sort((a, b) => a - b);

export function planned(p: PlanRow, assetId: number | null, dueDate: string): PlannedOccurrence {
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
