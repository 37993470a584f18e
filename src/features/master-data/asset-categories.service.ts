import type { z } from 'zod';
import type { ReadTx, Tx } from '../../server/db/client';
import { assetCategories } from '../../server/db/schema';
import { conflict, notFound } from '../../server/http-error';
import { pgCode } from '../../server/db/pg-code';
import { diffChanges, recordActivity, registerActivityEntity } from '../activity/activity.service';
import type { AssetCategoryDto, assetCategoryInputSchema, SimpleListQuery } from './master-data.schema';
import { iso, readSimpleTable } from '../../server/db/simple-list';
import { orgRow, deleteOrgRow, readOrgRow } from '../../server/db/org-rows';

registerActivityEntity('asset-category', assetCategories, 'Asset category');

type Input = z.output<typeof assetCategoryInputSchema>;

const columns = { id: assetCategories.id, name: assetCategories.name, code: assetCategories.code, createdAt: assetCategories.createdAt };
const toDto = (r: { id: number; name: string; code: string; createdAt: Date }): AssetCategoryDto => ({
  id: r.id,
  name: r.name,
  code: r.code,
  shortCode: r.code,
  createdAt: iso(r.createdAt),
});

/** Asset categories; `name` filters on name or code. Sorted by name. */
export async function listAssetCategories(tx: ReadTx, orgId: number, query: SimpleListQuery) {
  const { rows, pagination } = await readSimpleTable(tx, 'assetCategories.list', orgId, query, assetCategories, columns, [assetCategories.code]);
  return { assetCategories: rows.map(toDto), pagination };
}

export async function getAssetCategory(tx: Tx, orgId: number, id: number) {
  const row = await readOrgRow(tx, assetCategories, columns, orgId, id);
  if (!row) throw notFound('Asset category');
  return toDto(row);
}

/** Codes are unique per organisation (case-insensitive). */
async function uniqueCode<T>(fn: () => Promise<T>) {
  try {
    return await fn();
  } catch (err) {
    if (pgCode(err) === '23505') throw conflict('An asset category with this short code already exists', 'code');
    throw err;
  }
}

export async function addAssetCategory(tx: Tx, orgId: number, actorId: number, input: Input, query: SimpleListQuery) {
  const id = await createAssetCategory(tx, orgId, actorId, input);
  return { message: 'Category added successfully', assetCategory: await getAssetCategory(tx, orgId, id), ...(await listAssetCategories(tx, orgId, query)) };
}

/** Creates one asset category (the import creates the ones its rows name, decision 042). */
export async function createAssetCategory(tx: Tx, orgId: number, actorId: number, input: Input): Promise<number> {
  const [row] = await uniqueCode(() => tx.insert(assetCategories).values({ orgId, name: input.name, code: input.code }).returning({ id: assetCategories.id }));
  await recordActivity(tx, orgId, { entityType: 'asset-category', entityId: row.id, userId: actorId, action: 'created' });
  return row.id;
}

export async function updateAssetCategory(tx: Tx, orgId: number, actorId: number, id: number, input: Input) {
  const before = await getAssetCategory(tx, orgId, id);
  await uniqueCode(() =>
    tx
      .update(assetCategories)
      .set(input)
      .where(orgRow(assetCategories, orgId, id)),
  );
  const changes = diffChanges(before as unknown as Record<string, unknown>, input, ['name', 'code']);
  if (Object.keys(changes).length) await recordActivity(tx, orgId, { entityType: 'asset-category', entityId: id, userId: actorId, action: 'updated', changes });
  return { message: 'Category updated successfully', assetCategory: await getAssetCategory(tx, orgId, id) };
}

/** Refused (409) while assets use the category. */
export async function deleteAssetCategory(tx: Tx, orgId: number, actorId: number, id: number, query: SimpleListQuery) {
  await getAssetCategory(tx, orgId, id);
  await deleteOrgRow(tx, assetCategories, orgId, id, 'This asset category is used by assets and cannot be deleted');
  await recordActivity(tx, orgId, { entityType: 'asset-category', entityId: id, userId: actorId, action: 'deleted' });
  return { message: 'Category deleted successfully', ...(await listAssetCategories(tx, orgId, query)) };
}
