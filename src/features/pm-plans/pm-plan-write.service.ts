import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../server/db/client';
import { sameUpdatedAt, StaleEdit } from '../../server/stale-edit';
import { HttpError, notFound } from '../../server/http-error';
import { assets, meters, parts, pmOccurrences, pmPlanAssets, pmPlanAssignees, pmPlanParts, pmPlans, teams, users, workStations } from '../../server/db/schema';
import { diffChanges, historyOf } from '../activity/activity.service';
import { procedures } from '../procedures/procedures.table';
import { PLAN_MESSAGES, type PlanDto, type PlanListQuery, type PlanValues } from './pm-plans.schema';
import { dayInZone } from '../../shared/dates';
import { orgTimeZone } from '../organization/organization.service';
import { ENTITY, Actor, selectPlans, meterBaseOf, writable } from './pm-plan-read.service';
import { targetsOf, NO_STATE, stateKey, readStates, projectDueDays, byCalendar } from './pm-plan-compliance.service';
import { getPlan, listPlans } from './pm-plan-list.service';
import { listOccurrences } from './pm-plan-occurrences.service';
import { readOrgRow, readOrgRows } from '../../server/db/org-rows';

const history = historyOf(ENTITY);

// ---------- writing plans ----------

/** Every id in the body must be a record of this organisation: a field message for each one that is not. */
async function checkReferences(tx: Tx, orgId: number, input: PlanValues) {
  const issues: { path: string; message: string }[] = [];
  const missing = async (ids: number[], table: { orgId: never; id: never } & object, path: (i: number) => string, message: string) => {
    if (!ids.length) return;
    const t = table as unknown as typeof assets;
    const found = new Set((await readOrgRows(tx, t, { id: t.id }, orgId, ids)).map((r) => r.id));
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
  const meter = await readOrgRow(tx, meters, { assetId: meters.assetId, kind: meters.kind }, orgId, input.meterId);
  if (!meter) issues.push({ path: 'meterId', message: PLAN_MESSAGES.meterNotFound });
  else if (input.assetIds.length !== 1 || input.assetIds[0] !== meter.assetId) issues.push({ path: 'meterId', message: PLAN_MESSAGES.meterAsset });
  else if (input.meterEvery !== undefined && meter.kind !== 'counter') issues.push({ path: 'meterEvery', message: PLAN_MESSAGES.meterCounter });
}

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
  await history(tx, orgId, row.id, actor.userId, 'created');
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
  if (Object.keys(changes).length) await history(tx, orgId, id, actor.userId, 'updated', changes);
  return { message: 'Plan updated successfully', plan };
}

/** DELETE delete-plan/{id} (managers): its occurrences go with it; the work orders it created stay. */
export async function deletePlan(tx: Tx, orgId: number, actor: Actor, id: number, query: PlanListQuery, now: Date = new Date()) {
  const rows = await tx
    .delete(pmPlans)
    .where(and(eq(pmPlans.orgId, orgId), eq(pmPlans.id, id)))
    .returning({ id: pmPlans.id });
  if (!rows.length) throw notFound('Plan');
  await history(tx, orgId, id, actor.userId, 'deleted');
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
  if (rows.length) await history(tx, orgId, id, actor.userId, 'status', { paused: { from: !paused, to: paused } });
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
  await history(tx, orgId, id, actor.userId, 'updated', { skipped: { from: null, to: `${skipped.map((s) => s.dueDate).join(', ')}: ${input.reason}` } });
  return { message: 'Occurrence skipped', plan: await getPlan(tx, orgId, id, now), occurrences: await listOccurrences(tx, orgId, id) };
}
