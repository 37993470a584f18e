import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ReadTx, Tx } from '../../server/db/client';
import { countAll, isAnyOf, keysetBatch, param, preparedRead } from '../../server/db/prepared';
import { parts, stockLevels, stockLocations, stockMoves, stockSettings, users } from '../../server/db/schema';
import { badRequest, conflict, HttpError, notFound } from '../../server/http-error';
import { pgCode } from '../../server/db/pg-code';
import { escapeLike } from '../../server/db/like';
import { pagination } from '../../shared/pagination';
import { recordActivity } from '../activity/activity.service';
import { emitWebhookEvent } from '../webhooks/webhooks.service';
import { managersOf, notify } from '../notifications/notifications.service';
import { reservedByLevel } from './reservations.service';
import {
  STOCK_MESSAGES as M,
  type CountInput,
  type LevelQuery,
  type LevelSettingsInput,
  type LocationDto,
  type LocationInput,
  type LocationList,
  type LocationListQuery,
  type MoveListQuery,
  type MoveReason,
  type StockLevelDto,
  type StockMoveDto,
  type StockMoveList,
  type StockSettings,
  type TransferInput,
} from './stock.schema';

// The stock ledger (decision 071). Every change of stock is a row of stock_moves; stock_levels (a part at a
// location) and parts.quantity_on_hand (the part's total) are kept by postMove in the same transaction, never by a
// trigger. Locks, always in this order: the part's row, then its levels by location id.

export const DEFAULT_LOCATION_NAME = 'Main store';

const round3 = (n: number) => Math.round(n * 1000) / 1000;

// ---- Locations ----

const locationColumns = {
  id: stockLocations.id,
  name: stockLocations.name,
  kind: stockLocations.kind,
  isDefault: stockLocations.isDefault,
  createdAt: stockLocations.createdAt,
};
type LocationRow = { id: number; name: string; kind: LocationDto['kind']; isDefault: boolean; createdAt: Date };
const toLocationDto = (r: LocationRow): LocationDto => ({ ...r, createdAt: r.createdAt.toISOString() });

/**
 * The organisation's default location, made ("Main store") the first time a write needs it: organisations before
 * decision 071 got theirs in the migration, new ones get it with their first stock.
 */
export async function defaultLocationId(tx: Tx, orgId: number): Promise<number> {
  const find = () =>
    tx
      .select({ id: stockLocations.id })
      .from(stockLocations)
      .where(and(eq(stockLocations.orgId, orgId), eq(stockLocations.isDefault, true)));
  const [found] = await find();
  if (found) return found.id;
  await tx.insert(stockLocations).values({ orgId, name: DEFAULT_LOCATION_NAME, kind: 'storeroom', isDefault: true }).onConflictDoNothing();
  const [made] = await find();
  return made.id;
}

/** One location of the organisation; 404 when it is not theirs. */
export async function getLocation(tx: ReadTx, orgId: number, id: number): Promise<LocationDto> {
  const [row] = await tx
    .select(locationColumns)
    .from(stockLocations)
    .where(and(eq(stockLocations.orgId, orgId), eq(stockLocations.id, id)));
  if (!row) throw notFound('Location');
  return toLocationDto(row);
}

function locationWhere(orgId: number, query: { name?: string; kind?: string[] }) {
  return and(
    eq(stockLocations.orgId, orgId),
    query.name ? ilike(stockLocations.name, `%${escapeLike(query.name)}%`) : undefined,
    query.kind?.length ? inArray(stockLocations.kind, query.kind as LocationDto['kind'][]) : undefined,
  );
}

/** GET get-locations: the default first, then by name. */
export async function listLocations(tx: ReadTx, orgId: number, query: LocationListQuery): Promise<LocationList> {
  const where = locationWhere(orgId, query);
  const [{ total }] = await tx.select({ total: count() }).from(stockLocations).where(where);
  const rows = await tx
    .select(locationColumns)
    .from(stockLocations)
    .where(where)
    .orderBy(desc(stockLocations.isDefault), asc(stockLocations.name), asc(stockLocations.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return { locations: rows.map(toLocationDto), pagination: pagination(total, query.page, query.pageSize) };
}

/** GET get-location-options: every location as `{ value, label, kind, isDefault }` (an organisation has few). */
export async function listLocationOptions(tx: ReadTx, orgId: number) {
  const rows = await tx
    .select(locationColumns)
    .from(stockLocations)
    .where(eq(stockLocations.orgId, orgId))
    .orderBy(desc(stockLocations.isDefault), asc(stockLocations.name))
    .limit(500);
  return rows.map((r) => ({ value: r.id, label: r.name, kind: r.kind, isDefault: r.isDefault }));
}

async function uniqueName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (pgCode(err) === '23505') throw conflict(M.nameTaken, 'name');
    throw err;
  }
}

/** POST add-location: the new location and the refreshed list. The first location of an organisation is its default. */
export async function addLocation(tx: Tx, orgId: number, input: LocationInput, query: LocationListQuery) {
  const [any] = await tx.select({ id: stockLocations.id }).from(stockLocations).where(eq(stockLocations.orgId, orgId)).limit(1);
  const [created] = await uniqueName(() =>
    tx.transaction((sp) =>
      sp.insert(stockLocations).values({ orgId, name: input.name, kind: input.kind, isDefault: !any }).returning({ id: stockLocations.id }),
    ),
  );
  return { message: 'Location added successfully', location: await getLocation(tx, orgId, created.id), ...(await listLocations(tx, orgId, query)) };
}

/** PUT update-location/{id}. */
export async function updateLocation(tx: Tx, orgId: number, id: number, input: LocationInput) {
  await getLocation(tx, orgId, id);
  await uniqueName(() =>
    tx.transaction((sp) =>
      sp
        .update(stockLocations)
        .set({ name: input.name, kind: input.kind })
        .where(and(eq(stockLocations.orgId, orgId), eq(stockLocations.id, id))),
    ),
  );
  return { message: 'Location updated successfully', location: await getLocation(tx, orgId, id) };
}

/** DELETE delete-location/{id}: not the default, nor one with stock, history or work order lines (409). */
export async function deleteLocation(tx: Tx, orgId: number, id: number, query: LocationListQuery) {
  const location = await getLocation(tx, orgId, id);
  if (location.isDefault) throw conflict(M.defaultKept);
  const [stocked] = await tx
    .select({ n: count() })
    .from(stockLevels)
    .where(and(eq(stockLevels.orgId, orgId), eq(stockLevels.locationId, id), sql`${stockLevels.quantity} <> 0`));
  if (stocked.n > 0) throw conflict(M.locationInUse);
  try {
    await tx.transaction((sp) => sp.delete(stockLocations).where(and(eq(stockLocations.orgId, orgId), eq(stockLocations.id, id))));
  } catch (err) {
    if (pgCode(err) === '23503') throw conflict(M.locationInUse);
    throw err;
  }
  return { message: 'Location deleted successfully', ...(await listLocations(tx, orgId, query)) };
}

async function requireLocation(tx: Tx, orgId: number, id: number, field: string) {
  const [row] = await tx
    .select({ id: stockLocations.id, name: stockLocations.name })
    .from(stockLocations)
    .where(and(eq(stockLocations.orgId, orgId), eq(stockLocations.id, id)));
  if (!row) throw badRequest(M.locationUnknown, field);
  return row;
}

// ---- Settings ----

/** The organisation's stock settings (defaults when it never set them). */
export async function getStockSettings(tx: ReadTx, orgId: number): Promise<StockSettings> {
  const [row] = await tx.select({ allowNegativeStock: stockSettings.allowNegativeStock }).from(stockSettings).where(eq(stockSettings.orgId, orgId));
  return { allowNegativeStock: row?.allowNegativeStock ?? false };
}

/** PUT update-stock-settings (managers). */
export async function updateStockSettings(tx: Tx, orgId: number, input: StockSettings) {
  await tx
    .insert(stockSettings)
    .values({ orgId, ...input })
    .onConflictDoUpdate({ target: stockSettings.orgId, set: input });
  return { message: 'Stock settings updated successfully', settings: await getStockSettings(tx, orgId) };
}

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
  const [part] = await tx
    .select({ id: parts.id, name: parts.name, type: parts.type, quantityOnHand: parts.quantityOnHand, minimumQuantity: parts.minimumQuantity })
    .from(parts)
    .where(and(eq(parts.orgId, orgId), eq(parts.id, partId)))
    .for('update');
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

// ---- Reading ----

const levelLocations = alias(stockLocations, 'level_locations');

/** GET get-stock-levels: a part's levels at every location, or a location's parts. */
export async function listLevels(
  tx: ReadTx,
  orgId: number,
  query: LevelQuery,
): Promise<{ stockLevels: StockLevelDto[]; pagination: ReturnType<typeof pagination> }> {
  const where = and(
    eq(stockLevels.orgId, orgId),
    query.partId ? eq(stockLevels.partId, query.partId) : undefined,
    query.locationId ? eq(stockLevels.locationId, query.locationId) : undefined,
  );
  const [{ total }] = await tx.select({ total: count() }).from(stockLevels).where(where);
  const rows = await tx
    .select({
      partId: stockLevels.partId,
      locationId: stockLevels.locationId,
      partName: parts.name,
      locationName: levelLocations.name,
      quantity: stockLevels.quantity,
      reorderPoint: stockLevels.reorderPoint,
      reorderQuantity: stockLevels.reorderQuantity,
      bin: stockLevels.bin,
    })
    .from(stockLevels)
    .innerJoin(parts, and(eq(parts.orgId, stockLevels.orgId), eq(parts.id, stockLevels.partId)))
    .innerJoin(levelLocations, and(eq(levelLocations.orgId, stockLevels.orgId), eq(levelLocations.id, stockLevels.locationId)))
    .where(where)
    .orderBy(desc(levelLocations.isDefault), asc(levelLocations.name), asc(parts.name))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const reserved = await reservedByLevel(tx, orgId, { partId: query.partId, locationId: query.locationId });
  return {
    stockLevels: rows.map((r) => ({
      partId: r.partId,
      locationId: r.locationId,
      part: { id: r.partId, name: r.partName },
      location: { id: r.locationId, name: r.locationName },
      quantity: Number(r.quantity),
      reorderPoint: Number(r.reorderPoint),
      reorderQuantity: Number(r.reorderQuantity),
      bin: r.bin,
      reserved: reserved.get(`${r.partId}:${r.locationId}`) ?? 0,
      available: round3(Number(r.quantity) - (reserved.get(`${r.partId}:${r.locationId}`) ?? 0)),
    })),
    pagination: pagination(total, query.page, query.pageSize),
  };
}

const fromLocations = alias(stockLocations, 'from_locations');
const toLocations = alias(stockLocations, 'to_locations');

const movesQuery = (tx: ReadTx) =>
  tx
    .select({
      id: stockMoves.id,
      partId: stockMoves.partId,
      partName: parts.name,
      fromId: stockMoves.fromLocationId,
      fromName: fromLocations.name,
      toId: stockMoves.toLocationId,
      toName: toLocations.name,
      quantity: stockMoves.quantity,
      unitCostMinor: stockMoves.unitCostMinor,
      reason: stockMoves.reason,
      note: stockMoves.note,
      workOrderId: stockMoves.workOrderId,
      purchaseOrderId: stockMoves.purchaseOrderId,
      createdAt: stockMoves.createdAt,
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(stockMoves)
    .leftJoin(parts, and(eq(parts.orgId, stockMoves.orgId), eq(parts.id, stockMoves.partId)))
    .leftJoin(fromLocations, and(eq(fromLocations.orgId, stockMoves.orgId), eq(fromLocations.id, stockMoves.fromLocationId)))
    .leftJoin(toLocations, and(eq(toLocations.orgId, stockMoves.orgId), eq(toLocations.id, stockMoves.toLocationId)))
    .leftJoin(users, and(eq(users.orgId, stockMoves.orgId), eq(users.id, stockMoves.userId)));

type MoveRow = Awaited<ReturnType<ReturnType<typeof movesQuery>['execute']>>[number];

/** A ledger row as the API returns it. */
export const toMoveDto = (r: MoveRow): StockMoveDto => ({
  id: r.id,
  partId: r.partId,
  part: r.partName === null ? null : { id: r.partId, name: r.partName },
  fromLocation: r.fromId === null ? null : { id: r.fromId, name: r.fromName ?? '' },
  toLocation: r.toId === null ? null : { id: r.toId, name: r.toName ?? '' },
  quantity: Number(r.quantity),
  unitCostMinor: r.unitCostMinor,
  reason: r.reason as MoveReason,
  note: r.note,
  workOrderId: r.workOrderId,
  purchaseOrderId: r.purchaseOrderId,
  createdAt: r.createdAt.toISOString(),
  user: r.userId ? { id: r.userId, firstName: r.firstName ?? '', lastName: r.lastName ?? '' } : null,
});

/** One move of the organisation. */
export async function getMove(tx: ReadTx, orgId: number, id: number): Promise<StockMoveDto> {
  const [row] = await movesQuery(tx).where(and(eq(stockMoves.orgId, orgId), eq(stockMoves.id, id)));
  if (!row) throw notFound('Stock move');
  return toMoveDto(row);
}

function moveFilter(orgId: number, query: Partial<MoveListQuery>) {
  const values = {
    orgId,
    partId: query.partId || undefined,
    locationId: query.locationId || undefined,
    workOrderId: query.workOrderId || undefined,
    reason: query.reason?.length ? query.reason : undefined,
  };
  const where = (): SQL | undefined =>
    and(
      eq(stockMoves.orgId, param('orgId')),
      values.partId ? eq(stockMoves.partId, param('partId')) : undefined,
      values.locationId ? or(eq(stockMoves.fromLocationId, param('locationId')), eq(stockMoves.toLocationId, param('locationId'))) : undefined,
      values.workOrderId ? eq(stockMoves.workOrderId, param('workOrderId')) : undefined,
      values.reason ? isAnyOf(stockMoves.reason, param('reason')) : undefined,
    );
  return { values, where };
}

/** GET get-stock-moves: the ledger, newest first, filtered by part, location, work order and reason. */
export async function listMoves(tx: ReadTx, orgId: number, query: MoveListQuery): Promise<StockMoveList> {
  const filter = moveFilter(orgId, query);
  const [{ total }] = await preparedRead(tx, 'stock.moves.count', () => tx.select({ total: countAll() }).from(stockMoves).where(filter.where()), filter.values);
  const rows = await preparedRead(
    tx,
    'stock.moves.list',
    () => movesQuery(tx).where(filter.where()).orderBy(desc(stockMoves.id)).limit(param('limit')).offset(param('offset')),
    { ...filter.values, limit: query.pageSize, offset: (query.page - 1) * query.pageSize },
  );
  return { stockMoves: rows.map(toMoveDto), pagination: pagination(total, query.page, query.pageSize) };
}

/** One batch of the moves for an export (decision 042): the list's filter, newest first, ids below `before`. */
export async function exportMovesBatch(tx: ReadTx, orgId: number, query: Partial<MoveListQuery>, before: number, limit: number): Promise<StockMoveDto[]> {
  const rows = await keysetBatch(tx, 'stock.moves.export', () => movesQuery(tx), stockMoves.id, moveFilter(orgId, query), before, limit);
  return rows.map(toMoveDto);
}

// ---- Work order lines (consumption) ----

/** What the ledger has taken for a work order's part, net of returns, and from where (the latest consumption's location). */
export async function consumedForLine(tx: ReadTx, orgId: number, workOrderId: number, partId: number) {
  const [row] = await tx
    .select({
      net: sql<string>`coalesce(sum(case when ${stockMoves.reason} = 'consumption' then ${stockMoves.quantity} when ${stockMoves.reason} = 'return' then -${stockMoves.quantity} else 0 end), 0)`,
    })
    .from(stockMoves)
    .where(and(eq(stockMoves.orgId, orgId), eq(stockMoves.workOrderId, workOrderId), eq(stockMoves.partId, partId)));
  return round3(Number(row?.net ?? 0));
}

/** Takes a part line's quantity from its location (a `consumption` move); 409 on a shortage unless negative stock is allowed. */
export async function consumeForLine(
  tx: Tx,
  orgId: number,
  userId: number | null,
  line: { workOrderId: number; partId: number; locationId: number; quantity: number },
) {
  return postMove(
    tx,
    orgId,
    {
      partId: line.partId,
      fromLocationId: line.locationId,
      toLocationId: null,
      quantity: line.quantity,
      reason: 'consumption',
      userId,
      workOrderId: line.workOrderId,
    },
    { allowNegative: 'org', shortage: shortageConflict },
  );
}

/** Puts back what a work order took of a part (a `return` move into the line's location), up to `quantity`. */
export async function returnForLine(
  tx: Tx,
  orgId: number,
  userId: number | null,
  line: { workOrderId: number; partId: number; locationId: number; quantity?: number },
) {
  const net = await consumedForLine(tx, orgId, line.workOrderId, line.partId);
  const back = round3(Math.min(net, line.quantity ?? net));
  if (back <= 0) return null;
  return postMove(
    tx,
    orgId,
    { partId: line.partId, fromLocationId: null, toLocationId: line.locationId, quantity: back, reason: 'return', userId, workOrderId: line.workOrderId },
    {
      allowNegative: false,
      shortage: shortageConflict,
    },
  );
}

/** Whether a part keeps stock (stockable); consumable parts and unknown ids move nothing. */
export async function isStockable(tx: ReadTx, orgId: number, partId: number) {
  const [row] = await tx
    .select({ type: parts.type })
    .from(parts)
    .where(and(eq(parts.orgId, orgId), eq(parts.id, partId)));
  return row?.type === 'stockable';
}
