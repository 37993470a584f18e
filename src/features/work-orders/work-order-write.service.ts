import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../server/db/client';
import { sameUpdatedAt, StaleEdit } from '../../server/stale-edit';
import { workOrderAssignees, workOrderParts, workOrders } from '../../server/db/schema';
import { badRequest, conflict, forbidden } from '../../server/http-error';
import type { AccessClaims } from '../auth/tokens';
import { diffChanges, recordActivities, historyOf } from '../activity/activity.service';
import { workOrderChanged } from '../request-portal/request-portal.flow';
import { type WorkOrderListQuery, type RescheduleWorkOrderInput, type WorkOrderValues } from './work-orders.schema';
import { dayInZone, moveToDay } from '../../shared/dates';
import { RESCHEDULE_MESSAGES, rescheduleDayProblem } from '../calendar/calendar.schema';
import { emitWebhookEvent, emitWebhookEvents } from '../webhooks/webhooks.service';
import { moneySettings, orgTimeZone } from '../organization/organization.service';
import { now } from '../../server/clock';
import { notifyAssigned } from '../notifications/notifications.service';
import { markAssetDown } from '../asset-states/asset-states.service';
import { ENTITY, isManager, iso, getWorkOrder, workOrdersAsShown, shownOrder } from './work-order-read.service';
import { listWorkOrders } from './work-order-list.service';
import {
  checkAsset,
  checkQuotation,
  checkUsers,
  writable,
  edited,
  checkProcedureFilled,
  statusChanged,
  failureCodesOnClose,
  resumedOnClose,
  repeatFailureCheck,
  claimWorkOrder,
} from './work-order-rules.service';
import { partPriceMinor } from './work-order-labor.service';
import { chunksOf } from '../../server/db/chunks';

const history = historyOf(ENTITY);

/**
 * Creates one work order (its assignees and its "created" history line) and returns its id: add-work-order,
 * and other features' work (a procedure step's follow-up) go through it. `actor.userId` null: made by the system.
 */
export async function createWorkOrder(tx: Tx, orgId: number, actor: { userId: number | null }, input: WorkOrderValues): Promise<number> {
  await checkAsset(tx, orgId, input.assetId);
  await checkQuotation(tx, orgId, input.quotationId);
  const assignees = await checkUsers(tx, orgId, input.assignees ?? [], 'assignees', 'Assignee not found');
  const [created] = await tx
    .insert(workOrders)
    .values({ orgId, ...writable(input), status: input.status ?? 'assigned', createdById: actor.userId })
    .returning({ id: workOrders.id });
  if (assignees.length) await tx.insert(workOrderAssignees).values(assignees.map((userId) => ({ orgId, workOrderId: created.id, userId })));
  await history(tx, orgId, created.id, actor.userId, 'created');
  await markAssetDown(tx, orgId, input.assetId ?? null, input.assetDown, { setBy: actor.userId, workOrderId: created.id });
  await emitWebhookEvent(tx, orgId, 'work-order.created', () => shownOrder(tx, orgId, created.id));
  if (assignees.length)
    await emitWebhookEvent(tx, orgId, 'work-order.assigned', async () => ({ ...(await shownOrder(tx, orgId, created.id)), added: assignees, removed: [] }));
  await notifyAssigned(tx, orgId, actor.userId, { id: created.id, title: input.title }, assignees);
  return created.id;
}

/** POST add-work-order (managers): the new order and the refreshed list. */
export async function addWorkOrder(tx: Tx, orgId: number, actor: AccessClaims, input: WorkOrderValues, query: WorkOrderListQuery) {
  const id = await createWorkOrder(tx, orgId, actor, input);
  const workOrder = await getWorkOrder(tx, orgId, actor, id);
  return { message: 'Work order added successfully', workOrder, ...(await listWorkOrders(tx, orgId, actor, query)) };
}

/** A work order made by background work (a preventive maintenance plan): every id is one the caller's foreign keys keep valid. */
export interface NewWorkOrder {
  title: string;
  /** Already sanitised HTML (the plan sanitised it when it was saved). */
  instructions: string | null;
  priority: WorkOrderValues['priority'];
  duration: string | null;
  dueDate: Date;
  assetId: number | null;
  assignees: number[];
  parts: { partId: number; quantity: number }[];
  /** Where it came from, kept in its history (e.g. 'PM plan "Oil change"'). */
  source: string;
}

/**
 * Creates many work orders in a few statements (the plan generator): orders, assignees, parts and their
 * "created" history line, in the caller's transaction. Returns their ids in the order of `items`. No list,
 * no per-order reads: at 10,000 orders a run, statements per order are what costs.
 */
export async function createWorkOrders(tx: Tx, orgId: number, items: NewWorkOrder[]): Promise<number[]> {
  const ids: number[] = [];
  const { digits } = items.some((w) => w.parts.length) ? await moneySettings(tx, orgId) : { digits: 2 };
  // Chunks keep each statement well under PostgreSQL's 65,535 parameters.
  for (const chunk of chunksOf(items, 500)) {
    const created = await tx
      .insert(workOrders)
      .values(
        chunk.map((w) => ({
          orgId,
          title: w.title,
          instructions: w.instructions,
          priority: w.priority ?? 'medium',
          duration: w.duration,
          dueDate: w.dueDate,
          assetId: w.assetId,
          status: 'assigned' as const,
          createdById: null,
        })),
      )
      .returning({ id: workOrders.id });
    // PostgreSQL returns a multi-row VALUES insert's rows in the order given.
    const chunkIds = created.map((c) => c.id);
    ids.push(...chunkIds);
    const assignees = chunk.flatMap((w, j) => [...new Set(w.assignees)].map((userId) => ({ orgId, workOrderId: chunkIds[j], userId })));
    if (assignees.length) await tx.insert(workOrderAssignees).values(assignees);
    const lines = chunk.flatMap((w, j) =>
      w.parts.map((p) => ({
        orgId,
        workOrderId: chunkIds[j],
        partId: p.partId,
        quantity: p.quantity,
        unitPriceMinor: partPriceMinor(orgId, p.partId, digits),
      })),
    );
    if (lines.length) await tx.insert(workOrderParts).values(lines);
    await recordActivities(
      tx,
      orgId,
      chunk.map((w, j) => ({
        entityType: ENTITY,
        entityId: chunkIds[j],
        userId: null,
        action: 'created' as const,
        changes: { source: { from: null, to: w.source } },
      })),
    );
    await emitWebhookEvents(tx, orgId, 'work-order.created', async () =>
      (await workOrdersAsShown(tx, orgId, chunkIds)).map((w, j) => ({ ...w, source: chunk[j].source })),
    );
    const assigned = chunk.flatMap((w, j) => (w.assignees.length ? [j] : []));
    if (assigned.length)
      await emitWebhookEvents(tx, orgId, 'work-order.assigned', async () =>
        (
          await workOrdersAsShown(
            tx,
            orgId,
            assigned.map((j) => chunkIds[j]),
          )
        ).map((w, k) => ({ ...w, added: [...new Set(chunk[assigned[k]].assignees)], removed: [] })),
      );
  }
  return ids;
}

/** PUT update-work-order/{id}: managers edit anything; an assigned worker edits the order but not its assignees. */
export async function updateWorkOrder(tx: Tx, orgId: number, actor: AccessClaims, id: number, input: WorkOrderValues) {
  // Refuses an edit made from an older copy and locks the order until this edit commits (decision 025).
  await claimWorkOrder(tx, orgId, actor, id, input.updatedAt);
  const before = await getWorkOrder(tx, orgId, actor, id);
  await checkAsset(tx, orgId, input.assetId);
  await checkQuotation(tx, orgId, input.quotationId);
  const closing = input.status === 'completed' && before.status !== 'completed';
  if (closing) await checkProcedureFilled(tx, orgId, id);
  const assetId = input.assetId === undefined ? before.assetId : input.assetId;
  const codes = closing ? await failureCodesOnClose(tx, orgId, { ...before, assetId }, input) : {};
  const values = { ...edited(input), ...(input.status ? { status: input.status } : {}), ...codes, ...(closing ? resumedOnClose(before) : {}) };
  const startDate = values.startDate === undefined ? before.startDate : values.startDate;
  const endDate = values.endDate === undefined ? before.endDate : values.endDate;
  if (startDate && endDate && new Date(startDate).getTime() > new Date(endDate).getTime()) throw badRequest('End time must be after start time', 'endDate');
  const dueDate = values.dueDate === undefined ? (before.dueDate ? new Date(before.dueDate) : null) : values.dueDate;
  let assigneeChange: { from: number[]; to: number[] } | null = null;
  if (input.assignees) {
    const next = await checkUsers(tx, orgId, input.assignees, 'assignees', 'Assignee not found');
    const prev = before.assignees.map((a) => a.id).sort((a, b) => a - b);
    const sorted = [...next].sort((a, b) => a - b);
    if (JSON.stringify(prev) !== JSON.stringify(sorted)) {
      if (!isManager(actor)) throw forbidden('Only managers can change the assignees');
      await tx.delete(workOrderAssignees).where(and(eq(workOrderAssignees.orgId, orgId), eq(workOrderAssignees.workOrderId, id)));
      if (next.length) await tx.insert(workOrderAssignees).values(next.map((userId) => ({ orgId, workOrderId: id, userId })));
      assigneeChange = { from: prev, to: sorted };
    }
  }
  await tx
    .update(workOrders)
    .set(values)
    .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, id)));
  const beforeValues = {
    ...before,
    startDate: before.startDate ? new Date(before.startDate) : null,
    endDate: before.endDate ? new Date(before.endDate) : null,
    dueDate: before.dueDate ? new Date(before.dueDate) : null,
  };
  const changes: Record<string, { from: unknown; to: unknown }> = diffChanges(beforeValues as unknown as Record<string, unknown>, values, Object.keys(values));
  if (assigneeChange) changes.assignees = assigneeChange;
  if (Object.keys(changes).length) await history(tx, orgId, id, actor.userId, 'updated', changes);
  if (Object.keys(changes).length) await emitWebhookEvent(tx, orgId, 'work-order.updated', async () => ({ ...(await shownOrder(tx, orgId, id)), changes }));
  if (assigneeChange) {
    const { from, to } = assigneeChange;
    await emitWebhookEvent(tx, orgId, 'work-order.assigned', async () => ({
      ...(await shownOrder(tx, orgId, id)),
      added: to.filter((u) => !from.includes(u)),
      removed: from.filter((u) => !to.includes(u)),
    }));
    await notifyAssigned(
      tx,
      orgId,
      actor.userId,
      { id, title: values.title ?? before.title },
      to.filter((u) => !from.includes(u)),
    );
  }
  await markAssetDown(tx, orgId, assetId, input.assetDown, { setBy: actor.userId, workOrderId: id });
  if (input.status && input.status !== before.status) await statusChanged(tx, orgId, id, { ...before, assetId }, input.status, dueDate, actor.userId);
  // Scheduled (or no longer) without a status change: the portal request it came from says so (decision 039).
  else if (changes.dueDate) await workOrderChanged(tx, orgId, id, { status: before.status, dueDate });
  // Closed with a problem code: the same asset and problem within the window is a repeat failure (decision 080).
  if (codes.problemCodeId) await repeatFailureCheck(tx, orgId, id, actor.userId);
  return { message: 'Work order updated successfully', workOrder: await getWorkOrder(tx, orgId, actor, id) };
}

/**
 * PUT reschedule-work-order/{id} (managers, the calendar's drag): moves the due date to another day and keeps
 * its time of day in the reader's time zone (an order shown on its start date takes the start's time).
 */
export async function rescheduleWorkOrder(tx: Tx, orgId: number, actor: AccessClaims, id: number, input: RescheduleWorkOrderInput) {
  // The claiming UPDATE, as every edit: refuses an older copy and locks the order (decision 025).
  const [claimed] = await tx
    .update(workOrders)
    .set({ updatedAt: new Date() })
    .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, id), sameUpdatedAt(workOrders.updatedAt, input.updatedAt)))
    .returning({ dueDate: workOrders.dueDate, startDate: workOrders.startDate, status: workOrders.status, createdAt: workOrders.createdAt });
  if (!claimed) throw new StaleEdit(await getWorkOrder(tx, orgId, actor, id));
  // Closed work stays where it was done; a move stays within sane days (decision 064).
  if (claimed.status === 'completed' || claimed.status === 'cancelled') throw conflict(RESCHEDULE_MESSAGES[claimed.status]);
  const zone = input.timeZone ?? (await orgTimeZone(tx, orgId));
  const problem = rescheduleDayProblem(input.dueDate, dayInZone(claimed.createdAt, zone), dayInZone(now(), zone));
  if (problem) throw badRequest(problem, 'dueDate');
  // The time of day stays on the organisation's clock (the calendar's days), or the zone the caller names.
  const dueDate = moveToDay(claimed.dueDate ?? claimed.startDate, input.dueDate, zone);
  if (claimed.dueDate?.getTime() !== dueDate.getTime()) {
    await tx
      .update(workOrders)
      .set({ dueDate })
      .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, id)));
    await history(tx, orgId, id, actor.userId, 'updated', { dueDate: { from: iso(claimed.dueDate), to: iso(dueDate) } });
    await emitWebhookEvent(tx, orgId, 'work-order.updated', async () => ({
      ...(await shownOrder(tx, orgId, id)),
      changes: { dueDate: { from: iso(claimed.dueDate), to: iso(dueDate) } },
    }));
    await workOrderChanged(tx, orgId, id, { status: claimed.status, dueDate });
  }
  return { message: 'Work order rescheduled successfully', workOrder: await getWorkOrder(tx, orgId, actor, id) };
}
