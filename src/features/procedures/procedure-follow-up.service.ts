import { and, asc, eq } from 'drizzle-orm';
import { escapeHtml } from '../../server/mailer';
import type { ReadTx, Tx } from '../../server/db/client';
import { procedures, procedureSteps } from '../../server/db/schema';
import { badRequest, conflict } from '../../server/http-error';
import type { AccessClaims } from '../auth/tokens';
import { historyOf } from '../activity/activity.service';
import { createWorkOrder, getWorkOrder } from '../work-orders/work-orders.service';
import { workOrderDisplayId } from '../work-orders/work-orders.schema';
import { PROCEDURE_MESSAGES as M } from './procedures.schema';
import { WORK_ORDER, stepFields } from './procedure-catalog.service';
import { s, readWorkOrderProcedure } from './procedure-issued.service';
import { lockStep, issuedStep } from './procedure-answers.service';

const history = historyOf(WORK_ORDER);

const answerText = (step: { kind: string; unit: string | null }, value: unknown) =>
  step.kind === 'number' && step.unit ? `${String(value)} ${step.unit}` : String(value);

/**
 * POST create-follow-up/{id}: from a flagged step whose procedure asks for it, a reactive work order on the
 * same asset, assigned as the original; the link is kept on the step. One follow-up per step.
 */
export async function createFollowUp(tx: Tx, orgId: number, actor: AccessClaims, workOrderId: number, stepId: number) {
  const order = await getWorkOrder(tx, orgId, actor, workOrderId);
  const step = await lockStep(tx, orgId, workOrderId, stepId);
  if (!step.followUpOnFailure) throw badRequest(M.followUpNotAllowed, 'stepId');
  if (!step.flagged) throw badRequest(M.followUpNotFlagged, 'stepId');
  if (step.followUpWorkOrderId) throw conflict(`${M.followUpExists} (${workOrderDisplayId(step.followUpWorkOrderId)})`, 'stepId');
  const title = `Follow-up: ${step.label}`.slice(0, 200);
  const range = step.kind === 'number' ? ` (allowed ${step.min ?? '…'} to ${step.max ?? '…'}${step.unit ? ` ${step.unit}` : ''})` : '';
  const followUpId = await createWorkOrder(tx, orgId, actor, {
    title,
    priority: 'high',
    assetId: order.assetId ?? undefined,
    assignees: order.assignees.map((a) => a.id),
    instructions: `<p>${escapeHtml(`${order.workOrderId}, step ${step.position} "${step.label}": ${answerText(step, step.value)}${range}`)}</p>`,
  });
  await tx
    .update(s)
    .set({ followUpWorkOrderId: followUpId })
    .where(and(eq(s.orgId, orgId), eq(s.id, step.id)));
  await history(tx, orgId, workOrderId, actor.userId, 'updated', { followUp: { from: null, to: workOrderDisplayId(followUpId) } });
  await history(tx, orgId, followUpId, actor.userId, 'updated', { followUpOf: { from: null, to: order.workOrderId } });
  return {
    message: 'Follow-up work order created',
    followUp: await getWorkOrder(tx, orgId, actor, followUpId),
    ...(await issuedStep(tx, orgId, workOrderId, step.id)),
  };
}

/** What the printed work order shows (the route renders it to PDF outside the transaction). */
export async function printWorkOrder(tx: ReadTx, orgId: number, actor: AccessClaims, workOrderId: number) {
  const workOrder = await getWorkOrder(tx, orgId, actor, workOrderId);
  return { workOrder, procedure: await readWorkOrderProcedure(tx, orgId, workOrderId) };
}

/**
 * The organisation's library steps for an export (decision 059), one row per step with its procedure's name and
 * description, procedure by procedure and in step order (the import groups rows by procedure in file order).
 */
export function exportProcedureStepsPage(tx: ReadTx, orgId: number, page: number, limit: number) {
  const s = procedureSteps;
  return tx
    .select({ id: s.id, procedure: procedures.name, description: procedures.description, ...stepFields })
    .from(s)
    .innerJoin(procedures, and(eq(procedures.orgId, s.orgId), eq(procedures.id, s.procedureId)))
    .where(eq(s.orgId, orgId))
    .orderBy(asc(procedures.name), asc(procedures.id), asc(s.position))
    .limit(limit)
    .offset((page - 1) * limit);
}
