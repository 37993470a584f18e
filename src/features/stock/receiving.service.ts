import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { parts, purchaseOrderLines, purchaseOrders, stockLevels, stockLocations, stockMoves, stockPartSettings } from '../../server/db/schema';
import { badRequest, notFound } from '../../server/http-error';
import { emitWebhookEvent } from '../webhooks/webhooks.service';
import { purchaseOrderNumber } from '../purchase-orders/purchase-orders.schema';
import { getMove, lockStockablePart, postMove, shortageConflict } from './stock.service';
import type { ReceiptInput, ReceivingDto, ReceivingStatus } from './stock.schema';
import { round3 } from './stock-quantity';
import { readOrgRow } from '../../server/db/org-rows';

// Receiving (decision 081): a purchase order's stockable part lines come into a location as `receipt` moves that
// carry the purchase order's id and the line's unit cost. What was received is the ledger's sum of those moves
// for the order and part (nothing stored on the order's lines, which the spec's update call rewrites). The part's
// average unit cost is a moving average:
//   new average = (quantity on hand before × old average + received × unit cost) / (quantity on hand before + received)
// rounded to the currency's minor unit; with no stock before (or none known) it is the receipt's unit cost.

/** A line's unit cost in minor units: its unit price less its discount (tax left out: a purchase tax is recovered). */
const unitCostOf = (unitPrice: number, discount: number) => Math.round(Number(unitPrice) * (1 - Number(discount) / 100));

async function requireOrder(tx: ReadTx, orgId: number, id: number) {
  const order = await readOrgRow(tx, purchaseOrders, { id: purchaseOrders.id, vendorId: purchaseOrders.vendorId }, orgId, id);
  if (!order) throw notFound('Purchase order');
  return order;
}

/** Ordered and received per stockable part of one purchase order (lines of the same part add up). */
async function receivingLines(tx: ReadTx, orgId: number, purchaseOrderId: number) {
  const lines = await tx
    .select({
      partId: purchaseOrderLines.partId,
      name: parts.name,
      quantity: purchaseOrderLines.quantity,
      unitPrice: purchaseOrderLines.unitPrice,
      discount: purchaseOrderLines.discount,
    })
    .from(purchaseOrderLines)
    .innerJoin(parts, and(eq(parts.orgId, purchaseOrderLines.orgId), eq(parts.id, purchaseOrderLines.partId)))
    .where(and(eq(purchaseOrderLines.orgId, orgId), eq(purchaseOrderLines.purchaseOrderId, purchaseOrderId), eq(parts.type, 'stockable')))
    .orderBy(asc(purchaseOrderLines.position), asc(purchaseOrderLines.id));
  const received = await tx
    .select({ partId: stockMoves.partId, quantity: sql<string>`sum(${stockMoves.quantity})` })
    .from(stockMoves)
    .where(and(eq(stockMoves.orgId, orgId), eq(stockMoves.purchaseOrderId, purchaseOrderId), eq(stockMoves.reason, 'receipt')))
    .groupBy(stockMoves.partId);
  const byPart = new Map<number, { partId: number; part: { id: number; name: string }; ordered: number; received: number; unitCostMinor: number }>();
  for (const l of lines) {
    const partId = l.partId!;
    const row = byPart.get(partId) ?? {
      partId,
      part: { id: partId, name: l.name },
      ordered: 0,
      received: round3(Number(received.find((r) => r.partId === partId)?.quantity ?? 0)),
      unitCostMinor: unitCostOf(Number(l.unitPrice), Number(l.discount)),
    };
    row.ordered = round3(row.ordered + Number(l.quantity));
    byPart.set(partId, row);
  }
  return [...byPart.values()].map((r) => ({ ...r, outstanding: round3(Math.max(0, r.ordered - r.received)) }));
}

const statusOf = (lines: { ordered: number; received: number }[]): ReceivingStatus =>
  !lines.length || lines.every((l) => l.received <= 0) ? 'not-received' : lines.every((l) => l.received >= l.ordered) ? 'fully-received' : 'partly-received';

/** GET get-receiving/{id}: a purchase order's part lines, ordered, received and outstanding, and its receiving status. */
export async function getReceiving(tx: ReadTx, orgId: number, purchaseOrderId: number): Promise<ReceivingDto> {
  await requireOrder(tx, orgId, purchaseOrderId);
  const lines = await receivingLines(tx, orgId, purchaseOrderId);
  return { purchaseOrderId, receivingStatus: statusOf(lines), lines };
}

/** The receiving status of several purchase orders (reorder counts what they still bring). */
export async function outstandingByOrder(tx: ReadTx, orgId: number, purchaseOrderIds: number[]) {
  const out = new Map<number, Awaited<ReturnType<typeof receivingLines>>>();
  for (const id of purchaseOrderIds) out.set(id, await receivingLines(tx, orgId, id));
  return out;
}

/**
 * POST receive-purchase-order/{id}: the quantities received per part into a location. Each is a `receipt` move
 * with the line's unit cost, and the part's moving average cost follows. More than is outstanding is refused (400).
 */
export async function receivePurchaseOrder(tx: Tx, orgId: number, userId: number, purchaseOrderId: number, input: ReceiptInput) {
  const order = await requireOrder(tx, orgId, purchaseOrderId);
  const location = await readOrgRow(tx, stockLocations, { id: stockLocations.id, name: stockLocations.name }, orgId, input.locationId);
  if (!location) throw badRequest('Location does not exist in this organization', 'locationId');
  // One lock order (decision 071): parts by id.
  const wanted = [...input.lines].sort((a, b) => a.partId - b.partId);
  for (const l of wanted) await lockStockablePart(tx, orgId, l.partId, 'lines');
  const lines = await receivingLines(tx, orgId, purchaseOrderId);
  const number = purchaseOrderNumber(purchaseOrderId);
  const moveIds: number[] = [];
  for (const [i, want] of wanted.entries()) {
    const line = lines.find((l) => l.partId === want.partId);
    if (!line) throw badRequest(`This part is not on ${number}`, `lines.${i}.partId`);
    if (want.quantity > line.outstanding)
      throw badRequest(`Cannot receive more than ordered: ${line.part.name} has ${line.outstanding} left to receive on ${number}`, `lines.${i}.quantity`);
    const [settings] = await tx
      .select({ averageCostMinor: stockPartSettings.averageCostMinor })
      .from(stockPartSettings)
      .where(and(eq(stockPartSettings.orgId, orgId), eq(stockPartSettings.partId, want.partId)));
    const [part] = await tx
      .select({ onHand: parts.quantityOnHand })
      .from(parts)
      .where(and(eq(parts.orgId, orgId), eq(parts.id, want.partId)));
    const averageCostMinor = movingAverage(Number(part.onHand), settings?.averageCostMinor ?? null, want.quantity, line.unitCostMinor);
    await tx
      .insert(stockPartSettings)
      .values({ orgId, partId: want.partId, averageCostMinor })
      .onConflictDoUpdate({ target: [stockPartSettings.orgId, stockPartSettings.partId], set: { averageCostMinor } });
    moveIds.push(
      await postMove(
        tx,
        orgId,
        {
          partId: want.partId,
          fromLocationId: null,
          toLocationId: location.id,
          quantity: want.quantity,
          reason: 'receipt',
          userId,
          note: input.note ?? number,
          purchaseOrderId,
          unitCostMinor: line.unitCostMinor,
        },
        { allowNegative: false, shortage: shortageConflict },
      ),
    );
  }
  const receiving = await getReceiving(tx, orgId, purchaseOrderId);
  await emitWebhookEvent(tx, orgId, 'stock.received', {
    purchaseOrderId,
    number,
    vendorId: order.vendorId,
    location: location,
    receivingStatus: receiving.receivingStatus,
    lines: wanted.map((w) => ({ partId: w.partId, quantity: w.quantity })),
  });
  const stockMoveRows = [];
  for (const id of moveIds) stockMoveRows.push(await getMove(tx, orgId, id));
  return { message: 'Purchase order received successfully', receiving, stockMoves: stockMoveRows };
}

/** The moving average unit cost after a receipt (minor units); see the formula at the top. */
export function movingAverage(onHandBefore: number, averageBefore: number | null, received: number, unitCostMinor: number): number {
  if (averageBefore === null || onHandBefore <= 0) return unitCostMinor;
  return Math.round((onHandBefore * averageBefore + received * unitCostMinor) / (onHandBefore + received));
}

/** The average unit cost of parts (minor units; null when never received). */
export async function averageCosts(tx: ReadTx, orgId: number, partIds: number[]) {
  if (!partIds.length) return new Map<number, number | null>();
  const rows = await tx
    .select({ partId: stockPartSettings.partId, averageCostMinor: stockPartSettings.averageCostMinor })
    .from(stockPartSettings)
    .where(and(eq(stockPartSettings.orgId, orgId), inArray(stockPartSettings.partId, partIds)));
  return new Map(rows.map((r) => [r.partId, r.averageCostMinor]));
}

/**
 * GET get-stock-valuation: per location, the sum of quantity × average unit cost (minor units) of its parts.
 * Parts never received have no average cost: counted apart (`unvaluedParts`), valued 0.
 */
export async function stockValuation(tx: ReadTx, orgId: number) {
  const rows = await tx
    .select({
      id: stockLocations.id,
      name: stockLocations.name,
      valueMinor: sql<string>`coalesce(sum(round(${stockLevels.quantity} * ${stockPartSettings.averageCostMinor})) filter (where ${stockLevels.quantity} > 0), 0)`,
      parts: sql<number>`count(${stockLevels.partId}) filter (where ${stockLevels.quantity} <> 0)`,
      unvaluedParts: sql<number>`count(${stockLevels.partId}) filter (where ${stockLevels.quantity} <> 0 and ${stockPartSettings.averageCostMinor} is null)`,
    })
    .from(stockLocations)
    .leftJoin(stockLevels, and(eq(stockLevels.orgId, stockLocations.orgId), eq(stockLevels.locationId, stockLocations.id)))
    .leftJoin(stockPartSettings, and(eq(stockPartSettings.orgId, stockLevels.orgId), eq(stockPartSettings.partId, stockLevels.partId)))
    .where(eq(stockLocations.orgId, orgId))
    .groupBy(stockLocations.id, stockLocations.name, stockLocations.isDefault)
    .orderBy(sql`${stockLocations.isDefault} desc`, asc(stockLocations.name));
  const locations = rows.map((r) => ({
    location: { id: r.id, name: r.name },
    valueMinor: Number(r.valueMinor),
    parts: Number(r.parts),
    unvaluedParts: Number(r.unvaluedParts),
  }));
  return { locations, totalMinor: locations.reduce((s, l) => s + l.valueMinor, 0) };
}
