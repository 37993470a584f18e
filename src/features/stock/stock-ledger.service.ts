import { and, eq, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { parts, stockLevels, stockLocations, stockMoves } from '../../server/db/schema';
import { badRequest, conflict, HttpError } from '../../server/http-error';
import { recordActivity } from '../activity/activity.service';
import { emitWebhookEvent } from '../webhooks/webhooks.service';
import { managersOf, notify } from '../notifications/notifications.service';
import { getStockSettings, requireLocation } from './stock-locations.service';
import { getMove, listLevels } from './stock-read.service';
import { round3 } from './stock-quantity';
import { STOCK_MESSAGES as M, type CountInput, type LevelSettingsInput, type MoveReason, type TransferInput } from './stock.schema';
import { lockOrgRow } from '../../server/db/org-rows';

// The stock ledger (decision 071). Every change of stock is a row of stock_moves; stock_levels (a part at a
// location) and parts.quantity_on_hand (the part's total) are kept by postMove in the same transaction, never by a
// trigger. Locks, always in this order: the part's row, then its levels by location id.

// ---- The ledger ----

export interface MoveInput {
  partId: number;
  fromLocationId: number | null;
  toLocationId: number | null;
  quantity: number;
  reason: MoveReason;
  userId: number | null;
  note?: string | null;
  workOrderId?: number | null;
  purchaseOrderId?: number | null;
  unitCostMinor?: number | null;
}

/** What to say when a move would take a level below zero: 409 (a shortage) or 400 (an adjustment that asks too much). */
export interface MoveOptions {
  /** `org`: the organisation's setting decides; false: never below zero. */
  allowNegative: 'org' | false;
  shortage: (part: string, available: number, location: string) => HttpError;
}

/** The 409 of a consumption or transfer that finds too little stock (decision 071). */
export const shortageConflict = (part: string, available: number, location: string) =>
  conflict(`Not enough stock: ${part} has ${round3(available)} at ${location}`, 'quantity');

/** Locks a stockable part of the organisation (the first lock of every move); 400 when unknown or not stockable. */
export async function lockStockablePart(tx: Tx, orgId: number, partId: number, field = 'partId') {
  const columns = { id: parts.id, name: parts.name, type: parts.type, quantityOnHand: parts.quantityOnHand, minimumQuantity: parts.minimumQuantity };
  const part = await lockOrgRow(tx, parts, columns, orgId, partId);
  if (!part) throw badRequest(M.partUnknown, field);
  if (part.type !== 'stockable') throw badRequest(M.notStockable, field);
  return part;
}

/**
 * Posts one move: the levels it leaves and reaches, the part's total and the ledger row, in the caller's
 * transaction. A level that would go below zero refuses (`options.shortage`) unless negative stock is allowed.
 * The part must have been locked (lockStockablePart) by the caller or is locked here.
 */
export async function postMove(tx: Tx, orgId: number, move: MoveInput, options: MoveOptions): Promise<number> {
  const part = await lockStockablePart(tx, orgId, move.partId);
  const quantity = round3(move.quantity);
  const allowNegative = options.allowNegative === 'org' ? (await getStockSettings(tx, orgId)).allowNegativeStock : false;
  const steps: { locationId: number; delta: number }[] = [];
  if (move.fromLocationId !== null) steps.push({ locationId: move.fromLocationId, delta: -quantity });
  if (move.toLocationId !== null) steps.push({ locationId: move.toLocationId, delta: quantity });
  steps.sort((a, b) => a.locationId - b.locationId);
  for (const { locationId, delta } of steps) {
    const level = and(eq(stockLevels.orgId, orgId), eq(stockLevels.partId, move.partId), eq(stockLevels.locationId, locationId));
    if (delta < 0 && !allowNegative) {
      // The row lock on the level: a second taker waits here, then finds what the first left.
      const taken = await tx
        .update(stockLevels)
        .set({ quantity: sql`${stockLevels.quantity} + ${delta}`, updatedAt: sql`now()` })
        .where(and(level, sql`${stockLevels.quantity} + ${delta} >= 0`))
        .returning({ quantity: stockLevels.quantity });
      if (!taken.length) {
        const [current] = await tx.select({ quantity: stockLevels.quantity }).from(stockLevels).where(level);
        const location = await requireLocation(tx, orgId, locationId, 'fromLocationId');
        throw options.shortage(part.name, Number(current?.quantity ?? 0), location.name);
      }
    } else {
      await tx
        .insert(stockLevels)
        .values({ orgId, partId: move.partId, locationId, quantity: delta })
        .onConflictDoUpdate({
          target: [stockLevels.orgId, stockLevels.partId, stockLevels.locationId],
          set: { quantity: sql`${stockLevels.quantity} + ${delta}`, updatedAt: sql`now()` },
        });
    }
  }
  // A storeroom's level that this move took from its reorder point or above to below it: the managers hear of it (decision 074).
  for (const { locationId, delta } of steps.filter((x) => x.delta < 0)) await lowStockCheck(tx, orgId, move.partId, part.name, locationId, delta);
  const total = (move.toLocationId !== null ? quantity : 0) - (move.fromLocationId !== null ? quantity : 0);
  if (total !== 0) {
    await tx
      .update(parts)
      .set({ quantityOnHand: sql`${parts.quantityOnHand} + ${total}` })
      .where(and(eq(parts.orgId, orgId), eq(parts.id, move.partId)));
    const from = Number(part.quantityOnHand);
    const to = round3(from + total);
    const min = Number(part.minimumQuantity);
    // Announced when a move takes the part from its minimum or above to below it (decision 043).
    if (to < min && from >= min)
      await emitWebhookEvent(tx, orgId, 'part.stock-below-minimum', { id: move.partId, name: part.name, quantityOnHand: to, minimumQuantity: min });
    await recordActivity(tx, orgId, {
      entityType: 'part',
      entityId: move.partId,
      userId: move.userId,
      action: 'updated',
      changes: { quantityOnHand: { from, to } },
      note: move.note ?? move.reason,
    });
  }
  const [row] = await tx
    .insert(stockMoves)
    .values({
      orgId,
      partId: move.partId,
      fromLocationId: move.fromLocationId,
      toLocationId: move.toLocationId,
      quantity,
      reason: move.reason,
      note: move.note ?? null,
      userId: move.userId,
      workOrderId: move.workOrderId ?? null,
      purchaseOrderId: move.purchaseOrderId ?? null,
      unitCostMinor: move.unitCostMinor ?? null,
    })
    .returning({ id: stockMoves.id });
  return row.id;
}

/** A part's quantity at one location (0 when it never had any). */
export async function levelQuantity(tx: ReadTx, orgId: number, partId: number, locationId: number): Promise<number> {
  const [row] = await tx
    .select({ quantity: stockLevels.quantity })
    .from(stockLevels)
    .where(and(eq(stockLevels.orgId, orgId), eq(stockLevels.partId, partId), eq(stockLevels.locationId, locationId)));
  return Number(row?.quantity ?? 0);
}

/**
 * Sets a part's quantity at a location to what was counted: the difference becomes a `count` move (in from outside,
 * or out to nowhere). Returns the move's id, or null when the count matched.
 */
export async function postCount(
  tx: Tx,
  orgId: number,
  userId: number | null,
  input: { partId: number; locationId: number; countedQuantity: number; note?: string | null },
) {
  await lockStockablePart(tx, orgId, input.partId);
  const current = await levelQuantity(tx, orgId, input.partId, input.locationId);
  const diff = round3(input.countedQuantity - current);
  if (diff === 0) return null;
  return postMove(
    tx,
    orgId,
    {
      partId: input.partId,
      fromLocationId: diff < 0 ? input.locationId : null,
      toLocationId: diff > 0 ? input.locationId : null,
      quantity: Math.abs(diff),
      reason: 'count',
      userId,
      note: input.note,
    },
    // A count sets what is there: it never refuses for want of stock.
    { allowNegative: 'org', shortage: shortageConflict },
  );
}

async function changed(tx: Tx, orgId: number, partId: number, moveId: number | null, message: string) {
  return {
    message,
    stockMove: moveId === null ? null : await getMove(tx, orgId, moveId),
    stockLevels: (await listLevels(tx, orgId, { partId, page: 1, pageSize: 100 })).stockLevels,
  };
}

/** POST transfer-stock: from one location to another; 409 when the first has too little (unless negative stock is allowed). */
export async function transferStock(tx: Tx, orgId: number, userId: number, input: TransferInput) {
  await lockStockablePart(tx, orgId, input.partId);
  await requireLocation(tx, orgId, input.fromLocationId, 'fromLocationId');
  await requireLocation(tx, orgId, input.toLocationId, 'toLocationId');
  const moveId = await postMove(
    tx,
    orgId,
    {
      partId: input.partId,
      fromLocationId: input.fromLocationId,
      toLocationId: input.toLocationId,
      quantity: input.quantity,
      reason: 'transfer',
      userId,
      note: input.note,
    },
    { allowNegative: 'org', shortage: shortageConflict },
  );
  return changed(tx, orgId, input.partId, moveId, 'Stock transferred successfully');
}

/** POST count-stock: the counted quantity at a location; the difference is posted as a `count` move. */
export async function countStock(tx: Tx, orgId: number, userId: number, input: CountInput) {
  await requireLocation(tx, orgId, input.locationId, 'locationId');
  const moveId = await postCount(tx, orgId, userId, input);
  return changed(tx, orgId, input.partId, moveId, 'Stock counted successfully');
}

async function lowStockCheck(tx: Tx, orgId: number, partId: number, partName: string, locationId: number, delta: number) {
  const [level] = await tx
    .select({ quantity: stockLevels.quantity, reorderPoint: stockLevels.reorderPoint, location: stockLocations.name })
    .from(stockLevels)
    .innerJoin(stockLocations, and(eq(stockLocations.orgId, stockLevels.orgId), eq(stockLocations.id, stockLevels.locationId)))
    .where(and(eq(stockLevels.orgId, orgId), eq(stockLevels.partId, partId), eq(stockLevels.locationId, locationId)));
  if (!level) return;
  const after = Number(level.quantity);
  const point = Number(level.reorderPoint);
  if (!(after < point && round3(after - delta) >= point)) return;
  await notify(tx, orgId, {
    kind: 'low-stock',
    entityType: 'part',
    entityId: partId,
    recipients: await managersOf(tx, orgId),
    data: { title: partName, location: level.location, quantity: after, reorderPoint: point },
  });
}

/** PUT update-stock-level: reorder point, reorder quantity and bin of a part at a location (managers). */
export async function updateLevelSettings(tx: Tx, orgId: number, input: LevelSettingsInput) {
  await lockStockablePart(tx, orgId, input.partId);
  await requireLocation(tx, orgId, input.locationId, 'locationId');
  const set = {
    ...(input.reorderPoint !== undefined ? { reorderPoint: input.reorderPoint } : {}),
    ...(input.reorderQuantity !== undefined ? { reorderQuantity: input.reorderQuantity } : {}),
    ...(input.bin !== undefined ? { bin: input.bin ?? null } : {}),
  };
  await tx
    .insert(stockLevels)
    .values({ orgId, partId: input.partId, locationId: input.locationId, ...set })
    .onConflictDoUpdate({ target: [stockLevels.orgId, stockLevels.partId, stockLevels.locationId], set: { ...set, updatedAt: sql`now()` } });
  return changed(tx, orgId, input.partId, null, 'Stock level updated successfully');
}
