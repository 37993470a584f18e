import { and, asc, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { claimVersion, StaleEdit } from '../../server/stale-edit';
import { countAll, isAnyOf, keysetBatch, param, preparedRead } from '../../server/db/prepared';
import { assetCategories, assets, customerVendors, locations } from '../../server/db/schema';
import { alias } from 'drizzle-orm/pg-core';
import { badRequest, conflict, notFound } from '../../server/http-error';
import { requireReference, requireReferences } from '../../server/db/references';
import { reserveIds } from '../../server/db/reserved-ids';
import { insertMany } from '../../server/db/bulk-insert';
import { pagination } from '../../shared/pagination';
import { displayId } from '../../shared/reference-fields';
import { diffChanges, recordActivities, registerActivityEntity } from '../activity/activity.service';
import {
  ASSET_MESSAGES as M,
  ASSET_TREE_CAP,
  type AssetDto,
  type AssetInput,
  type AssetList,
  type AssetListQuery,
  type AssetNode,
  type AssetOption,
  type AssetSummary,
} from './assets.schema';
import { lockTree, subtreeIds, wouldCycle } from '../locations/location-tree';
import { requireLocation } from '../locations/locations.service';
import { rollUp } from './asset-rollup';
import { rowsOf } from '../../server/db/rows';
import { escapeLike } from '../../server/db/like';
import { orgRow, deleteOrgRow, readRecent } from '../../server/db/org-rows';
import { pick } from '../../shared/pick';
import { orNull } from '../../server/db/or-null';

const history = registerActivityEntity('asset', assets, 'Asset');

const parentAssets = alias(assets, 'parent_asset');

const columns = {
  ...pick(assets, 'id', 'name', 'description', 'serial', 'assetBarcode', 'assetCode', 'date', 'status'),
  ...pick(assets, 'customerVendorId', 'assetCategoryId', 'version', 'createdAt'),
  cvName: customerVendors.name,
  cvType: customerVendors.type,
  categoryName: assetCategories.name,
  categoryCode: assetCategories.code,
  locationId: assets.locationId,
  locationName: locations.name,
  parentId: assets.parentId,
  parentName: parentAssets.name,
  independent: assets.independent,
  // the open interval's state (decision 079); none open: running
  state: sql<
    AssetDto['state']
  >`coalesce((select i.state from asset_state_intervals i where i.org_id = ${assets.orgId} and i.asset_id = ${assets.id} and i.ended_at is null), 'running')`,
};

const baseQuery = (tx: ReadTx) =>
  tx
    .select(columns)
    .from(assets)
    .leftJoin(customerVendors, and(eq(customerVendors.orgId, assets.orgId), eq(customerVendors.id, assets.customerVendorId)))
    .leftJoin(assetCategories, and(eq(assetCategories.orgId, assets.orgId), eq(assetCategories.id, assets.assetCategoryId)))
    .leftJoin(locations, and(eq(locations.orgId, assets.orgId), eq(locations.id, assets.locationId)))
    .leftJoin(parentAssets, and(eq(parentAssets.orgId, assets.orgId), eq(parentAssets.id, assets.parentId)));

type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>['execute']>>[number];

function toDto({ cvName, cvType, categoryName, categoryCode, locationName, parentName, ...r }: Row): AssetDto {
  return {
    ...r,
    Location: r.locationId !== null && locationName !== null ? { id: r.locationId, name: locationName } : null,
    Parent: r.parentId !== null && parentName !== null ? { id: r.parentId, name: parentName, assetId: displayId('AS', r.parentId) } : null,
    assetId: displayId('AS', r.id),
    CustomerVendor: r.customerVendorId !== null && cvName !== null && cvType !== null ? { id: r.customerVendorId, name: cvName, type: cvType } : null,
    AssetCategory: categoryName !== null && categoryCode !== null ? { id: r.assetCategoryId, name: categoryName, code: categoryCode } : null,
    createdAt: r.createdAt.toISOString(),
  };
}

/** One asset of the organisation; 404 when it is not theirs. */
export async function getAsset(tx: ReadTx, orgId: number, id: number): Promise<AssetDto> {
  const [row] = await baseQuery(tx).where(orgRow(assets, orgId, id));
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
function listFilter(orgId: number, query: { name?: string; status?: string[]; categoryId?: number; relatedTo?: number; locationId?: number }) {
  const values = {
    orgId,
    like: query.name ? `%${escapeLike(query.name)}%` : undefined,
    id: query.name ? idFromText(query.name) : undefined,
    status: query.status?.length ? query.status : undefined,
    categoryId: query.categoryId || undefined,
    relatedTo: query.relatedTo || undefined,
    locationId: query.locationId || undefined,
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
      values.relatedTo
        ? sql`${assets.id} in (select asset_id from user_assets where org_id = ${param('orgId')} and user_id = ${param('relatedTo')})`
        : undefined,
      // a location and everything under it (decision 072)
      values.locationId ? sql`${assets.locationId} in ${subtreeIds('locations', param('orgId'), param('locationId'))}` : undefined,
    );
  return { values, where };
}

/** GET get-assets: a page of assets, newest first, filtered by text, status and category. */
export async function listAssets(tx: ReadTx, orgId: number, query: AssetListQuery): Promise<AssetList> {
  const filter = listFilter(orgId, query);
  const offset = (query.page - 1) * query.pageSize;
  const [{ total }] = await preparedRead(tx, 'assets.count', () => tx.select({ total: countAll() }).from(assets).where(filter.where()), filter.values);
  const rows = await preparedRead(
    tx,
    'assets.list',
    () => baseQuery(tx).where(filter.where()).orderBy(desc(assets.id)).limit(param('limit')).offset(param('offset')),
    { ...filter.values, limit: query.pageSize, offset },
  );
  return { assets: rows.map(toDto), pagination: pagination(total, query.page, query.pageSize) };
}

/** GET get-assets-options: `{ value, label, assetId }`, 5 by default, alphabetical. */
export async function listAssetOptions(tx: ReadTx, orgId: number, query: { pageSize: number; name?: string; locationId?: number }): Promise<AssetOption[]> {
  const filter = listFilter(orgId, query);
  const rows = await preparedRead(
    tx,
    'assets.options',
    () =>
      tx.select({ value: assets.id, label: assets.name }).from(assets).where(filter.where()).orderBy(asc(assets.name), asc(assets.id)).limit(param('limit')),
    { ...filter.values, limit: query.pageSize },
  );
  return rows.map((r) => ({ ...r, assetId: displayId('AS', r.value) }));
}

/** The most recent assets, for the application data preload. */
export async function recentAssets(tx: ReadTx, orgId: number, limit = 50) {
  const rows = await readRecent(tx, 'assets.recent', assets, () => baseQuery(tx).$dynamic(), orgId, limit);
  return rows.map(toDto);
}

async function checkReferences(tx: Tx, orgId: number, input: AssetInput) {
  await requireReference(tx, orgId, assetCategories, input.assetCategoryId, 'assetCategoryId', M.categoryUnknown);
  await requireReference(tx, orgId, customerVendors, input.customerVendorId, 'customerVendorId', M.customerVendorUnknown);
  await requireLocation(tx, orgId, input.locationId, 'locationId', M.locationUnknown);
}

/** The parent must be the organisation's asset, and not the asset itself or one of its descendants (no cycle). */
async function checkParent(tx: Tx, orgId: number, id: number | null, parentId: number | null | undefined) {
  if (parentId === null || parentId === undefined) return;
  await requireReference(tx, orgId, assets, parentId, 'parentId', M.parentUnknown);
  if (id !== null && (await wouldCycle(tx, 'assets', orgId, id, parentId))) throw badRequest(M.cycle, 'parentId');
}

const valuesOf = (input: AssetInput) => ({
  ...pick(input, 'name', 'date', 'assetCategoryId', 'status'),
  ...orNull(input, 'description', 'serial', 'assetBarcode', 'assetCode', 'customerVendorId'),
  ...(input.locationId !== undefined ? { locationId: input.locationId } : {}),
  ...(input.parentId !== undefined ? { parentId: input.parentId } : {}),
  ...(input.independent !== undefined ? { independent: input.independent } : {}),
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
    // The ids the batch gives for one reference (an optional one may be absent).
    const given = (key: 'assetCategoryId' | 'customerVendorId' | 'locationId' | 'parentId') => batch.flatMap((a) => a[key] || []);
    await requireReferences(tx, orgId, assetCategories, given('assetCategoryId'), 'assetCategoryId', M.categoryUnknown);
    await requireReferences(tx, orgId, customerVendors, given('customerVendorId'), 'customerVendorId', M.customerVendorUnknown);
    await requireReferences(tx, orgId, locations, given('locationId'), 'locationId', M.locationUnknown);
    // Parents are existing assets (new rows cannot make a cycle: nothing points to them yet).
    await requireReferences(tx, orgId, assets, given('parentId'), 'parentId', M.parentUnknown);
    const batchIds = batch.map((_, j) => first + i + j);
    await insertMany(
      tx,
      assets,
      batch.map((a, j) => ({ orgId, id: batchIds[j], ...valuesOf(a) })),
    );
    await recordActivities(
      tx,
      orgId,
      batchIds.map((id) => ({ entityType: 'asset', entityId: id, userId, action: 'created' as const })),
    );
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
  await checkParent(tx, orgId, null, input.parentId);
  const [created] = await tx
    .insert(assets)
    .values({ orgId, ...valuesOf(input) })
    .returning({ id: assets.id });
  await history(tx, orgId, created.id, userId, 'created');
  return { message: 'Asset added successfully', asset: await getAsset(tx, orgId, created.id), ...(await listAssets(tx, orgId, query)) };
}

/** PUT update-asset/{id}: response `asset` (spec section 7); a status change is its own history line. */
export async function updateAsset(tx: Tx, orgId: number, userId: number, id: number, input: AssetInput) {
  // Refuses an edit made from an older version and locks the asset until this edit commits (decision 025).
  if (!(await claimVersion(tx, assets, orgId, id, input.version))) throw new StaleEdit(await getAsset(tx, orgId, id));
  const before = await getAsset(tx, orgId, id);
  await checkReferences(tx, orgId, input);
  if (input.parentId !== undefined && input.parentId !== before.parentId) {
    await lockTree(tx, 'assets', orgId);
    await checkParent(tx, orgId, id, input.parentId);
  }
  const values = valuesOf(input);
  await tx
    .update(assets)
    .set(values)
    .where(orgRow(assets, orgId, id));
  const old = before as unknown as Record<string, unknown>;
  const changes = diffChanges(old, values, [
    'name',
    'description',
    'serial',
    'assetBarcode',
    'assetCode',
    'date',
    'customerVendorId',
    'assetCategoryId',
    'locationId',
    'parentId',
    'independent',
  ]);
  if (Object.keys(changes).length) await history(tx, orgId, id, userId, 'updated', changes);
  if (before.status !== values.status) {
    await history(tx, orgId, id, userId, 'status', { status: { from: before.status, to: values.status } });
  }
  return { message: 'Asset updated successfully', asset: await getAsset(tx, orgId, id) };
}

/** DELETE delete-asset/{id}: refused (409) while a request or order uses it; returns the refreshed list. */
export async function deleteAsset(tx: Tx, orgId: number, userId: number, id: number, query: AssetListQuery) {
  await getAsset(tx, orgId, id);
  const [child] = await tx
    .select({ id: assets.id })
    .from(assets)
    .where(and(eq(assets.orgId, orgId), eq(assets.parentId, id)))
    .limit(1);
  if (child) throw conflict(M.hasChildren);
  await deleteOrgRow(tx, assets, orgId, id, M.inUse);
  await history(tx, orgId, id, userId, 'deleted');
  return { message: 'Asset deleted successfully', ...(await listAssets(tx, orgId, query)) };
}

/** POST move-asset/{id}: under another asset (or to the top, null) with everything under it; no cycle. */
export async function moveAsset(tx: Tx, orgId: number, userId: number, id: number, parentId: number | null) {
  await lockTree(tx, 'assets', orgId);
  const before = await getAsset(tx, orgId, id);
  if (parentId !== before.parentId) {
    await checkParent(tx, orgId, id, parentId);
    await tx
      .update(assets)
      .set({ parentId, version: sql`${assets.version} + 1` })
      .where(orgRow(assets, orgId, id));
    await history(tx, orgId, id, userId, 'updated', { parentId: { from: before.parentId, to: parentId } });
  }
  return { message: 'Asset moved successfully', asset: await getAsset(tx, orgId, id) };
}

/**
 * GET get-asset-tree: the organisation's assets as nodes (up to ASSET_TREE_CAP), or with a location those in it
 * and under it plus their ancestors (so every shown asset hangs from its real parent).
 */
export async function assetTree(tx: ReadTx, orgId: number, query: { locationId?: number }): Promise<{ assets: AssetNode[]; truncated: boolean }> {
  const cap = ASSET_TREE_CAP + 1;
  const statement = query.locationId
    ? sql`with recursive hit as (
          select a.id, a.parent_id from assets a
          where a.org_id = ${orgId}::int and a.location_id in ${subtreeIds('locations', sql`${orgId}::int`, sql`${query.locationId}::int`)}
          union
          select p.id, p.parent_id from assets p join hit on p.id = hit.parent_id where p.org_id = ${orgId}::int
        ) select a.id, a.name, a.status, a.parent_id, a.location_id from assets a join hit on hit.id = a.id and a.org_id = ${orgId}::int
        order by lower(a.name), a.id limit ${cap}`
    : sql`select a.id, a.name, a.status, a.parent_id, a.location_id from assets a where a.org_id = ${orgId}::int order by lower(a.name), a.id limit ${cap}`;
  const rows = rowsOf<{ id: number; name: string; status: AssetNode['status']; parent_id: number | null; location_id: number | null }>(
    await tx.execute(statement),
  );
  return {
    assets: rows
      .slice(0, ASSET_TREE_CAP)
      .map((r) => ({ id: r.id, assetId: displayId('AS', r.id), name: r.name, status: r.status, parentId: r.parent_id, locationId: r.location_id })),
    truncated: rows.length > ASSET_TREE_CAP,
  };
}

/**
 * GET get-asset-summary/{id}: its children, and the roll-up (decision 072, `rollUp`) of the asset alone ("own")
 * and of the asset with all its descendants ("total"). `seesAmounts` false (a worker): no cost.
 */
export async function assetSummary(tx: ReadTx, orgId: number, id: number, seesAmounts: boolean): Promise<AssetSummary> {
  await getAsset(tx, orgId, id);
  const children = await tx
    .select({ id: assets.id, name: assets.name })
    .from(assets)
    .where(and(eq(assets.orgId, orgId), eq(assets.parentId, id)))
    .orderBy(asc(assets.name), asc(assets.id));
  const sub = subtreeIds('assets', sql`${orgId}::int`, sql`${id}::int`);
  const [row] = rowsOf<{ descendants: string | number }>(await tx.execute(sql`select count(*) - 1 as descendants from ${sub} s`));
  return {
    children: children.map((c) => ({ ...c, assetId: displayId('AS', c.id) })),
    descendants: Number(row.descendants),
    ...(await rollUp(tx, orgId, sql`(select ${id}::int as id)`, sub, seesAmounts)),
  };
}
