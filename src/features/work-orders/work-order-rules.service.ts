import { and, count, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../server/db/client';
import { assets, quotations, users, workOrderProcedureSteps, workOrders } from '../../server/db/schema';
import { badRequest } from '../../server/http-error';
import { requireReference, requireReferences } from '../../server/db/references';
import type { AccessClaims } from '../auth/tokens';
import { workOrderChanged } from '../request-portal/request-portal.flow';
import { sanitizeHtml } from '../../server/sanitize-html';
import { MAX_LINE_COST_MINOR, type WorkOrderDto, type WorkOrderStatus, type WorkOrderValues } from './work-orders.schema';
import { emitWebhookEvent } from '../webhooks/webhooks.service';
import { toMajor } from '../../shared/money';
import { formatMinutes } from '../../shared/format';
import { now } from '../../server/clock';
import { notifyStatusChanged } from '../notifications/notifications.service';
import { workDone } from '../asset-states/asset-states.service';
import { checkFailureCodesOnClose, findRepeatFailure, notifyRepeatFailure, type FailureCodesOfOrder } from '../failure-codes/failure-codes.service';
import { sameUpdatedAt, StaleEdit } from '../../server/stale-edit';
import { getWorkOrder, isManager, shownOrder } from './work-order-read.service';

export async function checkAsset(tx: Tx, orgId: number, assetId: number | null | undefined) {
  if (assetId) await requireReference(tx, orgId, assets, assetId, 'assetId', 'Asset not found');
}

export async function checkQuotation(tx: Tx, orgId: number, quotationId: number | null | undefined) {
  if (quotationId) await requireReference(tx, orgId, quotations, quotationId, 'quotationId', 'Quotation not found');
}

export async function checkUsers(tx: Tx, orgId: number, ids: number[], path: string, message: string) {
  await requireReferences(tx, orgId, users, ids, path, message);
  return [...new Set(ids)];
}

export const writable = (input: WorkOrderValues) => ({
  title: input.title,
  duration: input.duration ?? null,
  priority: input.priority ?? 'medium',
  startDate: input.startDate ?? null,
  endDate: input.endDate ?? null,
  dueDate: input.dueDate ?? null,
  instructions: input.instructions ? sanitizeHtml(input.instructions) : null,
  assetId: input.assetId ?? null,
  // Absent keeps the link (a form without the field), null removes it.
  ...(input.quotationId !== undefined ? { quotationId: input.quotationId } : {}),
});

/** An update's columns: only the fields the body names (left out keeps, null clears; as the users' update). */
export const edited = (input: WorkOrderValues) =>
  Object.fromEntries(Object.entries(writable(input)).filter(([key]) => input[key as keyof WorkOrderValues] !== undefined)) as Partial<
    ReturnType<typeof writable>
  >;

/**
 * A work order is closed only with every required step of its procedure filled (decision 030): the
 * procedures feature's table, read here where the status changes.
 */
export async function checkProcedureFilled(tx: Tx, orgId: number, id: number) {
  const s = workOrderProcedureSteps;
  const [{ n }] = await tx
    .select({ n: count() })
    .from(s)
    .where(and(eq(s.orgId, orgId), eq(s.workOrderId, id), eq(s.required, true), sql`${s.kind} <> 'heading'`, sql`${s.value} is null`));
  if (n > 0)
    throw badRequest(
      n === 1 ? 'Fill the 1 required procedure step before closing this work order' : `Fill the ${n} required procedure steps before closing this work order`,
      'status',
    );
}

/**
 * What a status change tells the world, in the change's transaction: the webhooks (decision 043: status-changed
 * always, completed too when it is the new one) and the portal request it came from (decision 039).
 */
export async function statusChanged(
  tx: Tx,
  orgId: number,
  id: number,
  before: { title: string; status: string; assetId: number | null },
  to: WorkOrderStatus,
  dueDate: Date | null,
  actorId: number | null,
) {
  // Who created it and who follows it (decision 074).
  await notifyStatusChanged(tx, orgId, actorId, id, before.status, to);
  // Completed (or cancelled) work brings its asset back up (decision 079).
  if (to === 'completed' || to === 'cancelled')
    await workDone(tx, orgId, before.assetId, to === 'completed' ? 'any-work' : 'own', { setBy: actorId, workOrderId: id });
  await emitWebhookEvent(tx, orgId, 'work-order.status-changed', async () => ({ ...(await shownOrder(tx, orgId, id)), from: before.status, to }));
  if (to === 'completed') await emitWebhookEvent(tx, orgId, 'work-order.completed', () => shownOrder(tx, orgId, id));
  await workOrderChanged(tx, orgId, id, { status: to, dueDate });
}

/** The failure codes an order is closed with, checked (decision 080; the failure-codes feature's rule). */
export function failureCodesOnClose(tx: Tx, orgId: number, before: WorkOrderDto, given: FailureCodesOfOrder) {
  return checkFailureCodesOnClose(tx, orgId, before, given);
}

/** Closing or cancelling an order on hold ends the hold: its span is added to the held time. */
export function resumedOnClose(before: WorkOrderDto) {
  if (!before.onHold || !before.heldAt) return {};
  return { onHold: false, holdReason: null, holdNote: null, heldAt: null, heldSeconds: heldSecondsAfter(before.heldAt) };
}
const heldSecondsAfter = (heldAt: string) =>
  sql`${workOrders.heldSeconds} + greatest(0, round(extract(epoch from (${now().toISOString()}::timestamptz - ${heldAt}::timestamptz))))::int`;

/**
 * A repeat failure (decision 080): the bell's entry (`notifyRepeatFailure`) and the webhook event
 * `work-order.repeat-failure`, with the earlier order.
 */
export async function repeatFailureCheck(tx: Tx, orgId: number, id: number, actorId: number) {
  const repeat = await findRepeatFailure(tx, orgId, id);
  if (!repeat) return;
  await notifyRepeatFailure(tx, orgId, id, repeat, actorId);
  await emitWebhookEvent(tx, orgId, 'work-order.repeat-failure', async () => ({
    ...(await shownOrder(tx, orgId, id)),
    previousWorkOrderId: repeat.previousWorkOrderId,
    problem: repeat.problem,
    withinDays: repeat.withinDays,
  }));
}

/** Whether the reader sees amounts (rates, prices, costs): managers do, workers do not (as people's hourly rates, issue 24). */
export const seesAmounts = (actor: AccessClaims) => isManager(actor);

/**
 * A contractor's line (decision 040), labour or part: the share and the contractor's name, and for a reader who sees
 * amounts the rate (or unit price) and the cost; null for the organisation's own lines.
 */
export const externalLine = (r: { shareId: number | null; externalName: string | null }, showAmounts: boolean, rateMinor: number, costMinor: number) =>
  r.shareId !== null && r.externalName !== null
    ? { shareId: r.shareId, name: r.externalName, rateMinor: showAmounts ? rateMinor : null, costMinor: showAmounts ? costMinor : null }
    : null;

/** A labour line's length as the history says it ("1h 30m"). */
export const minutesLabel = (start: Date, end: Date) => formatMinutes((end.getTime() - start.getTime()) / 60_000);

/** A line's cost over MAX_LINE_COST_MINOR, said in the organisation's currency. */
export const lineCostMessage = (what: string, digits: number) => `${what} must be at most ${toMajor(MAX_LINE_COST_MINOR, digits)}`;

/** The claiming UPDATE of every edit: refuses an edit made from an older copy and locks the order until it commits (decision 025). */
export async function claimWorkOrder(tx: Tx, orgId: number, actor: AccessClaims, id: number, updatedAt: string | undefined) {
  const [claimed] = await tx
    .update(workOrders)
    .set({ updatedAt: new Date() })
    .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, id), sameUpdatedAt(workOrders.updatedAt, updatedAt)))
    .returning({ id: workOrders.id });
  if (!claimed) throw new StaleEdit(await getWorkOrder(tx, orgId, actor, id));
}
