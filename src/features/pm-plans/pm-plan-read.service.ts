import { and, eq, sql } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { assets, parts, pmPlanAssets, pmPlanAssignees, pmPlanParts, pmPlans, teamMembers, teams, workStations } from '../../server/db/schema';
import { sanitizeHtml } from '../../server/sanitize-html';
import { latestReadings } from '../meters/meters.service';
import { type PlanValues, type Weekday } from './pm-plans.schema';
import { zonedInstant } from '../../shared/dates';

export const ENTITY = 'pm-plan';
/** A generator run creates at most this many overdue occurrences per plan and asset (a long outage does not flood). */
export const BACKLOG_LIMIT = 31;
/** The projection of one plan and asset stops after this many occurrences (a daily plan over five years). */
export const PROJECTION_LIMIT = 2000;
/** The time of day a plan's work order is due on its due day, on the organisation's clock (decision 064). */
export const PM_DUE_TIME = '09:00';
/** A plan's work order is due at PM_DUE_TIME of its due day in the organisation's time zone. */
export const dueInstant = (day: string, zone = 'UTC') => zonedInstant(day, zone, PM_DUE_TIME);

export type Actor = { userId: number };

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

export const planFields = {
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

export function selectPlans(tx: ReadTx) {
  return tx
    .select(planFields)
    .from(pmPlans)
    .leftJoin(workStations, and(eq(workStations.orgId, pmPlans.orgId), eq(workStations.id, pmPlans.workStationId)))
    .leftJoin(teams, and(eq(teams.orgId, pmPlans.orgId), eq(teams.id, pmPlans.teamId)));
}
export type PlanRow = Awaited<ReturnType<typeof selectPlans>>[number];

/** Every N units counts from the meter's total when the rule is saved (0 before its first reading). */
export async function meterBaseOf(tx: ReadTx, orgId: number, input: PlanValues): Promise<number | null> {
  if (input.trigger === 'calendar' || !input.meterId || input.meterEvery === undefined) return null;
  return (await latestReadings(tx, orgId, [input.meterId])).get(input.meterId)?.total ?? 0;
}

export const writable = (input: PlanValues) => ({
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
