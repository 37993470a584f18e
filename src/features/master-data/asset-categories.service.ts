import type { z } from 'zod';
import type { ReadTx, Tx } from '../../server/db/client';
import { assetCategories } from '../../server/db/schema';
import { conflict, notFound } from '../../server/http-error';
import { pgCode } from '../../server/db/pg-code';
import { diffChanges, registerActivityEntity } from '../activity/activity.service';
import type { AssetCategoryDto, assetCategoryInputSchema, SimpleListQuery } from './master-data.schema';
import { iso, readSimpleTable } from '../../server/db/simple-list';
import { orgRow, readOrgRow } from '../../server/db/org-rows';
import { masterDataWrites } from './master-data-writes';

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

/** Creates (the add route, and the import, decision 042), adds, updates and deletes asset categories. */
export const {
  create: createAssetCategory,
  add: addAssetCategory,
  update: updateAssetCategory,
  remove: deleteAssetCategory,
} = masterDataWrites({
  entityType: 'asset-category',
  table: assetCategories,
  get: getAssetCategory,
  list: listAssetCategories,
  insert: async (tx, orgId, input: Input) => {
    const [row] = await uniqueCode(() =>
      tx.insert(assetCategories).values({ orgId, name: input.name, code: input.code }).returning({ id: assetCategories.id }),
    );
    return row.id;
  },
  change: async (tx, orgId, id, input, before) => {
    await uniqueCode(() =>
      tx
        .update(assetCategories)
        .set(input)
        .where(orgRow(assetCategories, orgId, id)),
    );
    return diffChanges(before as unknown as Record<string, unknown>, input, ['name', 'code']);
  },
  keys: { added: 'assetCategory', updated: ['assetCategory'] },
  messages: { added: 'Category added successfully', updated: 'Category updated successfully', deleted: 'Category deleted successfully' },
  // while assets use the category
  inUse: 'This asset category is used by assets and cannot be deleted',
});
