import { getFailureCodeSettings, listFailureCodes } from '../failure-codes/failure-codes.service';
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { parts, timeTrackingReasons, workOrderPhotos, workOrders } from '../../server/db/schema';
import { pageAndTotal, totalOver } from '../../server/db/paging';
import { pagination, type PageQuery } from '../../shared/pagination';
import type { AccessClaims } from '../auth/tokens';
import { recordActivity } from '../activity/activity.service';
import { assignedTo, getWorkOrder, laborRowsByOrder, partsAnswersByOrder, seesAmounts, workOrdersAsShown } from '../work-orders/work-orders.service';
import { readWorkOrderProcedures } from '../procedures/procedures.service';
import type { WorkOrderStatus } from '../work-orders/work-order-values';
import type { MyPartDto, MyWorkOrderDto, WorkOrderPhotoDto } from './my-work.schema';

const OPEN: WorkOrderStatus[] = ['assigned', 'in-progress'];
const p = workOrderPhotos;
const photoColumns = { id: p.id, workOrderId: p.workOrderId, url: p.url, userId: p.userId, createdAt: p.createdAt };
const toPhoto = (r: { id: number; workOrderId: number; url: string; userId: number | null; createdAt: Date }): WorkOrderPhotoDto => ({
  ...r,
  createdAt: r.createdAt.toISOString(),
});

async function photosOf(tx: ReadTx, orgId: number, workOrderIds: number[]) {
  if (!workOrderIds.length) return [];
  const rows = await tx
    .select(photoColumns)
    .from(p)
    .where(and(eq(p.orgId, orgId), inArray(p.workOrderId, workOrderIds)))
    .orderBy(asc(p.id));
  return rows.map(toPhoto);
}

/**
 * GET list-my-work: the open work orders assigned to the caller (a manager's too: only those assigned to
 * them), soonest due first, each with its procedure, labour, parts and photos, and every time-tracking reason:
 * the technician's device copy in one call per page (decision 041).
 */
export async function listMyWork(tx: ReadTx, orgId: number, actor: AccessClaims, query: PageQuery) {
  const values = { limit: query.pageSize, offset: (query.page - 1) * query.pageSize };
  const { rows, total } = await pageAndTotal(values, (v) =>
    tx
      .select({ id: workOrders.id, total: totalOver() })
      .from(workOrders)
      .where(and(eq(workOrders.orgId, orgId), inArray(workOrders.status, OPEN), assignedTo(orgId, actor.userId)))
      .orderBy(sql`${workOrders.dueDate} asc nulls last`, asc(workOrders.id))
      .limit(v.limit)
      .offset(v.offset),
  );
  const ids = rows.map((r) => r.id);
  // The page's orders (assigned to the caller: theirs to see) and their procedures, labour, parts and photos as
  // their own GETs give them, each read once for the whole page: a statement per kind, not per order.
  const shown = await workOrdersAsShown(tx, orgId, ids);
  const procedures = await readWorkOrderProcedures(tx, orgId, ids);
  const labors = await laborRowsByOrder(tx, orgId, ids, seesAmounts(actor));
  const partsOf = await partsAnswersByOrder(tx, orgId, actor, ids);
  const photos = await photosOf(tx, orgId, ids);
  const orders: MyWorkOrderDto[] = shown.map((workOrder) => {
    const id = workOrder.id;
    const { workOrderParts, partsReadiness } = partsOf.get(id)!;
    const own = photos.filter((x) => x.workOrderId === id);
    return { id, workOrder, procedure: procedures.get(id) ?? null, labors: labors.get(id)!, parts: workOrderParts, partsReadiness, photos: own };
  });
  const reasons = await tx
    .select({ id: timeTrackingReasons.id, name: timeTrackingReasons.name })
    .from(timeTrackingReasons)
    .where(eq(timeTrackingReasons.orgId, orgId))
    .orderBy(asc(timeTrackingReasons.name), asc(timeTrackingReasons.id));
  // Failure codes and whether closing requires them (decision 080): reference data the device keeps, as the reasons.
  const { failureCodes } = await listFailureCodes(tx, orgId);
  const { requireCodes } = await getFailureCodeSettings(tx, orgId);
  return { workOrders: orders, reasons, failureCodes, requireFailureCodes: requireCodes, pagination: pagination(total, query.page, query.pageSize) };
}

/** GET list-my-parts: the organisation's parts (id, name, SKU code) after `after`, by id; `next` for the following call. */
export async function listMyParts(tx: ReadTx, orgId: number, query: { after: number; limit: number }): Promise<{ parts: MyPartDto[]; next: number | null }> {
  const rows = await tx
    .select({ id: parts.id, name: parts.name, skuCode: parts.skuCode })
    .from(parts)
    .where(and(eq(parts.orgId, orgId), gt(parts.id, query.after)))
    .orderBy(asc(parts.id))
    .limit(query.limit + 1);
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  return { parts: page, next: more ? page[page.length - 1].id : null };
}

/** GET list-photos/{id}: a work order's photos, for whoever may see the order (404 otherwise). */
export async function listWorkOrderPhotos(tx: ReadTx, orgId: number, actor: AccessClaims, workOrderId: number) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  return { photos: await photosOf(tx, orgId, [workOrderId]) };
}

/** Before a photo's bytes are read: the work order exists and the caller may see it (404 otherwise). */
export async function checkPhotoTarget(tx: ReadTx, orgId: number, actor: AccessClaims, workOrderId: number) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
}

/** POST add-photo/{id}: keeps a stored photo on the work order, with a history line. */
export async function addWorkOrderPhoto(tx: Tx, orgId: number, actor: AccessClaims, workOrderId: number, url: string) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  const [row] = await tx.insert(p).values({ orgId, workOrderId, url, userId: actor.userId }).returning(photoColumns);
  await recordActivity(tx, orgId, {
    entityType: 'work-order',
    entityId: workOrderId,
    userId: actor.userId,
    action: 'attachment',
    changes: { photo: { from: null, to: 'photo' } },
  });
  return { message: 'Photo added', photo: toPhoto(row), photos: await photosOf(tx, orgId, [workOrderId]) };
}
