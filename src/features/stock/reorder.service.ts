import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import {
  customerVendors,
  parts,
  purchaseOrderLines,
  stockLevels,
  stockLocations,
  stockMoves,
  stockPartSettings,
  stockReorders,
  taxes,
  users,
} from '../../server/db/schema';
import { badRequest, notFound } from '../../server/http-error';
import { now } from '../../server/clock';
import { toMajor } from '../../shared/money';
import { recordActivity } from '../activity/activity.service';
import { moneySettings } from '../organization/organization.service';
import { purchaseOrderNumber } from '../purchase-orders/purchase-orders.schema';
import { purchaseOrderDocs } from '../purchase-orders/purchase-orders.service';
import { emitWebhookEvent } from '../webhooks/webhooks.service';
import { outstandingByOrder } from './receiving.service';
import { reservedByLevel } from './reservations.service';
import { defaultLocationId } from './stock.service';
import type { PartStockSettingsDto, PartStockSettingsInput, ReorderResult } from './stock.schema';
import { round3 } from './stock-quantity';
import { pick } from '../../shared/pick';
import { readOrgRow } from '../../server/db/org-rows';

// Reorder (decision 081). A part is short at a location when what is available there (on hand - reserved) plus
// what purchase orders still bring there (ordered - received) is below the location's reorder point. The run
// drafts one purchase order per preferred vendor with a line per short part: the reorder quantity, or what
// reaches the reorder point when that is more. Each drafted line is remembered (stock_reorders: order, part,
// location), so the next run counts it as on order: running twice drafts nothing the second time. Purchase
// orders written by hand count for the default location.

/** What purchase orders still bring per part and location (key `${partId}:${locationId}`). */
async function onOrder(tx: ReadTx, orgId: number, defaultLocation: number): Promise<Map<string, number>> {
  const orderIds = (
    await tx
      .selectDistinct({ id: purchaseOrderLines.purchaseOrderId })
      .from(purchaseOrderLines)
      .innerJoin(parts, and(eq(parts.orgId, purchaseOrderLines.orgId), eq(parts.id, purchaseOrderLines.partId)))
      .where(and(eq(purchaseOrderLines.orgId, orgId), eq(parts.type, 'stockable')))
  ).map((r) => r.id);
  const drafted = orderIds.length
    ? await tx
        .select({
          ...pick(stockReorders, 'purchaseOrderId', 'partId', 'locationId', 'quantity'),
        })
        .from(stockReorders)
        .where(and(eq(stockReorders.orgId, orgId), inArray(stockReorders.purchaseOrderId, orderIds)))
        .orderBy(asc(stockReorders.id))
    : [];
  // Receipts per order, part and location: a drafted line for a location is on order until that much came there.
  const receipts = orderIds.length
    ? await tx
        .select({
          purchaseOrderId: stockMoves.purchaseOrderId,
          partId: stockMoves.partId,
          locationId: stockMoves.toLocationId,
          quantity: sql<string>`sum(${stockMoves.quantity})`,
        })
        .from(stockMoves)
        .where(and(eq(stockMoves.orgId, orgId), eq(stockMoves.reason, 'receipt'), inArray(stockMoves.purchaseOrderId, orderIds)))
        .groupBy(stockMoves.purchaseOrderId, stockMoves.partId, stockMoves.toLocationId)
    : [];
  const out = new Map<string, number>();
  const add = (partId: number, locationId: number, quantity: number) => {
    if (quantity <= 0) return;
    const key = `${partId}:${locationId}`;
    out.set(key, round3((out.get(key) ?? 0) + quantity));
  };
  for (const [orderId, lines] of await outstandingByOrder(tx, orgId, orderIds)) {
    for (const line of lines) {
      if (line.outstanding <= 0) continue;
      const rows = drafted.filter((d) => d.purchaseOrderId === orderId && d.partId === line.partId);
      if (!rows.length) {
        add(line.partId, defaultLocation, line.outstanding);
        continue;
      }
      // Never more than the line still brings, shared out in the order the locations asked.
      let left = line.outstanding;
      for (const row of rows) {
        const came = Number(receipts.find((r) => r.purchaseOrderId === orderId && r.partId === line.partId && r.locationId === row.locationId)?.quantity ?? 0);
        const here = Math.min(left, Math.max(0, Number(row.quantity) - came));
        add(line.partId, row.locationId, here);
        left = round3(left - here);
      }
    }
  }
  return out;
}

/**
 * Drafts the purchase orders the stock needs (the reorder job, daily, and a manager's "Draft reorders").
 * `userId` is the manager who asked, or null for the job: the order's requester is then the organisation's
 * first admin. Each order goes to the bell (its history) and each short part to the `stock.below-reorder-point` webhook.
 */
export async function draftReorders(tx: Tx, orgId: number, userId: number | null): Promise<ReorderResult> {
  const defaultLocation = await defaultLocationId(tx, orgId);
  const levels = await tx
    .select({
      ...pick(stockLevels, 'partId', 'locationId', 'quantity', 'reorderPoint', 'reorderQuantity'),
      partName: parts.name,
      locationName: stockLocations.name,
      vendorId: stockPartSettings.preferredVendorId,
      averageCostMinor: stockPartSettings.averageCostMinor,
    })
    .from(stockLevels)
    .innerJoin(parts, and(eq(parts.orgId, stockLevels.orgId), eq(parts.id, stockLevels.partId)))
    .innerJoin(stockLocations, and(eq(stockLocations.orgId, stockLevels.orgId), eq(stockLocations.id, stockLevels.locationId)))
    .leftJoin(stockPartSettings, and(eq(stockPartSettings.orgId, stockLevels.orgId), eq(stockPartSettings.partId, stockLevels.partId)))
    .where(and(eq(stockLevels.orgId, orgId), gt(stockLevels.reorderPoint, 0), eq(parts.type, 'stockable')))
    .orderBy(asc(stockLevels.partId), asc(stockLevels.locationId));
  const reserved = await reservedByLevel(tx, orgId);
  const coming = await onOrder(tx, orgId, defaultLocation);
  const vendors = new Map(
    (
      await tx
        .select({ id: customerVendors.id, name: customerVendors.name })
        .from(customerVendors)
        .where(and(eq(customerVendors.orgId, orgId), eq(customerVendors.type, 'vendor')))
    ).map((v) => [v.id, v.name]),
  );
  type Need = (typeof levels)[number] & { available: number; onOrder: number; order: number };
  const byVendor = new Map<number, Need[]>();
  const withoutVendor = new Map<number, string>();
  for (const l of levels) {
    const key = `${l.partId}:${l.locationId}`;
    const available = round3(Number(l.quantity) - (reserved.get(key) ?? 0));
    const onOrderHere = coming.get(key) ?? 0;
    const projected = round3(available + onOrderHere);
    if (projected >= Number(l.reorderPoint)) continue;
    // Lines are whole units (the purchase order's quantities).
    const order = Math.ceil(Math.max(Number(l.reorderQuantity), Number(l.reorderPoint) - projected));
    if (l.vendorId === null || !vendors.has(l.vendorId)) {
      withoutVendor.set(l.partId, l.partName);
      continue;
    }
    byVendor.set(l.vendorId, [...(byVendor.get(l.vendorId) ?? []), { ...l, available, onOrder: onOrderHere, order }]);
  }
  const result: ReorderResult = {
    message: 'Reorders drafted successfully',
    purchaseOrders: [],
    drafted: 0,
    withoutVendor: [...withoutVendor].map(([id, name]) => ({ id, name })),
  };
  if (!byVendor.size) return result;
  const [tax] = await tx
    .select({ id: taxes.id })
    .from(taxes)
    .where(and(eq(taxes.orgId, orgId), eq(taxes.scope, 'purchase')))
    .orderBy(asc(taxes.id))
    .limit(1);
  if (!tax) throw badRequest('Add a purchase tax first: purchase order lines need one');
  const requesterId = userId ?? (await firstAdmin(tx, orgId));
  const { digits } = await moneySettings(tx, orgId);
  for (const [vendorId, needs] of [...byVendor].sort((a, b) => a[0] - b[0])) {
    // One line per part: a part short at two locations is ordered once, for both.
    const perPart = new Map<number, { need: Need; quantity: number }>();
    for (const n of needs) perPart.set(n.partId, { need: n, quantity: (perPart.get(n.partId)?.quantity ?? 0) + n.order });
    const added = await purchaseOrderDocs.add(
      tx,
      orgId,
      requesterId,
      {
        vendorId,
        requesterId,
        purchaseOrderDate: now(),
        status: 'draft',
        note: 'Drafted by reorder',
        serviceDetails: [],
        partDetails: [...perPart.values()].map(({ need, quantity }) => ({
          partId: need.partId,
          quantity,
          discount: 0,
          taxId: tax.id,
          ...(need.averageCostMinor !== null ? { unitPrice: toMajor(need.averageCostMinor, digits) } : {}),
        })),
      },
      { page: 1, pageSize: 1 },
    );
    const purchaseOrderId = (added.purchaseOrder as unknown as { id: number }).id;
    await tx.insert(stockReorders).values(needs.map((n) => ({ orgId, purchaseOrderId, partId: n.partId, locationId: n.locationId, quantity: n.order })));
    await recordActivity(tx, orgId, {
      entityType: 'purchase-order',
      entityId: purchaseOrderId,
      userId,
      action: 'updated',
      note: `Drafted by reorder: ${needs.map((n) => `${n.order} x ${n.partName} for ${n.locationName}`).join(', ')}`,
    });
    for (const n of needs)
      await emitWebhookEvent(tx, orgId, 'stock.below-reorder-point', {
        partId: n.partId,
        name: n.partName,
        location: { id: n.locationId, name: n.locationName },
        available: n.available,
        onOrder: n.onOrder,
        reorderPoint: Number(n.reorderPoint),
        ordered: n.order,
        purchaseOrderId,
      });
    result.purchaseOrders.push({
      id: purchaseOrderId,
      number: purchaseOrderNumber(purchaseOrderId),
      vendor: { id: vendorId, name: vendors.get(vendorId)! },
      lines: perPart.size,
    });
    result.drafted += needs.length;
  }
  return result;
}

async function firstAdmin(tx: ReadTx, orgId: number) {
  const [admin] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.orgId, orgId), sql`${users.role} in ('admin', 'manager')`))
    .orderBy(sql`${users.role} = 'admin' desc`, asc(users.id))
    .limit(1);
  if (!admin) throw badRequest('The organisation has no manager to request the reorder');
  return admin.id;
}

// ---- A part's stock settings ----

/** GET get-part-stock-settings/{id}: the preferred vendor and the average cost. */
export async function getPartStockSettings(tx: ReadTx, orgId: number, partId: number): Promise<PartStockSettingsDto> {
  const [part] = await tx
    .select({
      id: parts.id,
      vendorId: stockPartSettings.preferredVendorId,
      vendorName: customerVendors.name,
      averageCostMinor: stockPartSettings.averageCostMinor,
    })
    .from(parts)
    .leftJoin(stockPartSettings, and(eq(stockPartSettings.orgId, parts.orgId), eq(stockPartSettings.partId, parts.id)))
    .leftJoin(customerVendors, and(eq(customerVendors.orgId, parts.orgId), eq(customerVendors.id, stockPartSettings.preferredVendorId)))
    .where(and(eq(parts.orgId, orgId), eq(parts.id, partId)));
  if (!part) throw notFound('Part');
  return {
    partId,
    preferredVendor: part.vendorId !== null && part.vendorName !== null ? { id: part.vendorId, name: part.vendorName } : null,
    averageCostMinor: part.averageCostMinor ?? null,
  };
}

/** PUT update-part-stock-settings: the part's preferred vendor (a vendor of the organisation, or null). */
export async function updatePartStockSettings(tx: Tx, orgId: number, input: PartStockSettingsInput) {
  await getPartStockSettings(tx, orgId, input.partId);
  const vendorId = input.preferredVendorId ?? null;
  if (vendorId !== null) {
    const vendor = await readOrgRow(tx, customerVendors, { type: customerVendors.type }, orgId, vendorId);
    if (!vendor) throw badRequest('Vendor not found', 'preferredVendorId');
    if (vendor.type !== 'vendor') throw badRequest('The vendor must be a vendor, not a customer', 'preferredVendorId');
  }
  await tx
    .insert(stockPartSettings)
    .values({ orgId, partId: input.partId, preferredVendorId: vendorId })
    .onConflictDoUpdate({ target: [stockPartSettings.orgId, stockPartSettings.partId], set: { preferredVendorId: vendorId } });
  return { message: 'Part stock settings updated successfully', settings: await getPartStockSettings(tx, orgId, input.partId) };
}
