import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { procedures, procedureSteps, users, workOrderProcedures, workOrderProcedureSteps } from '../../server/db/schema';
import { conflict, notFound } from '../../server/http-error';
import { discardFiles } from '../../server/uploads/storage';
import type { AccessClaims } from '../auth/tokens';
import { historyOf } from '../activity/activity.service';
import { getWorkOrder } from '../work-orders/work-orders.service';
import { PROCEDURE_MESSAGES as M, progressOf, type IssuedStepDto, type WorkOrderProcedureDto } from './procedures.schema';
import { WORK_ORDER, iso, stepColumns, stepFields, toStepDto } from './procedure-catalog.service';
import { pick } from '../../shared/pick';
import { readOrgRow } from '../../server/db/org-rows';
import { groupByWorkOrder } from '../work-orders/by-work-order';

const history = historyOf(WORK_ORDER);

// ---- A work order's procedure ----

export const s = workOrderProcedureSteps;

/** The issued steps of these work orders, each order's in position order. */
async function readIssuedSteps(tx: ReadTx, orgId: number, workOrderIds: number[]): Promise<Map<number, IssuedStepDto[]>> {
  const rows = await tx
    .select({
      id: s.id,
      workOrderId: s.workOrderId,
      ...stepColumns(s),
      ...pick(s, 'value', 'flagged', 'answeredAt', 'answeredById'),
      firstName: users.firstName,
      lastName: users.lastName,
      followUpWorkOrderId: s.followUpWorkOrderId,
    })
    .from(s)
    .leftJoin(users, and(eq(users.orgId, s.orgId), eq(users.id, s.answeredById)))
    .where(and(eq(s.orgId, orgId), inArray(s.workOrderId, workOrderIds)))
    .orderBy(asc(s.position));
  return groupByWorkOrder(workOrderIds, rows, (r) => ({
    ...toStepDto(r),
    value: r.value ?? null,
    flagged: r.flagged,
    answeredAt: iso(r.answeredAt),
    answeredBy: r.answeredById ? { id: r.answeredById, firstName: r.firstName ?? '', lastName: r.lastName ?? '' } : null,
    followUpWorkOrderId: r.followUpWorkOrderId,
  }));
}

/**
 * The procedures of these work orders with their answers, by work order; an order without one is absent (the
 * caller checked the orders). Two statements for any number of orders (My work reads a page of them at once).
 */
export async function readWorkOrderProcedures(tx: ReadTx, orgId: number, workOrderIds: number[]): Promise<Map<number, WorkOrderProcedureDto>> {
  if (!workOrderIds.length) return new Map();
  const heads = await tx
    .select()
    .from(workOrderProcedures)
    .where(and(eq(workOrderProcedures.orgId, orgId), inArray(workOrderProcedures.workOrderId, workOrderIds)));
  const steps = heads.length
    ? await readIssuedSteps(
        tx,
        orgId,
        heads.map((h) => h.workOrderId),
      )
    : new Map<number, IssuedStepDto[]>();
  return new Map(
    heads.map((head) => {
      const own = steps.get(head.workOrderId) ?? [];
      const dto = {
        workOrderId: head.workOrderId,
        ...pick(head, 'procedureId', 'name', 'description'),
        attachedAt: head.attachedAt.toISOString(),
        steps: own,
        progress: progressOf(own),
      };
      return [head.workOrderId, dto];
    }),
  );
}

/** The work order's procedure with its answers, or null when none is attached (the caller checked the order). */
export async function readWorkOrderProcedure(tx: ReadTx, orgId: number, workOrderId: number): Promise<WorkOrderProcedureDto | null> {
  return (await readWorkOrderProcedures(tx, orgId, [workOrderId])).get(workOrderId) ?? null;
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
  const source = await readOrgRow(tx, procedures, { name: procedures.name, description: procedures.description }, orgId, procedureId);
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
  await history(tx, orgId, workOrderId, userId, 'updated', { procedure: { from: null, to: source.name } });
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
  await history(tx, orgId, workOrderId, actor.userId, 'updated', { procedure: { from: rows[0].name, to: null } });
  return { message: 'Procedure detached successfully', procedure: null };
}
