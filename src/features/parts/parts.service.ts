import { addThenList } from '../../server/add-answer';
import { and, asc, desc, eq, ilike, lt, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ReadTx, Tx } from '../../server/db/client';
import { countAll, isAnyOf, keysetBatch, param, preparedRead } from '../../server/db/prepared';
import { parts, productCategories, uoms } from '../../server/db/schema';
import { badRequest, notFound } from '../../server/http-error';
import { claimVersion, StaleEdit } from '../../server/stale-edit';
import { requireReference } from '../../server/db/references';
import { pagination, type PageQuery } from '../../shared/pagination';
import { diffChanges, registerActivityEntity } from '../activity/activity.service';
import { checkCurrencyDecimals, moneySettings } from '../organization/organization.service';
import { PART_MESSAGES as M, type PartDto, type PartInput, type PartList, type PartListQuery, type PartOption, type StockAdjustment } from './parts.schema';
import { escapeLike } from '../../server/db/like';
import { discardFiles } from '../../server/uploads/storage';
import { defaultLocationId, getMove, levelQuantity, listMoves, lockStockablePart, postCount, postMove, shortageConflict } from '../stock/stock.service';
import { orgRow, deleteOrgRow, readRecent } from '../../server/db/org-rows';
import { pick } from '../../shared/pick';

const history = registerActivityEntity('part', parts, 'Part');

const purchaseUoms = alias(uoms, 'purchase_uoms');

const columns = {
  ...pick(parts, 'id', 'name', 'type', 'skuCode', 'categoryId', 'salesPrice', 'unitOfMeasureId', 'purchaseUnitOfMeasureId', 'image', 'imageLow'),
  ...pick(parts, 'quantityOnHand', 'minimumQuantity', 'version', 'createdAt'),
  categoryName: productCategories.name,
  uomName: uoms.name,
  purchaseUomName: purchaseUoms.name,
};

const baseQuery = (tx: ReadTx) =>
  tx
    .select(columns)
    .from(parts)
    .leftJoin(productCategories, and(eq(productCategories.orgId, parts.orgId), eq(productCategories.id, parts.categoryId)))
    .leftJoin(uoms, and(eq(uoms.orgId, parts.orgId), eq(uoms.id, parts.unitOfMeasureId)))
    .leftJoin(purchaseUoms, and(eq(purchaseUoms.orgId, parts.orgId), eq(purchaseUoms.id, parts.purchaseUnitOfMeasureId)));

type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>['execute']>>[number];

const isLow = (r: { type: string; quantityOnHand: number; minimumQuantity: number }) =>
  r.type === 'stockable' && Number(r.quantityOnHand) < Number(r.minimumQuantity);

function toDto({ categoryName, uomName, purchaseUomName, ...r }: Row): PartDto {
  return {
    ...r,
    salesPrice: Number(r.salesPrice),
    quantityOnHand: Number(r.quantityOnHand),
    minimumQuantity: Number(r.minimumQuantity),
    category: categoryName === null ? null : { id: r.categoryId, name: categoryName },
    unitOfMeasure: uomName === null ? null : { id: r.unitOfMeasureId, name: uomName },
    purchaseUnitOfMeasure: purchaseUomName === null ? null : { id: r.purchaseUnitOfMeasureId, name: purchaseUomName },
    isLowStock: isLow(r),
    createdAt: r.createdAt.toISOString(),
  };
}

/** One part of the organisation with its stock; 404 when it is not theirs. */
export async function getPart(tx: ReadTx, orgId: number, id: number): Promise<PartDto> {
  const [row] = await baseQuery(tx).where(orgRow(parts, orgId, id));
  if (!row) throw notFound('Part');
  return toDto(row);
}

const lowStockCondition = and(eq(parts.type, 'stockable'), lt(parts.quantityOnHand, parts.minimumQuantity));

/**
 * The list's filter values (absent ones undefined) and its condition over them as placeholders, for
 * `preparedRead`. `lowStock` has no placeholder: it is among the values as a flag, so that it
 * names its own statement.
 */
function listFilter(orgId: number, query: { name?: string; type?: string[]; categoryId?: number; lowStock?: boolean }) {
  const values = {
    orgId,
    like: query.name ? `%${escapeLike(query.name)}%` : undefined,
    type: query.type?.length ? query.type : undefined,
    categoryId: query.categoryId || undefined,
    lowStock: query.lowStock || undefined,
  };
  const where = () =>
    and(
      eq(parts.orgId, param('orgId')),
      values.like ? or(ilike(parts.name, param('like')), ilike(parts.skuCode, param('like'))) : undefined,
      values.type ? isAnyOf(parts.type, param('type')) : undefined,
      values.categoryId ? eq(parts.categoryId, param('categoryId')) : undefined,
      values.lowStock ? lowStockCondition : undefined,
    );
  return { values, where };
}

type PartsOrder = 'newest' | 'emptiest';
const partsOrder = { newest: [desc(parts.id)], emptiest: [asc(parts.quantityOnHand), asc(parts.name), asc(parts.id)] } satisfies Record<PartsOrder, unknown>;

/** A page of parts and their total. */
async function pageOfParts(tx: ReadTx, orgId: number, query: PartListQuery & { lowStock?: boolean }, order: PartsOrder): Promise<PartList> {
  const filter = listFilter(orgId, query);
  const offset = (query.page - 1) * query.pageSize;
  const [{ total }] = await preparedRead(tx, 'parts.count', () => tx.select({ total: countAll() }).from(parts).where(filter.where()), filter.values);
  const rows = await preparedRead(
    tx,
    `parts.list.${order}`,
    () =>
      baseQuery(tx)
        .where(filter.where())
        .orderBy(...partsOrder[order])
        .limit(param('limit'))
        .offset(param('offset')),
    { ...filter.values, limit: query.pageSize, offset },
  );
  return { parts: rows.map(toDto), pagination: pagination(total, query.page, query.pageSize) };
}

/** GET get-parts: a page of parts, newest first, filtered by text, type, category and low stock. */
export const listParts = (tx: ReadTx, orgId: number, query: PartListQuery): Promise<PartList> => pageOfParts(tx, orgId, query, 'newest');

/** GET get-low-stock-parts: the stockable parts under their minimum quantity, the emptiest first. */
export const listLowStockParts = (tx: ReadTx, orgId: number, query: PartListQuery): Promise<PartList> =>
  pageOfParts(tx, orgId, { ...query, lowStock: true }, 'emptiest');

/**
 * One batch of the list's rows for an export (decision 042): the list's own filter, newest first, ids below
 * `before` (keyset), `limit` rows at a time.
 */
export async function exportPartsBatch(tx: ReadTx, orgId: number, query: PartListQuery, before: number, limit: number): Promise<PartDto[]> {
  const filter = listFilter(orgId, query);
  const rows = await keysetBatch(tx, 'parts.export', () => baseQuery(tx), parts.id, filter, before, limit);
  return rows.map(toDto);
}

/** GET get-parts-options: `{ value, label, salesPrice, … }` by name or SKU, alphabetical. */
export async function listPartOptions(tx: ReadTx, orgId: number, query: { pageSize: number; name?: string }): Promise<PartOption[]> {
  const filter = listFilter(orgId, query);
  const rows = await preparedRead(
    tx,
    'parts.options',
    () => baseQuery(tx).where(filter.where()).orderBy(asc(parts.name), asc(parts.id)).limit(param('limit')),
    { ...filter.values, limit: query.pageSize },
  );
  return rows.map((r) => {
    const p = toDto(r);
    return {
      value: p.id,
      label: p.name,
      ...pick(p, 'salesPrice', 'skuCode', 'type', 'quantityOnHand', 'unitOfMeasure'),
    };
  });
}

/** The most recent parts, for the application data preload. */
export async function recentParts(tx: ReadTx, orgId: number, limit = 50) {
  const rows = await readRecent(tx, 'parts.recent', parts, () => baseQuery(tx).$dynamic(), orgId, limit);
  return rows.map(toDto);
}

async function checkReferences(tx: Tx, orgId: number, input: PartInput) {
  checkCurrencyDecimals(input.salesPrice, await moneySettings(tx, orgId), 'salesPrice');
  await requireReference(tx, orgId, productCategories, input.categoryId, 'categoryId', M.categoryUnknown);
  await requireReference(tx, orgId, uoms, input.unitOfMeasureId, 'unitOfMeasureId', M.uomUnknown);
  await requireReference(tx, orgId, uoms, input.purchaseUnitOfMeasureId, 'purchaseUnitOfMeasureId', M.purchaseUomUnknown);
}

const valuesOf = (input: PartInput) => ({
  name: input.name,
  type: input.type,
  skuCode: input.skuCode ?? null,
  ...pick(input, 'categoryId', 'salesPrice', 'unitOfMeasureId', 'purchaseUnitOfMeasureId'),
});

/** The stock count a part's own quantity means (decision 071): the default location takes the difference. */
async function countAtDefault(tx: Tx, orgId: number, userId: number | null, partId: number, change: number, note: string) {
  const locationId = await defaultLocationId(tx, orgId);
  await lockStockablePart(tx, orgId, partId, 'quantity');
  const counted = Math.round(((await levelQuantity(tx, orgId, partId, locationId)) + change) * 1000) / 1000;
  if (counted < 0) throw badRequest(M.belowZero, 'quantity');
  return postCount(tx, orgId, userId, { partId, locationId, countedQuantity: counted, note });
}

/** POST add-part: the new part (with its opening stock, if any) and the refreshed list. */
export const addPart = addThenList(createPart, { message: 'Part added successfully', key: 'part', get: getPart, list: listParts });

/** Creates one part with its opening stock (a stock move), as add-part does; the import calls it (decision 042). */
export async function createPart(tx: Tx, orgId: number, userId: number, input: PartInput): Promise<number> {
  await checkReferences(tx, orgId, input);
  if (input.type === 'consumable' && input.quantityOnHand) throw badRequest(M.consumableStock, 'quantityOnHand');
  const [created] = await tx
    .insert(parts)
    .values({ orgId, ...valuesOf(input), minimumQuantity: input.minimumQuantity ?? 0 })
    .returning({ id: parts.id });
  await history(tx, orgId, created.id, userId, 'created');
  if (input.quantityOnHand) {
    const toLocationId = await defaultLocationId(tx, orgId);
    await postMove(
      tx,
      orgId,
      { partId: created.id, fromLocationId: null, toLocationId, quantity: input.quantityOnHand, reason: 'initial', userId, note: 'Opening stock' },
      { allowNegative: false, shortage: shortageConflict },
    );
  }
  return created.id;
}

/** PUT update-part/{id}: response `part`. A changed quantity on hand is booked as a stock count. */
export async function updatePart(tx: Tx, orgId: number, userId: number, id: number, input: PartInput) {
  // First, in one statement: refuse a stale edit and lock the part, so a concurrent stock count waits and
  // then counts from the quantity this one leaves (decision 025).
  if (!(await claimVersion(tx, parts, orgId, id, input.version))) throw new StaleEdit(await getPart(tx, orgId, id));
  const before = await getPart(tx, orgId, id);
  await checkReferences(tx, orgId, input);
  const values = {
    ...valuesOf(input),
    minimumQuantity: input.minimumQuantity ?? before.minimumQuantity,
    ...(input.image === null ? { image: null, imageLow: null } : {}),
  };
  if (input.type === 'consumable' && input.quantityOnHand !== undefined && input.quantityOnHand !== before.quantityOnHand && input.quantityOnHand !== 0) {
    throw badRequest(M.consumableStock, 'quantityOnHand');
  }
  await tx
    .update(parts)
    .set(values)
    .where(orgRow(parts, orgId, id));
  const changes = diffChanges(before as unknown as Record<string, unknown>, values, [
    'name',
    'type',
    'skuCode',
    'categoryId',
    'salesPrice',
    'unitOfMeasureId',
    'purchaseUnitOfMeasureId',
    'minimumQuantity',
    'image',
  ]);
  if (Object.keys(changes).length) await history(tx, orgId, id, userId, 'updated', changes);
  if (input.quantityOnHand !== undefined && input.quantityOnHand !== before.quantityOnHand) {
    await countAtDefault(tx, orgId, userId, id, Math.round((input.quantityOnHand - before.quantityOnHand) * 1000) / 1000, 'Stock count');
  }
  return { message: 'Part updated successfully', part: await getPart(tx, orgId, id) };
}

/** POST adjust-stock/{id}: a signed change of a stockable part's quantity at the default location, with its reason (a count). */
export async function adjustStock(tx: Tx, orgId: number, userId: number, id: number, input: StockAdjustment) {
  const part = await getPart(tx, orgId, id);
  if (part.type !== 'stockable') throw badRequest(M.consumableStock, 'quantity');
  const moveId = await countAtDefault(tx, orgId, userId, part.id, input.quantity, input.reason);
  return { message: 'Stock adjusted successfully', part: await getPart(tx, orgId, id), stockMove: await getMove(tx, orgId, moveId!) };
}

/** GET get-stock-moves/{id}: a part's stock history, newest first (the ledger's moves of the part). */
export async function listStockMoves(tx: ReadTx, orgId: number, id: number, query: PageQuery) {
  await getPart(tx, orgId, id);
  return listMoves(tx, orgId, { ...query, partId: id });
}

/** POST add-image/{id}: stores the part's picture (full and low-resolution URLs). */
export async function setPartImage(tx: Tx, orgId: number, userId: number, id: number, urls: { full: string; low: string }) {
  const before = await getPart(tx, orgId, id);
  await tx
    .update(parts)
    .set({ image: urls.full, imageLow: urls.low })
    .where(orgRow(parts, orgId, id));
  await history(tx, orgId, id, userId, 'attachment', { image: { from: before.image, to: urls.full } });
  return { message: 'Part image updated successfully', part: await getPart(tx, orgId, id) };
}

/** DELETE delete-part/{id}: refused (409) while a work order or document uses it; returns the refreshed list. */
export async function deletePart(tx: Tx, orgId: number, userId: number, id: number, query: PartListQuery) {
  const before = await getPart(tx, orgId, id);
  await deleteOrgRow(tx, parts, orgId, id, M.inUse);
  discardFiles(tx, [before.image, before.imageLow]);
  await history(tx, orgId, id, userId, 'deleted');
  return { message: 'Part deleted successfully', ...(await listParts(tx, orgId, query)) };
}
