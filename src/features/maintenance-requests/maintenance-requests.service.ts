import { and, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { claimVersion, StaleEdit } from '../../server/stale-edit';
import { countAll, isAnyOf, keysetBatch, param, preparedRead } from '../../server/db/prepared';
import { assets, customerVendors, maintenanceRequests, users } from '../../server/db/schema';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../server/http-error';
import { pgCode } from '../../server/db/pg-code';
import { pagination } from '../../shared/pagination';
import type { AccessClaims } from '../auth/tokens';
import { diffChanges, registerActivityEntity } from '../activity/activity.service';
import { displayNumber, managersOf, notify } from '../notifications/notifications.service';
import { orderDisplayId } from '../maintenance-orders/maintenance-orders.schema';
import {
  requestDisplayId,
  type Attachment,
  type MaintenanceRequestDto,
  type MaintenanceRequestInput,
  type MaintenanceRequestsQuery,
  type MaintenanceRequestStatistics,
  type RequestState,
} from './maintenance-requests.schema';
import { escapeLike } from '../../server/db/like';
import { requireReference } from '../../server/db/references';
import { discardFiles } from '../../server/uploads/storage';
import { maintenanceWorkChanged } from '../request-portal/request-portal.flow';
import { emitWebhookEvent } from '../webhooks/webhooks.service';
import { markAssetDown, ownDownInterval, workDone } from '../asset-states/asset-states.service';
import { pick } from '../../shared/pick';
import { orNull } from '../../server/db/or-null';

const ENTITY = 'maintenance-request';
const history = registerActivityEntity(ENTITY, maintenanceRequests, 'Maintenance request');
/** States only a manager or admin may set: deciding on a request is theirs. */
const MANAGER_STATES: readonly RequestState[] = ['approved', 'rejected'];

const r = maintenanceRequests;

/** The request's maintenance order (the newest, if several were planned from it), as JSON or null. */
const linkedOrder = sql<{ id: number; status: string } | null>`(
  select json_build_object('id', mo.id, 'status', mo.status) from maintenance_orders mo
  where mo.org_id = ${r.orgId} and mo.maintenance_request_id = ${r.id} order by mo.id desc limit 1)`;

const columns = {
  ...pick(r, 'id', 'title', 'problemDescription', 'maintenanceType', 'requester', 'customerId'),
  customerName: customerVendors.name,
  ...pick(r, 'priority', 'state', 'assignedTo'),
  workerFirstName: users.firstName,
  workerLastName: users.lastName,
  dateOfRequest: r.dateOfRequest,
  assetId: r.assetId,
  assetName: assets.name,
  assetDown: ownDownInterval('maintenance_request_id', r.orgId, r.id),
  ...pick(r, 'failureReason', 'urgencyLevel', 'riskLevel', 'scheduleDate', 'frequency', 'sensorData', 'condition', 'images', 'documents'),
  order: linkedOrder,
  version: r.version,
  createdAt: r.createdAt,
};

/** The worker, asset and customer of a request. */
const worker = and(eq(users.orgId, r.orgId), eq(users.id, r.assignedTo));
const asset = and(eq(assets.orgId, r.orgId), eq(assets.id, r.assetId));
const customer = and(eq(customerVendors.orgId, r.orgId), eq(customerVendors.id, r.customerId));

function baseSelect(tx: ReadTx) {
  return tx.select(columns).from(r).leftJoin(users, worker).leftJoin(assets, asset).leftJoin(customerVendors, customer);
}

type Row = Awaited<ReturnType<ReturnType<typeof baseSelect>['execute']>>[number];

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toDto(row: Row): MaintenanceRequestDto {
  const order = typeof row.order === 'string' ? (JSON.parse(row.order) as { id: number; status: string }) : row.order;
  return {
    id: row.id,
    maintenanceRequestId: requestDisplayId(row.id),
    ...pick(row, 'title', 'problemDescription', 'maintenanceType'),
    type: row.maintenanceType,
    requester: row.requester,
    requestorType: row.requester,
    customerId: row.customerId,
    Customer: row.customerId ? { id: row.customerId, name: row.customerName ?? '' } : null,
    ...pick(row, 'priority', 'state', 'assignedTo'),
    assignTo: row.assignedTo,
    Worker: row.assignedTo ? { id: row.assignedTo, firstName: row.workerFirstName ?? '', lastName: row.workerLastName ?? '' } : null,
    dateOfRequest: row.dateOfRequest.toISOString(),
    assetId: row.assetId,
    asset: row.assetId ? { id: row.assetId, name: row.assetName ?? '' } : null,
    ...pick(row, 'assetDown', 'failureReason', 'urgencyLevel', 'riskLevel'),
    scheduleDate: iso(row.scheduleDate),
    ...pick(row, 'frequency', 'sensorData', 'condition'),
    images: row.images ?? [],
    documents: row.documents ?? [],
    customerDocuments: row.documents ?? [],
    maintenanceOrder: order ? { id: order.id, maintenanceOrderId: orderDisplayId(order.id), status: order.status } : null,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
  };
}

/** One request of the organisation; 404 when it is not theirs. */
export async function getMaintenanceRequest(tx: ReadTx, orgId: number, id: number): Promise<MaintenanceRequestDto> {
  const [row] = await baseSelect(tx).where(and(eq(r.orgId, orgId), eq(r.id, id)));
  if (!row) throw notFound('Maintenance request');
  return toDto(row);
}

/**
 * The list's filter values (absent ones undefined) and its condition over them as placeholders, for
 * `preparedRead`. A title also finds a request by its number ("MR-12").
 */
function listFilter(orgId: number, query: MaintenanceRequestsQuery) {
  const states = [...(query.status ?? []), ...(query.state ?? [])];
  const byId = query.title ? /^mr-?0*(\d{1,9})$/i.exec(query.title) : null;
  const values = {
    orgId,
    states: states.length ? states : undefined,
    like: query.title ? `%${escapeLike(query.title)}%` : undefined,
    id: byId ? Number(byId[1]) : undefined,
  };
  const where = () =>
    and(
      eq(r.orgId, param('orgId')),
      values.states ? isAnyOf(r.state, param('states')) : undefined,
      values.like ? or(ilike(r.title, param('like')), values.id ? eq(r.id, param('id')) : undefined) : undefined,
    );
  return { values, where };
}

/** The organisation's requests counted by state, requester and whether assigned (at most 24 rows; decision 086). */
function requestCounts(tx: ReadTx, orgId: number) {
  return preparedRead(
    tx,
    'maintenanceRequests.counts',
    () =>
      tx
        .select({ state: r.state, requester: r.requester, assigned: sql<boolean>`${r.assignedTo} is not null`, n: countAll() })
        .from(r)
        .where(eq(r.orgId, param('orgId')))
        .groupBy(r.state, r.requester, sql`${r.assignedTo} is not null`),
    { orgId },
  );
}

/** The side panel's counters over all of the organisation's requests. */
export async function getRequestStatistics(tx: ReadTx, orgId: number): Promise<MaintenanceRequestStatistics> {
  return requestStatistics(await requestCounts(tx, orgId));
}

function requestStatistics(rows: Awaited<ReturnType<typeof requestCounts>>): MaintenanceRequestStatistics {
  const sum = (keep: (r: (typeof rows)[number]) => boolean) => rows.reduce((n, r) => (keep(r) ? n + r.n : n), 0);
  const approved = sum((r) => r.state === 'approved');
  const rejected = sum((r) => r.state === 'rejected');
  return {
    totalNewRequests: sum((r) => r.state === 'new'),
    totalApprovedRequests: approved,
    approvedVsRejected: { approved, rejected },
    employeeVsCustomer: { employee: sum((r) => r.requester === 'employee'), customer: sum((r) => r.requester === 'customer') },
    unassignedRequests: sum((r) => !r.assigned),
  };
}

/**
 * A page of requests, newest first, with the state and title filters, and the counters. Without a title the
 * total is summed from the counters' counts; with one, a page that is not full gives it outright, and otherwise
 * it is counted.
 */
export async function listMaintenanceRequests(tx: ReadTx, orgId: number, query: MaintenanceRequestsQuery) {
  const filter = listFilter(orgId, query);
  const offset = (query.page - 1) * query.pageSize;
  const rows = await preparedRead(
    tx,
    'maintenanceRequests.list',
    () =>
      tx
        .select(columns)
        .from(r)
        .leftJoin(users, worker)
        .leftJoin(assets, asset)
        .leftJoin(customerVendors, customer)
        .where(filter.where())
        .orderBy(desc(r.id))
        .limit(param('limit'))
        .offset(param('offset')),
    { ...filter.values, limit: query.pageSize, offset },
  );
  const counts = await requestCounts(tx, orgId);
  const { states, like } = filter.values;
  let total: number;
  if (!like) total = counts.reduce((n, c) => (!states || states.includes(c.state) ? n + c.n : n), 0);
  else if (rows.length < query.pageSize && (rows.length > 0 || offset === 0)) total = offset + rows.length;
  else [{ total }] = await preparedRead(tx, 'maintenanceRequests.count', () => tx.select({ total: countAll() }).from(r).where(filter.where()), filter.values);
  return {
    maintenanceRequests: rows.map(toDto),
    pagination: pagination(total, query.page, query.pageSize),
    statistics: requestStatistics(counts),
  };
}

/**
 * One batch of the list's rows for an export (decision 042): the list's own filter, newest first, ids below
 * `before` (keyset), `limit` rows at a time.
 */
export async function exportMaintenanceRequestsBatch(tx: ReadTx, orgId: number, query: MaintenanceRequestsQuery, before: number, limit: number) {
  const filter = listFilter(orgId, query);
  const rows = await keysetBatch(tx, 'maintenanceRequests.export', () => baseSelect(tx), r.id, filter, before, limit);
  return rows.map(toDto);
}

/** Options for the maintenance order form: value, label, and what choosing one fills in (type, asset). */
export async function listRequestOptions(tx: ReadTx, orgId: number, query: { pageSize: number; name?: string; title?: string }) {
  const text = query.name ?? query.title;
  const byId = text ? /^mr-?0*(\d{1,9})$/i.exec(text) : null;
  const rows = await tx
    .select({ id: r.id, title: r.title, maintenanceType: r.maintenanceType, assetId: r.assetId, assetName: assets.name, state: r.state })
    .from(r)
    .leftJoin(assets, and(eq(assets.orgId, r.orgId), eq(assets.id, r.assetId)))
    .where(and(eq(r.orgId, orgId), text ? or(ilike(r.title, `%${escapeLike(text)}%`), byId ? eq(r.id, Number(byId[1])) : undefined) : undefined))
    .orderBy(desc(r.id))
    .limit(query.pageSize);
  return rows.map((o) => ({
    value: o.id,
    label: `${requestDisplayId(o.id)} ${o.title}`,
    maintenanceRequestId: requestDisplayId(o.id),
    ...pick(o, 'title', 'state', 'maintenanceType', 'assetId'),
    asset: o.assetId ? { id: o.assetId, name: o.assetName ?? '' } : null,
  }));
}

/** Foreign ids in the body must be rows of the same organisation. */
async function checkReferences(tx: Tx, orgId: number, input: MaintenanceRequestInput) {
  await requireReference(tx, orgId, users, input.assignedTo, 'assignedTo', 'Assignee not found');
  if (input.assetId) await requireReference(tx, orgId, assets, input.assetId, 'assetId', 'Asset not found');
  if (input.customerId && input.requester === 'customer')
    await requireReference(tx, orgId, customerVendors, input.customerId, 'customerId', 'Customer not found');
  for (const list of [input.images, input.documents]) {
    for (const file of list ?? []) {
      if (!file.url.startsWith(`/uploads/org-${orgId}/`)) throw badRequest('Attachments must be files uploaded to this organisation', 'documents');
    }
  }
}

function checkStateAllowed(actor: AccessClaims, state: RequestState | undefined) {
  if (state && MANAGER_STATES.includes(state) && actor.role === 'worker') throw forbidden('Only a manager can approve or reject a request');
}

const valuesOf = (input: MaintenanceRequestInput) => ({
  ...pick(input, 'title', 'problemDescription', 'maintenanceType', 'requester'),
  customerId: input.requester === 'customer' ? (input.customerId ?? null) : null,
  ...pick(input, 'priority', 'assignedTo', 'dateOfRequest'),
  ...orNull(input, 'assetId', 'failureReason', 'urgencyLevel'),
  riskLevel: input.riskLevel,
  ...orNull(input, 'scheduleDate', 'frequency', 'sensorData', 'condition'),
});

/** Adds a request (state new unless given) and returns it with the refreshed list. */
export async function addMaintenanceRequest(tx: Tx, orgId: number, actor: AccessClaims, input: MaintenanceRequestInput, query: MaintenanceRequestsQuery) {
  await checkReferences(tx, orgId, input);
  checkStateAllowed(actor, input.state);
  const [created] = await tx
    .insert(r)
    .values({ orgId, ...valuesOf(input), state: input.state ?? 'new', images: input.images ?? [], documents: input.documents ?? [] })
    .returning({ id: r.id });
  await history(tx, orgId, created.id, actor.userId, 'created');
  // A new request waits for a manager's approval (decision 074).
  if ((input.state ?? 'new') === 'new')
    await notify(tx, orgId, {
      kind: 'request-approval',
      entityType: ENTITY,
      entityId: created.id,
      recipients: await managersOf(tx, orgId),
      actorId: actor.userId,
      data: { title: input.title, number: displayNumber(ENTITY, created.id) },
    });
  await markAssetDown(tx, orgId, input.assetId ?? null, input.assetDown, { setBy: actor.userId, maintenanceRequestId: created.id });
  await emitWebhookEvent(tx, orgId, 'maintenance-request.created', () => getMaintenanceRequest(tx, orgId, created.id));
  return {
    message: 'Maintenance request added successfully',
    maintenanceRequest: await getMaintenanceRequest(tx, orgId, created.id),
    ...(await listMaintenanceRequests(tx, orgId, query)),
  };
}

/** Replaces a request's fields (state only when given; attachments only when given). */
export async function updateMaintenanceRequest(tx: Tx, orgId: number, actor: AccessClaims, id: number, input: MaintenanceRequestInput) {
  // Refuses an edit made from an older version and locks the request until this edit commits (decision 025).
  if (!(await claimVersion(tx, r, orgId, id, input.version))) throw new StaleEdit(await getMaintenanceRequest(tx, orgId, id));
  const before = await getMaintenanceRequest(tx, orgId, id);
  await checkReferences(tx, orgId, input);
  checkStateAllowed(actor, input.state && input.state !== before.state ? input.state : undefined);
  const values = {
    ...valuesOf(input),
    ...(input.state ? { state: input.state } : {}),
    ...(input.images ? { images: input.images } : {}),
    ...(input.documents ? { documents: input.documents } : {}),
  };
  await tx
    .update(r)
    .set(values)
    .where(and(eq(r.orgId, orgId), eq(r.id, id)));
  const changes = diffChanges(before as unknown as Record<string, unknown>, values as Record<string, unknown>, Object.keys(values));
  if (Object.keys(changes).length) await history(tx, orgId, id, actor.userId, 'updated', changes);
  if (Object.keys(changes).length)
    await emitWebhookEvent(tx, orgId, 'maintenance-request.updated', async () => ({ ...(await getMaintenanceRequest(tx, orgId, id)), changes }));
  await markAssetDown(tx, orgId, values.assetId, input.assetDown, { setBy: actor.userId, maintenanceRequestId: id });
  if (changes.state) await requestClosed(tx, orgId, id, values.assetId, values.state, actor.userId);
  // A portal request accepted into this one follows its state and schedule (decision 039).
  if (changes.state || changes.scheduleDate) await maintenanceWorkChanged(tx, orgId, id);
  const request = await getMaintenanceRequest(tx, orgId, id);
  return { message: 'Maintenance request updated successfully', request, maintenanceRequest: request };
}

/** A request closed (completed, cancelled, rejected) brings its asset back up from the request's own down interval (decision 079). */
async function requestClosed(tx: Tx, orgId: number, id: number, assetId: number | null, state: RequestState | undefined, userId: number) {
  if (state === 'completed' || state === 'cancelled' || state === 'rejected')
    await workDone(tx, orgId, assetId, 'own', { setBy: userId, maintenanceRequestId: id });
}

/** PUT update-state/{id}: the drawer's state dropdown. */
export async function updateRequestState(tx: Tx, orgId: number, actor: AccessClaims, id: number, state: RequestState) {
  const before = await getMaintenanceRequest(tx, orgId, id);
  if (before.state !== state) {
    checkStateAllowed(actor, state);
    await tx
      .update(r)
      .set({ state })
      .where(and(eq(r.orgId, orgId), eq(r.id, id)));
    await history(tx, orgId, id, actor.userId, 'status', { state: { from: before.state, to: state } });
    await emitWebhookEvent(tx, orgId, 'maintenance-request.updated', async () => ({
      ...(await getMaintenanceRequest(tx, orgId, id)),
      changes: { state: { from: before.state, to: state } },
    }));
    await requestClosed(tx, orgId, id, before.assetId, state, actor.userId);
    await maintenanceWorkChanged(tx, orgId, id);
  }
  const request = await getMaintenanceRequest(tx, orgId, id);
  return { message: 'Maintenance request state updated successfully', request, maintenanceRequest: request, state: request.state };
}

/** Deletes a request that no maintenance order was planned from, and returns the refreshed list. */
export async function deleteMaintenanceRequest(tx: Tx, orgId: number, actor: AccessClaims, id: number, query: MaintenanceRequestsQuery) {
  const before = await getMaintenanceRequest(tx, orgId, id);
  if (before.maintenanceOrder) throw conflict(`This request has a maintenance order (${before.maintenanceOrder.maintenanceOrderId}) and cannot be deleted`);
  try {
    await tx.delete(r).where(and(eq(r.orgId, orgId), eq(r.id, id)));
  } catch (err) {
    if (pgCode(err) === '23503') throw conflict('This request is used by other records and cannot be deleted');
    throw err;
  }
  discardFiles(
    tx,
    [...before.documents, ...before.images].map((d) => d.url),
  );
  await maintenanceWorkChanged(tx, orgId, id);
  await history(tx, orgId, id, actor.userId, 'deleted', { title: { from: before.title, to: null } });
  return { message: 'Maintenance request deleted successfully', ...(await listMaintenanceRequests(tx, orgId, query)) };
}

/** Appends uploaded documents to a request's attachments. */
export async function addRequestAttachments(tx: Tx, orgId: number, actor: AccessClaims, id: number, files: Attachment[]) {
  const before = await getMaintenanceRequest(tx, orgId, id);
  if (before.documents.length + files.length > 50) throw new HttpError(409, 'A request can hold at most 50 attachments');
  const documents = [...before.documents, ...files];
  await tx
    .update(r)
    .set({ documents })
    .where(and(eq(r.orgId, orgId), eq(r.id, id)));
  await history(tx, orgId, id, actor.userId, 'attachment', { documents: { from: null, to: files.map((f) => f.name) } });
  const request = await getMaintenanceRequest(tx, orgId, id);
  return { message: 'Attachments uploaded successfully', request, maintenanceRequest: request };
}

/** Removes one attachment (by its URL) from a request. */
export async function deleteRequestAttachment(tx: Tx, orgId: number, actor: AccessClaims, id: number, url: string) {
  const before = await getMaintenanceRequest(tx, orgId, id);
  const removed = before.documents.find((d) => d.url === url) ?? before.images.find((d) => d.url === url);
  if (!removed) throw notFound('Attachment');
  await tx
    .update(r)
    .set({ documents: before.documents.filter((d) => d.url !== url), images: before.images.filter((d) => d.url !== url) })
    .where(and(eq(r.orgId, orgId), eq(r.id, id)));
  discardFiles(tx, [removed.url]);
  await history(tx, orgId, id, actor.userId, 'attachment', { documents: { from: removed.name, to: null } });
  const request = await getMaintenanceRequest(tx, orgId, id);
  return { message: 'Attachment deleted successfully', request, maintenanceRequest: request };
}
