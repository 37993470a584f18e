import { and, asc, eq, ilike, sql } from 'drizzle-orm';
import { escapeHtml } from '../../server/mailer';
import type { ReadTx, Tx } from '../../server/db/client';
import { meters, procedures, procedureSteps, users, workOrderProcedures, workOrderProcedureSteps } from '../../server/db/schema';
import { badRequest, conflict, notFound } from '../../server/http-error';
import { claimVersion, StaleEdit } from '../../server/stale-edit';
import { escapeLike } from '../../server/db/like';
import { pageAndTotal, totalOver } from '../../server/db/paging';
import { discardFiles } from '../../server/uploads/storage';
import { pagination } from '../../shared/pagination';
import type { AccessClaims } from '../auth/tokens';
import { diffChanges, recordActivity, registerActivityEntity } from '../activity/activity.service';
import { nameAudit } from '../audit/audit-context';
import { createWorkOrder, getWorkOrder } from '../work-orders/work-orders.service';
import { recordReading } from '../meters/meters.service';
import { workOrderDisplayId } from '../work-orders/work-orders.schema';
import {
  stepImageFieldsSchema,
  FOLLOW_UP_KINDS,
  IMAGE_KINDS,
  PROCEDURE_MESSAGES as M,
  answerSchemaFor,
  isFlagged,
  isSignOffValue,
  progressOf,
  type AnswerStepInput,
  type SignOffValue,
  type SignStepInput,
  type IssuedStepDto,
  type ProcedureDto,
  type ProcedureListItem,
  type ProcedureListQuery,
  type ProcedureValues,
  type StepDto,
  type WorkOrderProcedureDto,
} from './procedures.schema';

registerActivityEntity('procedure', procedures, 'Procedure');

const WORK_ORDER = 'work-order';
const iso = (d: Date | null) => (d ? d.toISOString() : null);

// ---- The library ----

const stepFields = {
  position: procedureSteps.position,
  kind: procedureSteps.kind,
  label: procedureSteps.label,
  required: procedureSteps.required,
  unit: procedureSteps.unit,
  min: procedureSteps.min,
  max: procedureSteps.max,
  options: procedureSteps.options,
  followUpOnFailure: procedureSteps.followUpOnFailure,
  meterName: procedureSteps.meterName,
};

// The outer procedure, named in full: in a one-table select drizzle leaves columns unqualified, which inside a
// subquery on procedure_steps would name its own columns.
const outerOrg = sql.raw('"procedures"."org_id"');
const outerId = sql.raw('"procedures"."id"');

/** Answerable steps of a procedure, kept with the row (headings do not count). */
const stepCountOf = sql<number>`(select count(*) from ${procedureSteps} where ${procedureSteps.orgId} = ${outerOrg}
  and ${procedureSteps.procedureId} = ${outerId} and ${procedureSteps.kind} <> 'heading')`.mapWith(Number);

const listColumns = {
  id: procedures.id,
  name: procedures.name,
  description: procedures.description,
  stepCount: stepCountOf,
  version: procedures.version,
  createdAt: procedures.createdAt,
  updatedAt: procedures.updatedAt,
};

type ListRow = { id: number; name: string; description: string | null; stepCount: number; version: number; createdAt: Date; updatedAt: Date };
const toListItem = (r: ListRow): ProcedureListItem => ({
  id: r.id,
  name: r.name,
  description: r.description,
  stepCount: r.stepCount,
  version: r.version,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** GET list-procedures: by name, filtered by name (contains); a people-sized list, page and total in one statement. */
export async function listProcedures(tx: ReadTx, orgId: number, query: ProcedureListQuery) {
  const where = and(eq(procedures.orgId, orgId), query.name ? ilike(procedures.name, `%${escapeLike(query.name)}%`) : undefined);
  const { rows, total } = await pageAndTotal({ limit: query.pageSize, offset: (query.page - 1) * query.pageSize }, (v) =>
    tx
      .select({ ...listColumns, total: totalOver() })
      .from(procedures)
      .where(where)
      .orderBy(asc(procedures.name), asc(procedures.id))
      .limit(v.limit)
      .offset(v.offset),
  );
  return { procedures: rows.map(toListItem), pagination: pagination(total, query.page, query.pageSize) };
}

const toStepDto = (r: { id: number } & Omit<StepDto, 'id'>): StepDto => ({
  id: r.id,
  position: r.position,
  kind: r.kind,
  label: r.label,
  required: r.required,
  unit: r.unit,
  min: r.min,
  max: r.max,
  options: r.options ?? [],
  followUpOnFailure: r.followUpOnFailure,
  meterName: r.meterName ?? null,
});

/** One procedure of the organisation with its steps in order; 404 when it is not theirs. */
export async function getProcedure(tx: ReadTx, orgId: number, id: number): Promise<ProcedureDto> {
  // The procedure and its steps (JSON) in one statement.
  const steps = sql<(Omit<StepDto, 'options'> & { options: string[] | null })[]>`coalesce((
    select json_agg(json_build_object('id', ${procedureSteps.id}, 'position', ${procedureSteps.position}, 'kind', ${procedureSteps.kind},
      'label', ${procedureSteps.label}, 'required', ${procedureSteps.required}, 'unit', ${procedureSteps.unit}, 'min', ${procedureSteps.min},
      'max', ${procedureSteps.max}, 'options', ${procedureSteps.options}, 'followUpOnFailure', ${procedureSteps.followUpOnFailure},
      'meterName', ${procedureSteps.meterName})
      order by ${procedureSteps.position})
    from ${procedureSteps} where ${procedureSteps.orgId} = ${outerOrg} and ${procedureSteps.procedureId} = ${outerId}), '[]')`;
  const [row] = await tx
    .select({ ...listColumns, steps })
    .from(procedures)
    .where(and(eq(procedures.orgId, orgId), eq(procedures.id, id)));
  if (!row) throw notFound('Procedure');
  return { ...toListItem(row), steps: row.steps.map((s) => toStepDto({ ...s, options: s.options ?? [] })) };
}

/** The stored form of an edited step: fields that do not belong to its kind are left empty. */
function stepValues(s: ProcedureValues['steps'][number], position: number) {
  return {
    position,
    kind: s.kind,
    label: s.label,
    required: s.kind !== 'heading' && (s.required ?? false),
    unit: s.kind === 'number' ? (s.unit ?? null) : null,
    min: s.kind === 'number' ? (s.min ?? null) : null,
    max: s.kind === 'number' ? (s.max ?? null) : null,
    options: s.kind === 'choice' ? (s.options ?? []) : [],
    followUpOnFailure: FOLLOW_UP_KINDS.includes(s.kind) && (s.followUpOnFailure ?? false),
    meterName: s.kind === 'number' ? (s.meterName ?? null) : null,
  };
}

async function writeSteps(tx: Tx, orgId: number, procedureId: number, steps: ProcedureValues['steps']) {
  await tx.delete(procedureSteps).where(and(eq(procedureSteps.orgId, orgId), eq(procedureSteps.procedureId, procedureId)));
  await tx.insert(procedureSteps).values(steps.map((s, i) => ({ orgId, procedureId, ...stepValues(s, i + 1) })));
}

/** POST add-procedure (managers): the new procedure and the refreshed list. */
export async function addProcedure(tx: Tx, orgId: number, userId: number, input: ProcedureValues, query: ProcedureListQuery) {
  const [created] = await tx
    .insert(procedures)
    .values({ orgId, name: input.name, description: input.description ?? null })
    .returning({ id: procedures.id });
  await writeSteps(tx, orgId, created.id, input.steps);
  await recordActivity(tx, orgId, { entityType: 'procedure', entityId: created.id, userId, action: 'created' });
  return { message: 'Procedure added successfully', procedure: await getProcedure(tx, orgId, created.id), ...(await listProcedures(tx, orgId, query)) };
}

/** PUT update-procedure/{id} (managers): name, description and the steps (replaced). Issued copies do not change. */
export async function updateProcedure(tx: Tx, orgId: number, userId: number, id: number, input: ProcedureValues) {
  // Refuses an edit made from an older version and locks the procedure until this edit commits (decision 025).
  if (!(await claimVersion(tx, procedures, orgId, id, input.version))) throw new StaleEdit(await getProcedure(tx, orgId, id));
  const before = await getProcedure(tx, orgId, id);
  const values = { name: input.name, description: input.description ?? null };
  await tx
    .update(procedures)
    .set(values)
    .where(and(eq(procedures.orgId, orgId), eq(procedures.id, id)));
  await writeSteps(tx, orgId, id, input.steps);
  const changes: Record<string, { from: unknown; to: unknown }> = diffChanges(before as unknown as Record<string, unknown>, values, ['name', 'description']);
  const stepsBefore = before.steps.map(({ id: _id, ...s }) => s);
  const stepsAfter = input.steps.map((s, i) => stepValues(s, i + 1));
  if (JSON.stringify(stepsBefore) !== JSON.stringify(stepsAfter)) changes.steps = { from: stepsBefore.length, to: stepsAfter.length };
  if (Object.keys(changes).length) await recordActivity(tx, orgId, { entityType: 'procedure', entityId: id, userId, action: 'updated', changes });
  return { message: 'Procedure updated successfully', procedure: await getProcedure(tx, orgId, id) };
}

/** DELETE delete-procedure/{id} (managers): work orders keep their copies; returns the refreshed list. */
export async function deleteProcedure(tx: Tx, orgId: number, userId: number, id: number, query: ProcedureListQuery) {
  const rows = await tx
    .delete(procedures)
    .where(and(eq(procedures.orgId, orgId), eq(procedures.id, id)))
    .returning({ id: procedures.id });
  if (!rows.length) throw notFound('Procedure');
  await recordActivity(tx, orgId, { entityType: 'procedure', entityId: id, userId, action: 'deleted' });
  return { message: 'Procedure deleted successfully', ...(await listProcedures(tx, orgId, query)) };
}

// ---- A work order's procedure ----

const s = workOrderProcedureSteps;

async function readIssuedSteps(tx: ReadTx, orgId: number, workOrderId: number): Promise<IssuedStepDto[]> {
  const rows = await tx
    .select({
      id: s.id,
      position: s.position,
      kind: s.kind,
      label: s.label,
      required: s.required,
      unit: s.unit,
      min: s.min,
      max: s.max,
      options: s.options,
      followUpOnFailure: s.followUpOnFailure,
      meterName: s.meterName,
      value: s.value,
      flagged: s.flagged,
      answeredAt: s.answeredAt,
      answeredById: s.answeredById,
      firstName: users.firstName,
      lastName: users.lastName,
      followUpWorkOrderId: s.followUpWorkOrderId,
    })
    .from(s)
    .leftJoin(users, and(eq(users.orgId, s.orgId), eq(users.id, s.answeredById)))
    .where(and(eq(s.orgId, orgId), eq(s.workOrderId, workOrderId)))
    .orderBy(asc(s.position));
  return rows.map((r) => ({
    ...toStepDto(r),
    value: r.value ?? null,
    flagged: r.flagged,
    answeredAt: iso(r.answeredAt),
    answeredBy: r.answeredById ? { id: r.answeredById, firstName: r.firstName ?? '', lastName: r.lastName ?? '' } : null,
    followUpWorkOrderId: r.followUpWorkOrderId,
  }));
}

/** The work order's procedure with its answers, or null when none is attached (the caller checked the order). */
async function readWorkOrderProcedure(tx: ReadTx, orgId: number, workOrderId: number): Promise<WorkOrderProcedureDto | null> {
  const [head] = await tx
    .select()
    .from(workOrderProcedures)
    .where(and(eq(workOrderProcedures.orgId, orgId), eq(workOrderProcedures.workOrderId, workOrderId)));
  if (!head) return null;
  const steps = await readIssuedSteps(tx, orgId, workOrderId);
  return {
    workOrderId,
    procedureId: head.procedureId,
    name: head.name,
    description: head.description,
    attachedAt: head.attachedAt.toISOString(),
    steps,
    progress: progressOf(steps),
  };
}

/** GET get-work-order-procedure/{id}: the procedure of a work order the actor sees (null when none). */
export async function getWorkOrderProcedure(tx: ReadTx, orgId: number, actor: AccessClaims, workOrderId: number) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  return { procedure: await readWorkOrderProcedure(tx, orgId, workOrderId) };
}

/**
 * Copies a library procedure's steps into a work order (a snapshot: later library edits do not reach it).
 * For other features too (the PM plan generator calls it when it creates a work order from a plan): it does
 * not check who may see the work order, only that both records are the organisation's. 404 for a missing
 * procedure or work order; 409 when the work order already has a procedure. Records the history line.
 */
export async function attachProcedure(tx: Tx, orgId: number, workOrderId: number, procedureId: number, userId: number | null): Promise<void> {
  const [source] = await tx
    .select({ name: procedures.name, description: procedures.description })
    .from(procedures)
    .where(and(eq(procedures.orgId, orgId), eq(procedures.id, procedureId)));
  if (!source) throw notFound('Procedure');
  const inserted = await tx
    .insert(workOrderProcedures)
    .values({ orgId, workOrderId, procedureId, name: source.name, description: source.description, attachedById: userId })
    .onConflictDoNothing()
    .returning({ workOrderId: workOrderProcedures.workOrderId });
  if (!inserted.length) throw conflict(M.alreadyAttached, 'procedureId');
  const steps = await tx
    .select(stepFields)
    .from(procedureSteps)
    .where(and(eq(procedureSteps.orgId, orgId), eq(procedureSteps.procedureId, procedureId)))
    .orderBy(asc(procedureSteps.position));
  if (steps.length) await tx.insert(s).values(steps.map((step) => ({ orgId, workOrderId, ...step })));
  await recordActivity(tx, orgId, {
    entityType: WORK_ORDER,
    entityId: workOrderId,
    userId,
    action: 'updated',
    changes: { procedure: { from: null, to: source.name } },
  });
}

/** POST attach-procedure/{id} (managers): attaches and returns the work order's procedure. */
export async function attachProcedureToWorkOrder(tx: Tx, orgId: number, actor: AccessClaims, workOrderId: number, procedureId: number) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  await attachProcedure(tx, orgId, workOrderId, procedureId, actor.userId);
  return { message: 'Procedure attached successfully', procedure: await readWorkOrderProcedure(tx, orgId, workOrderId) };
}

/** DELETE detach-procedure/{id} (managers): removes the work order's procedure and its answers (and their images). */
export async function detachProcedure(tx: Tx, orgId: number, actor: AccessClaims, workOrderId: number) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  const images = await tx
    .select({ value: s.value })
    .from(s)
    .where(and(eq(s.orgId, orgId), eq(s.workOrderId, workOrderId), sql`${s.kind} in ('photo', 'signature')`));
  const rows = await tx
    .delete(workOrderProcedures)
    .where(and(eq(workOrderProcedures.orgId, orgId), eq(workOrderProcedures.workOrderId, workOrderId)))
    .returning({ name: workOrderProcedures.name });
  if (!rows.length) throw notFound('Procedure');
  discardFiles(
    tx,
    images.map((r) => (typeof r.value === 'string' ? r.value : null)),
  );
  await recordActivity(tx, orgId, {
    entityType: WORK_ORDER,
    entityId: workOrderId,
    userId: actor.userId,
    action: 'updated',
    changes: { procedure: { from: rows[0].name, to: null } },
  });
  return { message: 'Procedure detached successfully', procedure: null };
}

/** One step of the work order's procedure, locked until the answer commits; 404 when there is none. */
async function lockStep(tx: Tx, orgId: number, workOrderId: number, stepId: number) {
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
async function issuedStep(tx: ReadTx, orgId: number, workOrderId: number, stepId: number) {
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
export async function signProcedureStep(tx: Tx, orgId: number, actor: AccessClaims, workOrderId: number, input: Omit<SignStepInput, 'password'>, name: string) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
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
  await recordActivity(tx, orgId, {
    entityType: WORK_ORDER,
    entityId: workOrderId,
    userId: actor.userId,
    action: 'updated',
    changes: { followUp: { from: null, to: workOrderDisplayId(followUpId) } },
  });
  await recordActivity(tx, orgId, {
    entityType: WORK_ORDER,
    entityId: followUpId,
    userId: actor.userId,
    action: 'updated',
    changes: { followUpOf: { from: null, to: order.workOrderId } },
  });
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
    .select({
      id: s.id,
      procedure: procedures.name,
      description: procedures.description,
      kind: s.kind,
      label: s.label,
      required: s.required,
      unit: s.unit,
      min: s.min,
      max: s.max,
      options: s.options,
      followUpOnFailure: s.followUpOnFailure,
      meterName: s.meterName,
    })
    .from(s)
    .innerJoin(procedures, and(eq(procedures.orgId, s.orgId), eq(procedures.id, s.procedureId)))
    .where(eq(s.orgId, orgId))
    .orderBy(asc(procedures.name), asc(procedures.id), asc(s.position))
    .limit(limit)
    .offset((page - 1) * limit);
}
