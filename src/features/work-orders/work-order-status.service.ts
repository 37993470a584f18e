import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../server/db/client';
import { workOrderPhotos, workOrderProcedureSteps, workOrders } from '../../server/db/schema';
import { discardFiles } from '../../server/uploads/storage';
import { conflict, notFound } from '../../server/http-error';
import type { AccessClaims } from '../auth/tokens';
import { historyOf } from '../activity/activity.service';
import { workOrderChanged } from '../request-portal/request-portal.flow';
import { type WorkOrderListQuery, type WorkOrderStatus } from './work-orders.schema';
import { emitWebhookEvent } from '../webhooks/webhooks.service';
import { now } from '../../server/clock';
import { type FailureCodesOfOrder } from '../failure-codes/failure-codes.service';
import { FAILURE_CODE_MESSAGES, type HoldInput } from '../failure-codes/failure-codes.schema';
import { ENTITY, getWorkOrder, shownOrder } from './work-order-read.service';
import { listWorkOrders } from './work-order-list.service';
import { checkProcedureFilled, statusChanged, failureCodesOnClose, resumedOnClose, repeatFailureCheck, claimWorkOrder } from './work-order-rules.service';

const history = historyOf(ENTITY);

const HOLD_LABELS: Record<string, string> = {
  parts: 'waiting for parts',
  vendor: 'waiting for vendor',
  access: 'waiting for access',
  shutdown: 'waiting for shutdown',
  other: 'other',
};

/**
 * PUT hold-work-order/{id}: an open order waits (decision 080): a flag beside the status, with a reason and a
 * note. It stays in the backlog; the time on hold is left out of its repair time.
 */
export async function holdWorkOrder(tx: Tx, orgId: number, actor: AccessClaims, id: number, input: HoldInput) {
  await claimWorkOrder(tx, orgId, actor, id, input.updatedAt);
  const before = await getWorkOrder(tx, orgId, actor, id);
  if (before.status === 'completed' || before.status === 'cancelled') throw conflict(FAILURE_CODE_MESSAGES.holdClosed);
  if (before.onHold) throw conflict(FAILURE_CODE_MESSAGES.alreadyHeld);
  await tx
    .update(workOrders)
    .set({ onHold: true, holdReason: input.reason, holdNote: input.note ?? null, heldAt: now() })
    .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, id)));
  const to = `${HOLD_LABELS[input.reason]}${input.note ? `: ${input.note}` : ''}`;
  await history(tx, orgId, id, actor.userId, 'updated', { onHold: { from: null, to } });
  await emitWebhookEvent(tx, orgId, 'work-order.updated', async () => ({
    ...(await shownOrder(tx, orgId, id)),
    changes: { onHold: { from: false, to: true } },
  }));
  return { message: 'Work order put on hold', workOrder: await getWorkOrder(tx, orgId, actor, id) };
}

/** PUT resume-work-order/{id}: the hold ends; its span is added to the order's held time. */
export async function resumeWorkOrder(tx: Tx, orgId: number, actor: AccessClaims, id: number, updatedAt?: string) {
  await claimWorkOrder(tx, orgId, actor, id, updatedAt);
  const before = await getWorkOrder(tx, orgId, actor, id);
  if (!before.onHold) throw conflict(FAILURE_CODE_MESSAGES.notHeld);
  await tx
    .update(workOrders)
    .set(resumedOnClose(before))
    .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, id)));
  const from = `${HOLD_LABELS[before.holdReason ?? 'other']}${before.holdNote ? `: ${before.holdNote}` : ''}`;
  await history(tx, orgId, id, actor.userId, 'updated', { onHold: { from, to: null } });
  await emitWebhookEvent(tx, orgId, 'work-order.updated', async () => ({
    ...(await shownOrder(tx, orgId, id)),
    changes: { onHold: { from: true, to: false } },
  }));
  return { message: 'Work order resumed', workOrder: await getWorkOrder(tx, orgId, actor, id) };
}

/** PUT update-status/{id}: any status may follow any other (spec section 4). */
export async function updateWorkOrderStatus(
  tx: Tx,
  orgId: number,
  actor: AccessClaims,
  id: number,
  status: WorkOrderStatus,
  updatedAt?: string,
  given: FailureCodesOfOrder = {},
) {
  // Sent with the version it was made from (decision 041): the claiming UPDATE, as for any edit (decision 025).
  if (updatedAt !== undefined) {
    await claimWorkOrder(tx, orgId, actor, id, updatedAt);
  }
  const before = await getWorkOrder(tx, orgId, actor, id);
  if (before.status !== status) {
    if (status === 'completed') await checkProcedureFilled(tx, orgId, id);
    const codes = status === 'completed' ? await failureCodesOnClose(tx, orgId, before, given) : {};
    await tx
      .update(workOrders)
      .set({ status, ...codes, ...(status === 'completed' || status === 'cancelled' ? resumedOnClose(before) : {}) })
      .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, id)));
    await history(tx, orgId, id, actor.userId, 'status', { status: { from: before.status, to: status } });
    await statusChanged(tx, orgId, id, before, status, before.dueDate ? new Date(before.dueDate) : null, actor.userId);
    if (codes.problemCodeId) await repeatFailureCheck(tx, orgId, id, actor.userId);
  }
  const order = await getWorkOrder(tx, orgId, actor, id);
  return { message: 'Work order status updated successfully', order, workOrder: order };
}

/** DELETE delete-work-order/{id} (managers): labour, parts and its procedure (photos, signatures) go with it; returns the refreshed list. */
export async function deleteWorkOrder(tx: Tx, orgId: number, actor: AccessClaims, id: number, query: WorkOrderListQuery) {
  // Its files leave storage with it: the procedure's photo and signature answers and the technician's photos
  // (decision 041), read in one statement.
  const s = workOrderProcedureSteps;
  const p = workOrderPhotos;
  const images = await tx
    .select({ url: sql<string>`${s.value} #>> '{}'` })
    .from(s)
    .where(and(eq(s.orgId, orgId), eq(s.workOrderId, id), sql`${s.kind} in ('photo', 'signature')`, sql`jsonb_typeof(${s.value}) = 'string'`))
    .unionAll(
      tx
        .select({ url: sql<string>`${p.url}` })
        .from(p)
        .where(and(eq(p.orgId, orgId), eq(p.workOrderId, id))),
    );
  discardFiles(
    tx,
    images.map((r) => r.url),
  );
  const rows = await tx
    .delete(workOrders)
    .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, id)))
    .returning({ id: workOrders.id });
  if (!rows.length) throw notFound('Work order');
  // A portal request accepted into it is told the work will not be done (its link then expires as any closed one's).
  await workOrderChanged(tx, orgId, id, null);
  await history(tx, orgId, id, actor.userId, 'deleted');
  return { message: 'Work order deleted successfully', ...(await listWorkOrders(tx, orgId, actor, query)) };
}
