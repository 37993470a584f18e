import { and, asc, count, desc, eq, or, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ReadTx } from '../../server/db/client';
import { countAll, isAnyOf, keysetBatch, param, preparedRead } from '../../server/db/prepared';
import { parts, stockLevels, stockLocations, stockMoves, users } from '../../server/db/schema';
import { notFound } from '../../server/http-error';
import { pagination } from '../../shared/pagination';
import { reservedByLevel } from './reservations.service';
import { round3 } from './stock-quantity';
import type { LevelQuery, MoveListQuery, MoveReason, StockLevelDto, StockMoveDto, StockMoveList } from './stock.schema';
import { pick } from '../../shared/pick';

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
      ...pick(stockLevels, 'quantity', 'reorderPoint', 'reorderQuantity', 'bin'),
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
      ...pick(stockMoves, 'quantity', 'unitCostMinor', 'reason', 'note', 'workOrderId', 'purchaseOrderId', 'createdAt'),
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
  ...pick(r, 'note', 'workOrderId', 'purchaseOrderId'),
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
