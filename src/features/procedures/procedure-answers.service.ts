import { and, eq, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { meters } from '../../server/db/schema';
import { badRequest, notFound } from '../../server/http-error';
import { StaleEdit } from '../../server/stale-edit';
import { discardFiles } from '../../server/uploads/storage';
import type { AccessClaims } from '../auth/tokens';
import { recordActivity } from '../activity/activity.service';
import { nameAudit } from '../audit/audit-context';
import { getWorkOrder } from '../work-orders/work-orders.service';
import { recordReading } from '../meters/meters.service';
import {
  stepImageFieldsSchema,
  IMAGE_KINDS,
  PROCEDURE_MESSAGES as M,
  answerSchemaFor,
  isFlagged,
  isSignOffValue,
  type AnswerStepInput,
  type SignOffValue,
  type SignStepInput,
} from './procedures.schema';
import { WORK_ORDER } from './procedure-catalog.service';
import { s, readWorkOrderProcedure } from './procedure-issued.service';

/** One step of the work order's procedure, locked until the answer commits; 404 when there is none. */
export async function lockStep(tx: Tx, orgId: number, workOrderId: number, stepId: number) {
  const [step] = await tx
    .select()
    .from(s)
    .where(and(eq(s.orgId, orgId), eq(s.workOrderId, workOrderId), eq(s.id, stepId)))
    .for('update');
  if (!step) throw notFound('Step');
  return step;
}

/** A locked step row of a work order's procedure. */
export type IssuedStepRow = typeof s.$inferSelect;

/**
 * Whether the (locked) step is still as the client saw it: the same `answeredAt` to the millisecond, null for
 * "unanswered" (decision 025's rule, with answeredAt as the step's version). No version sent: yes.
 */
function unchangedSince(step: IssuedStepRow, seen: string | null | undefined) {
  if (seen === undefined) return true;
  return (step.answeredAt?.getTime() ?? null) === (seen === null ? null : Date.parse(seen));
}

/** How an answer reads in the history: images as a word, not their URL. */
const historyValue = (kind: string, value: unknown) =>
  value === null || value === undefined
    ? null
    : IMAGE_KINDS.includes(kind as never)
      ? `${kind} added`
      : isSignOffValue(value)
        ? `${value.meaning} by ${value.name} at ${value.signedAt}`
        : value;

/** Stores an answer (or clears it) with who and when, and its history line in the same transaction. */
async function storeAnswer(tx: Tx, orgId: number, by: number | { contractor: string }, workOrderId: number, step: typeof s.$inferSelect, value: unknown) {
  // A contractor answers through a shared work order (decision 040): no user, their name in the history.
  const userId = typeof by === 'number' ? by : null;
  const actorName = typeof by === 'number' ? undefined : by.contractor;
  const stored = value === false ? null : value;
  const flagged = isFlagged(step, stored);
  await tx
    .update(s)
    // Strictly later than the answer it replaces: answeredAt is the step's version, two answers never share one.
    .set({ value: stored, flagged, answeredById: userId, answeredAt: new Date(Math.max(Date.now(), (step.answeredAt?.getTime() ?? 0) + 1)) })
    .where(and(eq(s.orgId, orgId), eq(s.id, step.id)));
  if (IMAGE_KINDS.includes(step.kind) && typeof step.value === 'string' && step.value !== stored) discardFiles(tx, [step.value]);
  await recordActivity(tx, orgId, {
    entityType: WORK_ORDER,
    entityId: workOrderId,
    userId,
    actorName,
    action: 'updated',
    changes: { [`Step ${step.position}: ${step.label}`]: { from: historyValue(step.kind, step.value), to: historyValue(step.kind, stored) } },
  });
}

/** The step as the API returns it, after a change. */
export async function issuedStep(tx: ReadTx, orgId: number, workOrderId: number, stepId: number) {
  const procedure = await readWorkOrderProcedure(tx, orgId, workOrderId);
  return { step: procedure!.steps.find((x) => x.id === stepId)!, procedure };
}

/**
 * PUT answer-procedure-step/{id}: a worker on a work order they see, a manager on any. The value is checked
 * against the step's kind (a text for a number step is a 400 on `value`); null clears the answer.
 */
export async function answerProcedureStep(tx: Tx, orgId: number, actor: AccessClaims, workOrderId: number, input: AnswerStepInput) {
  const order = await getWorkOrder(tx, orgId, actor, workOrderId);
  const step = await lockStep(tx, orgId, workOrderId, Number(input.stepId));
  if (!unchangedSince(step, input.answeredAt)) throw new StaleEdit((await issuedStep(tx, orgId, workOrderId, step.id)).step);
  if (step.kind === 'heading') throw badRequest(M.heading, 'value');
  const parsed = answerSchemaFor({ kind: step.kind, options: step.options ?? [] }).safeParse(input.value === undefined ? null : input.value);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid answer', 'value');
  const value = typeof parsed.data === 'string' && parsed.data === '' ? null : parsed.data;
  await storeAnswer(tx, orgId, actor.userId, workOrderId, step, value);
  const reading = typeof value === 'number' ? await feedMeter(tx, orgId, actor.userId, order, step.meterName, value) : null;
  return { message: 'Answer saved', ...(await issuedStep(tx, orgId, workOrderId, step.id)), reading };
}

/**
 * POST sign-procedure-step/{id} (decision 078): a sign-off step signed by the caller, whose password the route
 * checked again just before (`reauthenticateSigner`); the answer keeps the signer's name, the time and the meaning,
 * the history line says them, and the request's audit row is named 'sign-off'. A worker signs on a work order they
 * see, a manager on any; another kind of step is a 400.
 */
export async function signProcedureStep(
  tx: Tx,
  orgId: number,
  actor: AccessClaims,
  workOrderId: number,
  input: Omit<SignStepInput, 'password' | 'reauthProof'>,
  signer: string | (() => Promise<string>),
) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  // A proof of a fresh sign-in is spent only for an order the signer may see (another organisation's: 404 first).
  const name = typeof signer === 'string' ? signer : await signer();
  const step = await lockStep(tx, orgId, workOrderId, Number(input.stepId));
  if (!unchangedSince(step, input.answeredAt)) throw new StaleEdit((await issuedStep(tx, orgId, workOrderId, step.id)).step);
  if (step.kind !== 'sign-off') throw badRequest(M.notSignOffStep, 'stepId');
  const value: SignOffValue = { meaning: input.meaning, name, signedAt: new Date().toISOString() };
  nameAudit(tx, 'sign-off');
  await storeAnswer(tx, orgId, actor.userId, workOrderId, step, value);
  return { message: M.signed, ...(await issuedStep(tx, orgId, workOrderId, step.id)) };
}

/**
 * A contractor's answer through a shared work order (decision 040; the share and its rights were checked by
 * the caller): checked against the step's kind as a worker's is (a photo or signature is set through its upload,
 * `setStepImageAsContractor`, and here only cleared). A contractor's number does not feed a meter. A step
 * answered since the contractor saw it is a 409 with the step as `currentOf` shows it to them.
 */
export async function answerStepAsContractor(
  tx: Tx,
  orgId: number,
  workOrderId: number,
  contractor: string,
  input: { stepId: number; value: unknown; answeredAt?: string | null },
  currentOf: (step: IssuedStepRow) => unknown,
) {
  const step = await lockStep(tx, orgId, workOrderId, input.stepId);
  if (!unchangedSince(step, input.answeredAt)) throw new StaleEdit(currentOf(step));
  if (step.kind === 'heading') throw badRequest(M.heading, 'value');
  const parsed = answerSchemaFor({ kind: step.kind, options: step.options ?? [] }).safeParse(input.value === undefined ? null : input.value);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid answer', 'value');
  const value = typeof parsed.data === 'string' && parsed.data === '' ? null : parsed.data;
  await storeAnswer(tx, orgId, { contractor }, workOrderId, step, value);
}

/**
 * A number step that names a meter records its answer as a reading of the work order's asset's meter of that
 * name, in the same transaction (a refused reading, e.g. a counter going back, refuses the answer). No asset,
 * or no meter of that name on it: the answer is kept and no reading is made (`reading: null`).
 */
async function feedMeter(tx: Tx, orgId: number, userId: number, order: { id: number; assetId: number | null }, meterName: string | null, value: number) {
  if (!meterName || !order.assetId) return null;
  const [meter] = await tx
    .select({ id: meters.id, name: meters.name })
    .from(meters)
    .where(and(eq(meters.orgId, orgId), eq(meters.assetId, order.assetId), sql`lower(${meters.name}) = lower(${meterName})`))
    .limit(1);
  if (!meter) return null;
  const reading = await recordReading(tx, orgId, { meterId: meter.id, value, source: 'work-order', workOrderId: order.id }, userId);
  return { ...reading, meterName: meter.name };
}

/** Before an upload is stored: the step exists on a work order the actor sees and takes an image. */
export async function checkImageStep(tx: ReadTx, orgId: number, actor: AccessClaims, workOrderId: number, stepId: number) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  await checkStepTakesImage(tx, orgId, workOrderId, stepId);
}

/** The step is one of this work order's and takes an image (404, or 400 on `image`); the caller checked the order. */
export async function checkStepTakesImage(tx: ReadTx, orgId: number, workOrderId: number, stepId: number) {
  const [step] = await tx
    .select({ kind: s.kind })
    .from(s)
    .where(and(eq(s.orgId, orgId), eq(s.workOrderId, workOrderId), eq(s.id, stepId)));
  if (!step) throw notFound('Step');
  if (!IMAGE_KINDS.includes(step.kind)) throw badRequest(M.notImageStep, 'image');
}

/** The version sent with a step image (`stepImageFieldsSchema`): a 400 on `answeredAt` when it is not one. */
export function stepImageVersion(fields: Record<string, string>): string | null | undefined {
  const parsed = stepImageFieldsSchema.safeParse(fields);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    throw badRequest(
      issue?.path.length ? issue.message : 'Unknown field',
      issue?.path.join('.') || Object.keys(fields).find((k) => k !== 'answeredAt') || 'answeredAt',
    );
  }
  return parsed.data.answeredAt;
}

/**
 * POST add-step-image/{workOrderId}/step/{stepId}: the stored image (photo, drawn signature) answers the step. Made
 * from the step's `answeredAt` as the client saw it (issue 45): a step answered since is a 409 with the step now.
 */
export async function setStepImage(tx: Tx, orgId: number, actor: AccessClaims, workOrderId: number, stepId: number, url: string, answeredAt?: string | null) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  const step = await lockStep(tx, orgId, workOrderId, stepId);
  if (!unchangedSince(step, answeredAt)) throw new StaleEdit((await issuedStep(tx, orgId, workOrderId, step.id)).step);
  if (!IMAGE_KINDS.includes(step.kind)) throw badRequest(M.notImageStep, 'image');
  await storeAnswer(tx, orgId, actor.userId, workOrderId, step, url);
  return { message: 'Image saved', ...(await issuedStep(tx, orgId, workOrderId, step.id)) };
}

/**
 * A contractor's photo or signature through a shared work order (decision 040; the caller checked the share): under
 * their name. A step answered since the contractor saw it is a 409 with the step as `currentOf` shows it to them.
 */
export async function setStepImageAsContractor(
  tx: Tx,
  orgId: number,
  workOrderId: number,
  contractor: string,
  stepId: number,
  url: string,
  answeredAt: string | null | undefined,
  currentOf: (step: IssuedStepRow) => unknown,
) {
  const step = await lockStep(tx, orgId, workOrderId, stepId);
  if (!unchangedSince(step, answeredAt)) throw new StaleEdit(currentOf(step));
  if (!IMAGE_KINDS.includes(step.kind)) throw badRequest(M.notImageStep, 'image');
  await storeAnswer(tx, orgId, { contractor }, workOrderId, step, url);
}
