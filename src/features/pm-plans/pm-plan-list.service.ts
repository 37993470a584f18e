import { and, asc, eq, ilike, sql } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { param, preparedRead } from '../../server/db/prepared';
import { totalOver, pageAndTotal } from '../../server/db/paging';
import { escapeLike } from '../../server/db/like';
import { notFound } from '../../server/http-error';
import { pmPlanAssets, pmPlans, teams, workStations } from '../../server/db/schema';
import { pagination } from '../../shared/pagination';
import { planDisplayId, type DateRange, type PlanDto, type PlanListQuery } from './pm-plans.schema';
import { dayInZone } from '../../shared/dates';
import { orgTimeZone } from '../organization/organization.service';
import { addDays } from './recurrence';
import { planFields, selectPlans, PlanRow } from './pm-plan-read.service';
import {
  targetsOf,
  NO_STATE,
  stateKey,
  readStates,
  projectDueDays,
  byCalendar,
  EMPTY_COMPLIANCE,
  graceDaysOf,
  ruleOf,
  complianceByPlan,
  pmCompliance,
  readProgress,
} from './pm-plan-compliance.service';

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
      ...ruleOf(p),
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
