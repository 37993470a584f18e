import { simpleTableReads } from './master-data-reads';
import type { z } from 'zod';
import { assetCategories } from '../../server/db/schema';
import { conflict } from '../../server/http-error';
import { pgCode } from '../../server/db/pg-code';
import { diffChanges, registerActivityEntity } from '../activity/activity.service';
import type { AssetCategoryDto, assetCategoryInputSchema } from './master-data.schema';
import { iso } from '../../server/db/simple-list';
import { orgRow } from '../../server/db/org-rows';
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
export const { list: listAssetCategories, get: getAssetCategory } = simpleTableReads({
  statement: 'assetCategories.list',
  table: assetCategories,
  columns,
  toDto,
  key: 'assetCategories',
  noun: 'Asset category',
  alsoSearched: [assetCategories.code],
});

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
