import { and, asc, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { claimVersion, StaleEdit } from '../../server/stale-edit';
import { countAll, isAnyOf, keysetBatch, param, preparedRead } from '../../server/db/prepared';
import { assetCategories, assets, customerVendors } from '../../server/db/schema';
import { conflict, notFound } from '../../server/http-error';
import { pgCode } from '../../server/db/pg-code';
import { requireReference, requireReferences } from '../../server/db/references';
import { reserveIds } from '../../server/db/reserved-ids';
import { insertMany } from '../../server/db/bulk-insert';
import { pagination } from '../../shared/pagination';
import { displayId } from '../../shared/reference-fields';
import { diffChanges, recordActivities, recordActivity, registerActivityEntity } from '../activity/activity.service';
import { ASSET_MESSAGES as M, type AssetDto, type AssetInput, type AssetList, type AssetListQuery, type AssetOption } from './assets.schema';
import { escapeLike } from '../../server/db/like';

registerActivityEntity('asset', assets, 'Asset');

const columns = {
  id: assets.id,
  name: assets.name,
  description: assets.description,
  serial: assets.serial,
  assetBarcode: assets.assetBarcode,
  assetCode: assets.assetCode,
  date: assets.date,
  status: assets.status,
  customerVendorId: assets.customerVendorId,
  assetCategoryId: assets.assetCategoryId,
  version: assets.version,
  createdAt: assets.createdAt,
  cvName: customerVendors.name,
  cvType: customerVendors.type,
  categoryName: assetCategories.name,
  categoryCode: assetCategories.code,
};

const baseQuery = (tx: ReadTx) =>
  tx
    .select(columns)
    .from(assets)
    .leftJoin(customerVendors, and(eq(customerVendors.orgId, assets.orgId), eq(customerVendors.id, assets.customerVendorId)))
    .leftJoin(assetCategories, and(eq(assetCategories.orgId, assets.orgId), eq(assetCategories.id, assets.assetCategoryId)));

type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>['execute']>>[number];

function toDto({ cvName, cvType, categoryName, categoryCode, ...r }: Row): AssetDto {
  return {
    ...r,
    assetId: displayId('AS', r.id),
    CustomerVendor: r.customerVendorId !== null && cvName !== null && cvType !== null ? { id: r.customerVendorId, name: cvName, type: cvType } : null,
    AssetCategory: categoryName !== null && categoryCode !== null ? { id: r.assetCategoryId, name: categoryName, code: categoryCode } : null,
    createdAt: r.createdAt.toISOString(),
  };
}

/** One asset of the organisation; 404 when it is not theirs. */
export async function getAsset(tx: ReadTx, orgId: number, id: number): Promise<AssetDto> {
  const [row] = await baseQuery(tx).where(and(eq(assets.orgId, orgId), eq(assets.id, id)));
  if (!row) throw notFound('Asset');
  return toDto(row);
}

/** "AS-0012" or "12" in a search box finds asset 12 too. */
function idFromText(text: string) {
  const m = /^(?:as-?)?0*(\d{1,9})$/i.exec(text.trim());
  return m ? Number(m[1]) : undefined;
}

/**
 * The list's filter values (absent ones undefined) and its condition over them as placeholders, for
 * `preparedRead`. The options list shares them.
 */
function listFilter(orgId: number, query: { name?: string; status?: string[]; categoryId?: number; relatedTo?: number }) {
  const values = {
    orgId,
    like: query.name ? `%${escapeLike(query.name)}%` : undefined,
    id: query.name ? idFromText(query.name) : undefined,
    status: query.status?.length ? query.status : undefined,
    categoryId: query.categoryId || undefined,
    relatedTo: query.relatedTo || undefined,
  };
  const where = () =>
    and(
      eq(assets.orgId, param('orgId')),
      values.like
        ? or(
            ilike(assets.name, param('like')),
            ilike(assets.serial, param('like')),
            ilike(assets.assetCode, param('like')),
            ilike(assets.assetBarcode, param('like')),
            values.id ? eq(assets.id, param('id')) : undefined,
          )
        : undefined,
      values.status ? isAnyOf(assets.status, param('status')) : undefined,
      values.categoryId ? eq(assets.assetCategoryId, param('categoryId')) : undefined,
      // the user's related assets (users feature's link table, read here)
      values.relatedTo ? sql`${assets.id} in (select asset_id from user_assets where org_id = ${param('orgId')} and user_id = ${param('relatedTo')})` : undefined,
    );
  return { values, where };
}

/** GET get-assets: a page of assets, newest first, filtered by text, status and category. */
export async function listAssets(tx: ReadTx, orgId: number, query: AssetListQuery): Promise<AssetList> {
  const filter = listFilter(orgId, query);
  const offset = (query.page - 1) * query.pageSize;
  const [{ total }] = await preparedRead(tx, 'assets.count', () => tx.select({ total: countAll() }).from(assets).where(filter.where()), filter.values);
  const rows = await preparedRead(tx,
    'assets.list',
    () => baseQuery(tx).where(filter.where()).orderBy(desc(assets.id)).limit(param('limit')).offset(param('offset')),
    { ...filter.values, limit: query.pageSize, offset },
  );
  return { assets: rows.map(toDto), pagination: pagination(total, query.page, query.pageSize) };
}

/** GET get-assets-options: `{ value, label, assetId }`, 5 by default, alphabetical. */
export async function listAssetOptions(tx: ReadTx, orgId: number, query: { pageSize: number; name?: string }): Promise<AssetOption[]> {
  const filter = listFilter(orgId, query);
  const rows = await preparedRead(tx,
    'assets.options',
    () => tx.select({ value: assets.id, label: assets.name }).from(assets).where(filter.where()).orderBy(asc(assets.name), asc(assets.id)).limit(param('limit')),
    { ...filter.values, limit: query.pageSize },
  );
  return rows.map((r) => ({ ...r, assetId: displayId('AS', r.value) }));
}

/** The most recent assets, for the application data preload. */
export async function recentAssets(tx: ReadTx, orgId: number, limit = 50) {
  const rows = await preparedRead(tx, 'assets.recent', () => baseQuery(tx).where(eq(assets.orgId, param('orgId'))).orderBy(desc(assets.id)).limit(param('limit')), { orgId, limit });
  return rows.map(toDto);
}

async function checkReferences(tx: Tx, orgId: number, input: AssetInput) {
  await requireReference(tx, orgId, assetCategories, input.assetCategoryId, 'assetCategoryId', M.categoryUnknown);
  await requireReference(tx, orgId, customerVendors, input.customerVendorId, 'customerVendorId', M.customerVendorUnknown);
}

const valuesOf = (input: AssetInput) => ({
  name: input.name,
  description: input.description ?? null,
  serial: input.serial ?? null,
  assetBarcode: input.assetBarcode ?? null,
  assetCode: input.assetCode ?? null,
  date: input.date,
  customerVendorId: input.customerVendorId ?? null,
  assetCategoryId: input.assetCategoryId,
  status: input.status,
});

/**
 * Creates many assets at once (the import, decision 042): the same checks as add-asset, read for the whole
 * batch, then multi-row inserts and one history line each, in the caller's transaction. The assets' ids are
 * reserved with one counter update for the whole import (`reserveIds`), so the rows skip the per-row update.
 */
export async function importAssets(tx: Tx, orgId: number, userId: number, inputs: AssetInput[]): Promise<number[]> {
  if (!inputs.length) return [];
  const ids: number[] = [];
  const first = await reserveIds(tx, orgId, assets, inputs.length);
  for (let i = 0; i < inputs.length; i += 1000) {
    const batch = inputs.slice(i, i + 1000);
    await requireReferences(tx, orgId, assetCategories, batch.map((a) => a.assetCategoryId), 'assetCategoryId', M.categoryUnknown);
    await requireReferences(tx, orgId, customerVendors, batch.flatMap((a) => (a.customerVendorId ? [a.customerVendorId] : [])), 'customerVendorId', M.customerVendorUnknown);
    const batchIds = batch.map((_, j) => first + i + j);
    await insertMany(tx, assets, batch.map((a, j) => ({ orgId, id: batchIds[j], ...valuesOf(a) })));
    await recordActivities(tx, orgId, batchIds.map((id) => ({ entityType: 'asset', entityId: id, userId, action: 'created' as const })));
    ids.push(...batchIds);
  }
  return ids;
}

/**
 * One batch of the list's rows for an export (decision 042): the list's own filter, newest first, ids below
 * `before` (keyset), so an export of any size reads `limit` rows at a time.
 */
export async function exportAssetsBatch(tx: ReadTx, orgId: number, query: AssetListQuery, before: number, limit: number): Promise<AssetDto[]> {
  const filter = listFilter(orgId, query);
  const rows = await keysetBatch(tx, 'assets.export', () => baseQuery(tx), assets.id, filter, before, limit);
  return rows.map(toDto);
}

/** POST add-asset: the new asset and the refreshed list. */
export async function addAsset(tx: Tx, orgId: number, userId: number, input: AssetInput, query: AssetListQuery) {
  await checkReferences(tx, orgId, input);
  const [created] = await tx.insert(assets).values({ orgId, ...valuesOf(input) }).returning({ id: assets.id });
  await recordActivity(tx, orgId, { entityType: 'asset', entityId: created.id, userId, action: 'created' });
  return { message: 'Asset added successfully', asset: await getAsset(tx, orgId, created.id), ...(await listAssets(tx, orgId, query)) };
}

/** PUT update-asset/{id}: response `asset` (spec section 7); a status change is its own history line. */
export async function updateAsset(tx: Tx, orgId: number, userId: number, id: number, input: AssetInput) {
  // Refuses an edit made from an older version and locks the asset until this edit commits (decision 025).
  if (!(await claimVersion(tx, assets, orgId, id, input.version))) throw new StaleEdit(await getAsset(tx, orgId, id));
  const before = await getAsset(tx, orgId, id);
  await checkReferences(tx, orgId, input);
  const values = valuesOf(input);
  await tx.update(assets).set(values).where(and(eq(assets.orgId, orgId), eq(assets.id, id)));
  const old = before as unknown as Record<string, unknown>;
  const changes = diffChanges(old, values, ['name', 'description', 'serial', 'assetBarcode', 'assetCode', 'date', 'customerVendorId', 'assetCategoryId']);
  if (Object.keys(changes).length) await recordActivity(tx, orgId, { entityType: 'asset', entityId: id, userId, action: 'updated', changes });
  if (before.status !== values.status) {
    await recordActivity(tx, orgId, { entityType: 'asset', entityId: id, userId, action: 'status', changes: { status: { from: before.status, to: values.status } } });
  }
  return { message: 'Asset updated successfully', asset: await getAsset(tx, orgId, id) };
}

/** DELETE delete-asset/{id}: refused (409) while a request or order uses it; returns the refreshed list. */
export async function deleteAsset(tx: Tx, orgId: number, userId: number, id: number, query: AssetListQuery) {
  await getAsset(tx, orgId, id);
  try {
    await tx.transaction((sp) => sp.delete(assets).where(and(eq(assets.orgId, orgId), eq(assets.id, id))));
  } catch (err) {
    if (pgCode(err) === '23503') throw conflict(M.inUse);
    throw err;
  }
  await recordActivity(tx, orgId, { entityType: 'asset', entityId: id, userId, action: 'deleted' });
  return { message: 'Asset deleted successfully', ...(await listAssets(tx, orgId, query)) };
}
