import { and, asc, eq, ilike, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { procedures, procedureSteps, workOrderProcedureSteps } from '../../server/db/schema';
import { notFound } from '../../server/http-error';
import { claimVersion, StaleEdit } from '../../server/stale-edit';
import { escapeLike } from '../../server/db/like';
import { pageAndTotal, totalOver } from '../../server/db/paging';
import { pagination } from '../../shared/pagination';
import { diffChanges, recordActivity } from '../activity/activity.service';
import { FOLLOW_UP_KINDS, type ProcedureDto, type ProcedureListItem, type ProcedureListQuery, type ProcedureValues, type StepDto } from './procedures.schema';
import { pick } from '../../shared/pick';
import { readOrgRow } from '../../server/db/org-rows';

export const WORK_ORDER = 'work-order';
export const iso = (d: Date | null) => (d ? d.toISOString() : null);

// ---- The library ----

/** A step's definition columns, of a library step or of a step issued to a work order (the same columns in both). */
export const stepColumns = (t: typeof procedureSteps | typeof workOrderProcedureSteps) => ({
  ...pick(t, 'position', 'kind', 'label', 'required', 'unit', 'min', 'max', 'options', 'followUpOnFailure', 'meterName'),
});
export const stepFields = stepColumns(procedureSteps);

// The outer procedure, named in full: in a one-table select drizzle leaves columns unqualified, which inside a
// subquery on procedure_steps would name its own columns.
const outerOrg = sql.raw('"procedures"."org_id"');
const outerId = sql.raw('"procedures"."id"');

/** Answerable steps of a procedure, kept with the row (headings do not count). */
const stepCountOf = sql<number>`(select count(*) from ${procedureSteps} where ${procedureSteps.orgId} = ${outerOrg}
  and ${procedureSteps.procedureId} = ${outerId} and ${procedureSteps.kind} <> 'heading')`.mapWith(Number);

const listColumns = {
  ...pick(procedures, 'id', 'name', 'description'),
  stepCount: stepCountOf,
  ...pick(procedures, 'version', 'createdAt', 'updatedAt'),
};

type ListRow = { id: number; name: string; description: string | null; stepCount: number; version: number; createdAt: Date; updatedAt: Date };
const toListItem = (r: ListRow): ProcedureListItem => ({
  ...pick(r, 'id', 'name', 'description', 'stepCount', 'version'),
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

export const toStepDto = (r: { id: number } & Omit<StepDto, 'id'>): StepDto => ({
  ...pick(r, 'id', 'position', 'kind', 'label', 'required', 'unit', 'min', 'max'),
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
  const row = await readOrgRow(tx, procedures, { ...listColumns, steps }, orgId, id);
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
