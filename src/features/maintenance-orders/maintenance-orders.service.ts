import { and, asc, count, desc, eq, ilike, inArray, lt, or, type SQL } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { claimVersion, StaleEdit } from '../../server/stale-edit';
import { assets, maintenanceOrderParts, maintenanceOrders, maintenanceOrderServices, maintenanceRequests, parts, services } from '../../server/db/schema';
import { badRequest, conflict, forbidden, notFound } from '../../server/http-error';
import { pagination } from '../../shared/pagination';
import type { AccessClaims } from '../auth/tokens';
import { diffChanges, recordActivity, registerActivityEntity } from '../activity/activity.service';
import { requestDisplayId } from '../maintenance-requests/maintenance-requests.schema';
import {
  ORDER_MESSAGES,
  orderDisplayId,
  type MaintenanceOrderDto,
  type MaintenanceOrderInput,
  type MaintenanceOrdersQuery,
  type OrderFromRequestInput,
  type OrderStatus,
  type RescheduleMaintenanceOrderInput,
} from './maintenance-orders.schema';
import { dayInZone, moveToDay } from '../../shared/dates';
import { RESCHEDULE_MESSAGES, rescheduleDayProblem } from '../calendar/calendar.schema';
import { orgTimeZone } from '../organization/organization.service';
import { now } from '../../server/clock';
import { escapeLike } from '../../server/db/like';
import { maintenanceWorkChanged } from '../request-portal/request-portal.flow';
import { isAnyOf, param, preparedRead } from '../../server/db/prepared';
import { stationsOf } from '../service-catalog/service-catalog.service';
import { orgRow, readRecent, readOrgRow } from '../../server/db/org-rows';
import { requireReference, requireReferences } from '../../server/db/references';
import { pick } from '../../shared/pick';

const history = registerActivityEntity('maintenance-order', maintenanceOrders, 'Maintenance order');
const o = maintenanceOrders;

const columns = {
  ...pick(o, 'id', 'status', 'maintenanceType', 'assetId'),
  assetName: assets.name,
  requestId: o.maintenanceRequestId,
  requestTitle: maintenanceRequests.title,
  requestState: maintenanceRequests.state,
  ...pick(o, 'scheduleDate', 'dueDate', 'completionDate', 'rootCauseAnalysis', 'version', 'createdAt'),
};

function baseSelect(tx: ReadTx) {
  return tx
    .select(columns)
    .from(o)
    .leftJoin(assets, and(eq(assets.orgId, o.orgId), eq(assets.id, o.assetId)))
    .leftJoin(maintenanceRequests, and(eq(maintenanceRequests.orgId, o.orgId), eq(maintenanceRequests.id, o.maintenanceRequestId)));
}
type Row = Awaited<ReturnType<ReturnType<typeof baseSelect>['execute']>>[number];

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Orders with their services (and each service's work stations) and parts: three statements per page, all kept. */
async function toDtos(tx: ReadTx, orgId: number, rows: Row[]): Promise<MaintenanceOrderDto[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  // Every list and the application data read these.
  const serviceRows = await preparedRead(
    tx,
    'maintenanceOrders.services',
    () =>
      tx
        .select({ orderId: maintenanceOrderServices.maintenanceOrderId, id: services.id, title: services.title })
        .from(maintenanceOrderServices)
        .innerJoin(services, and(eq(services.orgId, maintenanceOrderServices.orgId), eq(services.id, maintenanceOrderServices.serviceId)))
        .where(and(eq(maintenanceOrderServices.orgId, param('orgId')), isAnyOf(maintenanceOrderServices.maintenanceOrderId, param('ids'))))
        .orderBy(asc(services.title), asc(services.id)),
    { orgId, ids },
  );
  const serviceIds = [...new Set(serviceRows.map((s) => s.id))];
  // Each service's work stations in its order, as the service catalogue reads them.
  const stations = await stationsOf(tx, orgId, serviceIds);
  const partRows = await preparedRead(
    tx,
    'maintenanceOrders.parts',
    () =>
      tx
        .select({ orderId: maintenanceOrderParts.maintenanceOrderId, id: parts.id, name: parts.name })
        .from(maintenanceOrderParts)
        .innerJoin(parts, and(eq(parts.orgId, maintenanceOrderParts.orgId), eq(parts.id, maintenanceOrderParts.partId)))
        .where(and(eq(maintenanceOrderParts.orgId, param('orgId')), isAnyOf(maintenanceOrderParts.maintenanceOrderId, param('ids'))))
        .orderBy(asc(parts.name), asc(parts.id)),
    { orgId, ids },
  );
  return rows.map((row) => ({
    id: row.id,
    maintenanceOrderId: orderDisplayId(row.id),
    ...pick(row, 'status', 'maintenanceType', 'assetId'),
    asset: row.assetId ? { id: row.assetId, name: row.assetName ?? '' } : null,
    services: serviceRows
      .filter((s) => s.orderId === row.id)
      .map((s) => ({ id: s.id, title: s.title, WorkStations: (stations.get(s.id) ?? []).map((w) => ({ id: w.id, name: w.name })) })),
    parts: partRows.filter((p) => p.orderId === row.id).map((p) => ({ id: p.id, name: p.name })),
    request_id: row.requestId,
    maintenanceRequest:
      row.requestTitle !== null
        ? { id: row.requestId, maintenanceRequestId: requestDisplayId(row.requestId), title: row.requestTitle, state: row.requestState ?? 'new' }
        : null,
    scheduleDate: iso(row.scheduleDate),
    dueDate: iso(row.dueDate),
    completionDate: iso(row.completionDate),
    rootCauseAnalysis: row.rootCauseAnalysis,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
  }));
}

/** One order of the organisation; 404 when it is not theirs. */
export async function getMaintenanceOrder(tx: ReadTx, orgId: number, id: number): Promise<MaintenanceOrderDto> {
  const rows = await baseSelect(tx).where(orgRow(o, orgId, id));
  if (!rows.length) throw notFound('Maintenance order');
  return (await toDtos(tx, orgId, rows))[0];
}

function listWhere(orgId: number, query: MaintenanceOrdersQuery): SQL | undefined {
  const text = query.title ?? query.name;
  let textFilter: SQL | undefined;
  if (text) {
    const byId = /^pm-?0*(\d{1,9})$/i.exec(text);
    textFilter = or(
      ilike(assets.name, `%${escapeLike(text)}%`),
      ilike(maintenanceRequests.title, `%${escapeLike(text)}%`),
      byId ? eq(o.id, Number(byId[1])) : undefined,
    );
  }
  return and(eq(o.orgId, orgId), query.status?.length ? inArray(o.status, query.status) : undefined, textFilter);
}

/** A page of orders, newest first, filtered by status and by asset, request title or PM-ID. */
export async function listMaintenanceOrders(tx: ReadTx, orgId: number, query: MaintenanceOrdersQuery) {
  const where = listWhere(orgId, query);
  const [{ total }] = await tx
    .select({ total: count() })
    .from(o)
    .leftJoin(assets, and(eq(assets.orgId, o.orgId), eq(assets.id, o.assetId)))
    .leftJoin(maintenanceRequests, and(eq(maintenanceRequests.orgId, o.orgId), eq(maintenanceRequests.id, o.maintenanceRequestId)))
    .where(where);
  const rows = await baseSelect(tx)
    .where(where)
    .orderBy(desc(o.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return { maintenanceOrders: await toDtos(tx, orgId, rows), pagination: pagination(total, query.page, query.pageSize) };
}

/**
 * One batch of the list's rows for an export (decision 042): the list's own filter, newest first, ids below
 * `before` (keyset), `limit` rows at a time.
 */
export async function exportMaintenanceOrdersBatch(tx: ReadTx, orgId: number, query: MaintenanceOrdersQuery, before: number, limit: number) {
  const rows = await baseSelect(tx)
    .where(and(listWhere(orgId, query), lt(o.id, before)))
    .orderBy(desc(o.id))
    .limit(limit);
  return toDtos(tx, orgId, rows);
}

/** The most recent orders, for the application data preload (DESIGN 7). */
export async function recentMaintenanceOrders(tx: ReadTx, orgId: number, limit = 50) {
  const rows = await readRecent(tx, 'maintenanceOrders.recent', o, () => baseSelect(tx).$dynamic(), orgId, limit);
  return toDtos(tx, orgId, rows);
}

/** Every id in the body must be a row of the organisation: 400 naming the field otherwise. */
async function checkReferences(tx: Tx, orgId: number, input: MaintenanceOrderInput) {
  await requireReference(tx, orgId, maintenanceRequests, input.maintenanceRequestId, 'maintenanceRequestId', 'Maintenance request not found');
  await requireReference(tx, orgId, assets, input.assetId, 'assetId', 'Asset not found');
  const serviceIds = [...new Set(input.services)];
  await requireReferences(tx, orgId, services, serviceIds, 'services', 'Service not found');
  const partIds = [...new Set(input.parts ?? [])];
  await requireReferences(tx, orgId, parts, partIds, 'parts', 'Part not found');
  return { serviceIds, partIds };
}

function checkStatusAllowed(actor: AccessClaims, status: OrderStatus | undefined) {
  if (status === 'validate' && actor.role === 'worker') throw forbidden('Only a manager can validate a maintenance order');
}

async function lockedCheck(tx: Tx, orgId: number, id: number) {
  const row = await readOrgRow(tx, o, { status: o.status }, orgId, id);
  if (!row) throw notFound('Maintenance order');
  if (row.status === 'validate') throw conflict(ORDER_MESSAGES.locked);
}

async function replaceLines(tx: Tx, orgId: number, id: number, serviceIds: number[], partIds: number[]) {
  await tx.delete(maintenanceOrderServices).where(and(eq(maintenanceOrderServices.orgId, orgId), eq(maintenanceOrderServices.maintenanceOrderId, id)));
  await tx.delete(maintenanceOrderParts).where(and(eq(maintenanceOrderParts.orgId, orgId), eq(maintenanceOrderParts.maintenanceOrderId, id)));
  if (serviceIds.length) await tx.insert(maintenanceOrderServices).values(serviceIds.map((serviceId) => ({ orgId, maintenanceOrderId: id, serviceId })));
  if (partIds.length) await tx.insert(maintenanceOrderParts).values(partIds.map((partId) => ({ orgId, maintenanceOrderId: id, partId })));
}

const valuesOf = (input: MaintenanceOrderInput) => ({
  ...pick(input, 'maintenanceRequestId', 'maintenanceType', 'assetId', 'scheduleDate', 'dueDate', 'completionDate'),
  rootCauseAnalysis: input.rootCauseAnalysis ?? null,
});

/** Adds an order (status new unless given) and returns it with the refreshed list. */
/** Inserts a checked order with its services and parts; gives its id. */
async function insertOrder(tx: Tx, orgId: number, actor: AccessClaims, input: MaintenanceOrderInput, changes?: Record<string, { from: unknown; to: unknown }>) {
  const { serviceIds, partIds } = await checkReferences(tx, orgId, input);
  checkStatusAllowed(actor, input.status);
  const [created] = await tx
    .insert(o)
    .values({ orgId, ...valuesOf(input), status: input.status ?? 'new' })
    .returning({ id: o.id });
  await replaceLines(tx, orgId, created.id, serviceIds, partIds);
  await history(tx, orgId, created.id, actor.userId, 'created', changes);
  // A portal request accepted into the maintenance request follows its orders (decision 039).
  await maintenanceWorkChanged(tx, orgId, input.maintenanceRequestId);
  return created;
}

export async function addMaintenanceOrder(tx: Tx, orgId: number, actor: AccessClaims, input: MaintenanceOrderInput, query: MaintenanceOrdersQuery) {
  const created = await insertOrder(tx, orgId, actor, input);
  return {
    message: 'Maintenance order added successfully',
    maintenanceOrder: await getMaintenanceOrder(tx, orgId, created.id),
    ...(await listMaintenanceOrders(tx, orgId, query)),
  };
}

const summary = (dto: MaintenanceOrderDto) => ({
  ...dto,
  services: dto.services.map((s) => s.id),
  parts: dto.parts.map((p) => p.id),
  maintenanceRequestId: dto.request_id,
});

/** Replaces an order's fields, services and parts; refused once the order is validated. */
export async function updateMaintenanceOrder(tx: Tx, orgId: number, actor: AccessClaims, id: number, input: MaintenanceOrderInput) {
  // Refuses an edit made from an older version and locks the order until this edit commits (decision 025).
  if (!(await claimVersion(tx, o, orgId, id, input.version))) throw new StaleEdit(await getMaintenanceOrder(tx, orgId, id));
  await lockedCheck(tx, orgId, id);
  const before = await getMaintenanceOrder(tx, orgId, id);
  const { serviceIds, partIds } = await checkReferences(tx, orgId, input);
  checkStatusAllowed(actor, input.status && input.status !== before.status ? input.status : undefined);
  const values = { ...valuesOf(input), ...(input.status ? { status: input.status } : {}) };
  await tx
    .update(o)
    .set(values)
    .where(orgRow(o, orgId, id));
  await replaceLines(tx, orgId, id, serviceIds, partIds);
  const after = { ...values, services: [...serviceIds].sort((a, b) => a - b), parts: [...partIds].sort((a, b) => a - b) };
  const old = summary(before);
  const changes = diffChanges(
    { ...old, services: [...old.services].sort((a, b) => a - b), parts: [...old.parts].sort((a, b) => a - b) } as unknown as Record<string, unknown>,
    after as Record<string, unknown>,
    Object.keys(after),
  );
  if (Object.keys(changes).length) await history(tx, orgId, id, actor.userId, 'updated', changes);
  for (const requestId of new Set([before.request_id, values.maintenanceRequestId])) await maintenanceWorkChanged(tx, orgId, requestId);
  const order = await getMaintenanceOrder(tx, orgId, id);
  return { message: 'Maintenance order updated successfully', order, maintenanceOrder: order };
}

/** PUT reschedule-maintenance-order/{id} (managers, the calendar's drag): another due day, the same time of day (UTC). */
export async function rescheduleMaintenanceOrder(tx: Tx, orgId: number, actor: AccessClaims, id: number, input: RescheduleMaintenanceOrderInput) {
  if (!(await claimVersion(tx, o, orgId, id, input.version))) throw new StaleEdit(await getMaintenanceOrder(tx, orgId, id));
  await lockedCheck(tx, orgId, id);
  const [before] = await tx
    .select({ dueDate: o.dueDate, scheduleDate: o.scheduleDate, requestId: o.maintenanceRequestId, status: o.status, createdAt: o.createdAt })
    .from(o)
    .where(orgRow(o, orgId, id));
  // Cancelled work is not moved; a move stays within sane days (decision 064).
  if (before.status === 'cancel') throw conflict(RESCHEDULE_MESSAGES.cancelled);
  const zone = await orgTimeZone(tx, orgId);
  const problem = rescheduleDayProblem(input.dueDate, dayInZone(before.createdAt, zone), dayInZone(now(), zone));
  if (problem) throw badRequest(problem, 'dueDate');
  const dueDate = moveToDay(before.dueDate ?? before.scheduleDate, input.dueDate);
  if (before.dueDate?.getTime() !== dueDate.getTime()) {
    await tx
      .update(o)
      .set({ dueDate })
      .where(orgRow(o, orgId, id));
    await maintenanceWorkChanged(tx, orgId, before.requestId);
    await history(tx, orgId, id, actor.userId, 'updated', { dueDate: { from: iso(before.dueDate), to: iso(dueDate) } });
  }
  const order = await getMaintenanceOrder(tx, orgId, id);
  return { message: 'Maintenance order rescheduled successfully', order, maintenanceOrder: order };
}

/** PUT update-status/{id}: the drawer's status dropdown; locked once validated. */
export async function updateOrderStatus(tx: Tx, orgId: number, actor: AccessClaims, id: number, status: OrderStatus) {
  await lockedCheck(tx, orgId, id);
  const before = await getMaintenanceOrder(tx, orgId, id);
  if (before.status !== status) {
    checkStatusAllowed(actor, status);
    await tx
      .update(o)
      .set({ status })
      .where(orgRow(o, orgId, id));
    await history(tx, orgId, id, actor.userId, 'status', { status: { from: before.status, to: status } });
    await maintenanceWorkChanged(tx, orgId, before.request_id);
  }
  const order = await getMaintenanceOrder(tx, orgId, id);
  return { message: 'Maintenance order status updated successfully', order, maintenanceOrder: order, status: order.status };
}

/** Deletes an order that is not validated, and returns the refreshed list. */
export async function deleteMaintenanceOrder(tx: Tx, orgId: number, actor: AccessClaims, id: number, query: MaintenanceOrdersQuery) {
  await lockedCheck(tx, orgId, id);
  const before = await getMaintenanceOrder(tx, orgId, id);
  await tx.delete(o).where(orgRow(o, orgId, id));
  await maintenanceWorkChanged(tx, orgId, before.request_id);
  await history(tx, orgId, id, actor.userId, 'deleted', { maintenanceOrderId: { from: before.maintenanceOrderId, to: null } });
  return { message: 'Maintenance order deleted successfully', ...(await listMaintenanceOrders(tx, orgId, query)) };
}

/**
 * 'Create Order' on an approved request (decision 037): the order form opens pre-filled from the request, and
 * Save sends the order's fields here; the order is created with them, under the same rules as any order,
 * linked to the request (the request shows it back as `maintenanceOrder`). One order per request.
 */
export async function createOrderFromRequest(tx: Tx, orgId: number, actor: AccessClaims, requestId: number, input: OrderFromRequestInput) {
  const [request] = await tx
    .select({
      ...pick(maintenanceRequests, 'id', 'state', 'maintenanceType', 'assetId', 'scheduleDate'),
    })
    .from(maintenanceRequests)
    .where(and(eq(maintenanceRequests.orgId, orgId), eq(maintenanceRequests.id, requestId)));
  if (!request) throw notFound('Maintenance request');
  if (request.state !== 'approved') throw conflict('Only an approved request can generate a maintenance order', 'state');
  const [existing] = await tx
    .select({ id: o.id })
    .from(o)
    .where(and(eq(o.orgId, orgId), eq(o.maintenanceRequestId, requestId)))
    .limit(1);
  if (existing) throw conflict(`A maintenance order (${orderDisplayId(existing.id)}) already exists for this request`);
  // the order's own rules (services, dates, asset) were checked by its schema; its references here
  const created = await insertOrder(
    tx,
    orgId,
    actor,
    { ...input, maintenanceRequestId: request.id },
    { maintenanceRequest: { from: null, to: requestDisplayId(request.id) } },
  );
  await recordActivity(tx, orgId, {
    entityType: 'maintenance-request',
    entityId: request.id,
    userId: actor.userId,
    action: 'updated',
    changes: { maintenanceOrder: { from: null, to: orderDisplayId(created.id) } },
  });
  const order = await getMaintenanceOrder(tx, orgId, created.id);
  return { message: 'Maintenance order created successfully', maintenanceOrder: order, order };
}
