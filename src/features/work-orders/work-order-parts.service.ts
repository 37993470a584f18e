import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { parts, stockLocations, workOrderParts } from '../../server/db/schema';
import { requireReferences } from '../../server/db/references';
import { consumeForLine, consumedForLine, defaultLocationId, isStockable, returnForLine } from '../stock/stock.service';
import { partsReadiness } from '../stock/reservations.service';
import { badRequest, notFound } from '../../server/http-error';
import type { AccessClaims } from '../auth/tokens';
import { historyOf } from '../activity/activity.service';
import { MAX_LINE_COST_MINOR, MAX_LINE_QUANTITY, type WorkOrderPartDto, type addPartsSchema } from './work-orders.schema';
import type { z } from 'zod';
import { toMajor, toMinor } from '../../shared/money';
import { moneySettings } from '../organization/organization.service';
import { ENTITY, getWorkOrder } from './work-order-read.service';
import { seesAmounts, lineCostMessage, externalLine } from './work-order-rules.service';
import { pick } from '../../shared/pick';
import { groupByWorkOrder } from './by-work-order';

const history = historyOf(ENTITY);

// ---- Parts ----

/** Work orders' parts, by order; `showAmounts` false (workers) leaves contractors' prices and costs out. */
async function partRowsByOrder(tx: ReadTx, orgId: number, workOrderIds: number[], showAmounts: boolean): Promise<Map<number, WorkOrderPartDto[]>> {
  if (!workOrderIds.length) return new Map();
  const rows = await tx
    .select({
      ...pick(workOrderParts, 'id', 'workOrderId', 'partId', 'quantity', 'shareId', 'externalName', 'externalUnitPriceMinor', 'unitPriceMinor', 'locationId'),
      name: parts.name,
      salesPrice: parts.salesPrice,
    })
    .from(workOrderParts)
    // A left join: a contractor's part (decision 040) is none of the inventory's.
    .leftJoin(parts, and(eq(parts.orgId, workOrderParts.orgId), eq(parts.id, workOrderParts.partId)))
    .where(and(eq(workOrderParts.orgId, orgId), inArray(workOrderParts.workOrderId, workOrderIds)))
    .orderBy(asc(workOrderParts.id));
  const digits = rows.length ? (await moneySettings(tx, orgId)).digits : 2;
  return groupByWorkOrder(workOrderIds, rows, (r) => {
    const external = externalLine(r, showAmounts, r.externalUnitPriceMinor ?? 0, (r.externalUnitPriceMinor ?? 0) * r.quantity);
    return {
      ...pick(r, 'id', 'workOrderId', 'partId'),
      Part: external
        ? { id: null, name: external.name, salesPrice: external.rateMinor === null ? null : toMajor(external.rateMinor, digits) }
        : // The price the line kept when the part was used (decision 063), so the tab's totals are the order's cost.
          {
            id: r.partId,
            name: r.name ?? '',
            salesPrice: showAmounts ? (r.unitPriceMinor !== null ? toMajor(r.unitPriceMinor, digits) : Number(r.salesPrice)) : null,
          },
      quantity: r.quantity,
      locationId: r.locationId,
      external,
    };
  });
}

/** A work order's parts; `showAmounts` false (workers) leaves contractors' prices and costs out. */
export async function listPartRows(tx: ReadTx, orgId: number, workOrderId: number, showAmounts: boolean): Promise<WorkOrderPartDto[]> {
  return (await partRowsByOrder(tx, orgId, [workOrderId], showAmounts)).get(workOrderId)!;
}

/** Work orders' part lines and whether they are there (decision 081), by order; the caller has checked the orders are theirs to see. */
export async function partsAnswersByOrder(tx: ReadTx, orgId: number, actor: AccessClaims, workOrderIds: number[]) {
  const lines = await partRowsByOrder(tx, orgId, workOrderIds, seesAmounts(actor));
  const readiness = await partsReadiness(tx, orgId, workOrderIds);
  return new Map(workOrderIds.map((id) => [id, { workOrderParts: lines.get(id)!, partsReadiness: readiness.get(id)! }]));
}

/** A work order's part lines and whether they are there (decision 081); the caller has checked the order is theirs to see. */
export async function partsAnswer(tx: ReadTx, orgId: number, actor: AccessClaims, workOrderId: number) {
  return (await partsAnswersByOrder(tx, orgId, actor, [workOrderId])).get(workOrderId)!;
}

/**
 * POST use-parts/{id}: the technician takes what the order reserves (lines the PM generator planned, decision
 * 081): each stockable line's quantity not consumed yet leaves its location as a consumption (409 on a shortage
 * unless negative stock is allowed). `partId` narrows it to one line.
 */
export async function useReservedParts(tx: Tx, orgId: number, actor: AccessClaims, workOrderId: number, partId?: number) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  const lines = await tx
    .select({ partId: workOrderParts.partId, quantity: workOrderParts.quantity, locationId: workOrderParts.locationId })
    .from(workOrderParts)
    .where(
      and(
        eq(workOrderParts.orgId, orgId),
        eq(workOrderParts.workOrderId, workOrderId),
        sql`${workOrderParts.shareId} is null`,
        partId ? eq(workOrderParts.partId, partId) : undefined,
      ),
    )
    .orderBy(asc(workOrderParts.partId));
  if (partId && !lines.length) throw notFound('Part');
  const defaultLocation = await defaultLocationId(tx, orgId);
  const used: string[] = [];
  for (const line of lines) {
    if (line.partId === null || !(await isStockable(tx, orgId, line.partId))) continue;
    const remaining = line.quantity - (await consumedForLine(tx, orgId, workOrderId, line.partId));
    if (remaining <= 0) continue;
    const locationId = line.locationId ?? defaultLocation;
    if (line.locationId === null)
      await tx
        .update(workOrderParts)
        .set({ locationId })
        .where(and(eq(workOrderParts.orgId, orgId), eq(workOrderParts.workOrderId, workOrderId), eq(workOrderParts.partId, line.partId)));
    await consumeForLine(tx, orgId, actor.userId, { workOrderId, partId: line.partId, locationId, quantity: remaining });
    used.push(`part ${line.partId} x${remaining}`);
  }
  if (used.length) await history(tx, orgId, workOrderId, actor.userId, 'updated', { partsUsed: { from: null, to: used.join(', ') } });
  return { message: 'Work order parts used successfully', ...(await partsAnswer(tx, orgId, actor, workOrderId)) };
}

/** GET get-parts/{id}. */
export async function listParts(tx: ReadTx, orgId: number, actor: AccessClaims, workOrderId: number) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  return { ...(await partsAnswer(tx, orgId, actor, workOrderId)) };
}

/** POST add-parts/{id}: each part is attached once; adding it again adds to its quantity. */
export async function addParts(tx: Tx, orgId: number, actor: AccessClaims, workOrderId: number, input: z.output<typeof addPartsSchema>) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  const wanted = new Map<number, number>();
  const from = new Map<number, number>();
  for (const line of input.parts) {
    const { partId, quantity, locationId } = typeof line === 'number' ? { partId: line, quantity: 1, locationId: undefined } : line;
    wanted.set(partId, (wanted.get(partId) ?? 0) + quantity);
    if (locationId !== undefined) from.set(partId, locationId);
  }
  // One lock order for every taker of stock (decision 071): parts by id.
  const ids = [...wanted.keys()].sort((a, b) => a - b);
  const found = await tx
    .select({ id: parts.id, name: parts.name, salesPrice: parts.salesPrice, type: parts.type })
    .from(parts)
    .where(and(eq(parts.orgId, orgId), inArray(parts.id, ids)));
  if (found.length !== ids.length) throw badRequest('Part not found', 'parts');
  const locations = [...new Set(from.values())];
  if (locations.length) await requireReferences(tx, orgId, stockLocations, locations, 'parts', 'Location does not exist in this organization');
  const defaultLocation = await defaultLocationId(tx, orgId);
  const { digits } = await moneySettings(tx, orgId);
  // The price when used is kept on the line (decision 063); adding more of a part already on the order keeps the
  // line's price and its location.
  const lines = await tx
    .insert(workOrderParts)
    .values(
      ids.map((partId) => ({
        orgId,
        workOrderId,
        partId,
        quantity: wanted.get(partId)!,
        unitPriceMinor: toMinor(found.find((p) => p.id === partId)!.salesPrice, digits),
        locationId: from.get(partId) ?? defaultLocation,
      })),
    )
    .onConflictDoUpdate({
      target: [workOrderParts.orgId, workOrderParts.workOrderId, workOrderParts.partId],
      set: { quantity: sql`${workOrderParts.quantity} + excluded.quantity`, locationId: sql`coalesce(${workOrderParts.locationId}, excluded.location_id)` },
    })
    .returning({ partId: workOrderParts.partId, quantity: workOrderParts.quantity, locationId: workOrderParts.locationId });
  // The line as it now is (adding again adds up): a refusal rolls the whole add back.
  for (const line of lines) {
    const part = found.find((p) => p.id === line.partId)!;
    if (line.quantity > MAX_LINE_QUANTITY) throw badRequest(`${part.name}: the quantity on a work order must be at most ${MAX_LINE_QUANTITY}`, 'parts');
    if (line.quantity * toMinor(part.salesPrice, digits) > MAX_LINE_COST_MINOR)
      throw badRequest(lineCostMessage(`${part.name}: quantity × sales price`, digits), 'parts');
    if (from.has(part.id) && from.get(part.id) !== line.locationId)
      throw badRequest(`${part.name} is already on this work order from another location`, 'parts');
  }
  // What is used leaves stock (decision 071): a consumption move per stockable part, 409 when the location has too little.
  for (const partId of ids) {
    if (found.find((p) => p.id === partId)!.type !== 'stockable') continue;
    const line = lines.find((l) => l.partId === partId)!;
    await consumeForLine(tx, orgId, actor.userId, { workOrderId, partId, locationId: line.locationId ?? defaultLocation, quantity: wanted.get(partId)! });
  }
  await history(tx, orgId, workOrderId, actor.userId, 'updated', { parts: { from: null, to: found.map((p) => `${p.name} x${wanted.get(p.id)}`).join(', ') } });
  return { message: 'Work order parts added successfully', ...(await partsAnswer(tx, orgId, actor, workOrderId)) };
}

/** PUT update-part/{workOrderId}/part/{partId}: the line's new quantity; more is taken from its location, less goes back. */
export async function updatePartQuantity(tx: Tx, orgId: number, actor: AccessClaims, workOrderId: number, partId: number, quantity: number) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  const where = and(eq(workOrderParts.orgId, orgId), eq(workOrderParts.workOrderId, workOrderId), eq(workOrderParts.partId, partId));
  const [line] = await tx
    .select({ quantity: workOrderParts.quantity, locationId: workOrderParts.locationId, unitPriceMinor: workOrderParts.unitPriceMinor })
    .from(workOrderParts)
    .where(where)
    .for('update');
  if (!line) throw notFound('Part');
  if (quantity * (line.unitPriceMinor ?? 0) > MAX_LINE_COST_MINOR)
    throw badRequest(lineCostMessage('Quantity × sales price', (await moneySettings(tx, orgId)).digits), 'quantity');
  await tx.update(workOrderParts).set({ quantity }).where(where);
  const delta = quantity - line.quantity;
  if (delta !== 0 && (await isStockable(tx, orgId, partId))) {
    const locationId = line.locationId ?? (await defaultLocationId(tx, orgId));
    if (delta > 0) await consumeForLine(tx, orgId, actor.userId, { workOrderId, partId, locationId, quantity: delta });
    else await returnForLine(tx, orgId, actor.userId, { workOrderId, partId, locationId, quantity: -delta });
  }
  await history(tx, orgId, workOrderId, actor.userId, 'updated', { parts: { from: `part ${partId} x${line.quantity}`, to: `part ${partId} x${quantity}` } });
  return { message: 'Work order part updated successfully', ...(await partsAnswer(tx, orgId, actor, workOrderId)) };
}

/** DELETE delete-part/{workOrderId}/part/{partId}: partId names the part (DESIGN 11); what the line took goes back to its location. */
export async function deletePart(tx: Tx, orgId: number, actor: AccessClaims, workOrderId: number, partId: number) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  const rows = await tx
    .delete(workOrderParts)
    .where(and(eq(workOrderParts.orgId, orgId), eq(workOrderParts.workOrderId, workOrderId), eq(workOrderParts.partId, partId)))
    .returning({ id: workOrderParts.id, locationId: workOrderParts.locationId });
  if (!rows.length) throw notFound('Part');
  if (await isStockable(tx, orgId, partId)) {
    await returnForLine(tx, orgId, actor.userId, { workOrderId, partId, locationId: rows[0].locationId ?? (await defaultLocationId(tx, orgId)) });
  }
  await history(tx, orgId, workOrderId, actor.userId, 'updated', { parts: { from: `part ${partId}`, to: null } });
  return { message: 'Work order part deleted successfully', ...(await partsAnswer(tx, orgId, actor, workOrderId)) };
}
