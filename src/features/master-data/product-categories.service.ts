import { and, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { ReadTx, Tx } from '../../server/db/client';
import { productCategories } from '../../server/db/schema';
import { badRequest, notFound } from '../../server/http-error';
import { diffChanges, registerActivityEntity } from '../activity/activity.service';
import type { ProductCategoryDto, productCategoryInputSchema, SimpleListQuery } from './master-data.schema';
import { iso, readSimpleList } from '../../server/db/simple-list';
import { orgRow } from '../../server/db/org-rows';
import { masterDataWrites } from './master-data-writes';
import { pick } from '../../shared/pick';

registerActivityEntity('product-category', productCategories, 'Product category');

type Input = z.output<typeof productCategoryInputSchema>;
const parent = alias(productCategories, 'parent');

const columns = {
  ...pick(productCategories, 'id', 'name', 'parentId'),
  parentName: parent.name,
  createdAt: productCategories.createdAt,
};

const toDto = (r: { id: number; name: string; parentId: number | null; parentName: string | null; createdAt: Date }): ProductCategoryDto => ({
  ...pick(r, 'id', 'name', 'parentId'),
  parent: r.parentId !== null ? { id: r.parentId, name: r.parentName ?? '' } : null,
  createdAt: iso(r.createdAt),
});

const base = <T extends typeof columns>(tx: ReadTx, selected: T = columns as T) =>
  tx
    .select(selected)
    .from(productCategories)
    .leftJoin(parent, and(eq(parent.orgId, productCategories.orgId), eq(parent.id, productCategories.parentId)));

/** The organisation's product categories (name filter), sorted by name. */
export async function listProductCategories(tx: ReadTx, orgId: number, query: SimpleListQuery) {
  const { rows, pagination } = await readSimpleList(tx, 'productCategories.list', orgId, query, productCategories, (total) =>
    base(tx, { ...columns, total }).$dynamic(),
  );
  return { productCategories: rows.map(toDto), pagination };
}

export async function getProductCategory(tx: Tx, orgId: number, id: number) {
  const [row] = await base(tx).where(orgRow(productCategories, orgId, id));
  if (!row) throw notFound('Product category');
  return toDto(row);
}

/** The parent must be a category of this organisation, and not the category itself or one of its descendants. */
async function checkParent(tx: Tx, orgId: number, parentId: number | null | undefined, selfId?: number) {
  if (!parentId) return null;
  if (selfId !== undefined && parentId === selfId) throw badRequest('A category cannot be its own parent', 'parentId');
  let current: number | null = parentId;
  for (let depth = 0; current !== null && depth < 1000; depth++) {
    const [row] = await tx
      .select({ parentId: productCategories.parentId })
      .from(productCategories)
      .where(and(eq(productCategories.orgId, orgId), eq(productCategories.id, current)));
    if (!row) throw badRequest('Parent category not found', 'parentId');
    if (selfId !== undefined && row.parentId === selfId) throw badRequest('A category cannot be its own ancestor', 'parentId');
    current = row.parentId;
  }
  return parentId;
}

/** Creates (the add route, and the import, decision 042), adds, updates and deletes product categories. */
export const {
  create: createProductCategory,
  add: addProductCategory,
  update: updateProductCategory,
  remove: deleteProductCategory,
} = masterDataWrites({
  entityType: 'product-category',
  table: productCategories,
  get: getProductCategory,
  list: listProductCategories,
  insert: async (tx, orgId, input: Input) => {
    const parentId = await checkParent(tx, orgId, input.parentId);
    const [row] = await tx.insert(productCategories).values({ orgId, name: input.name, parentId }).returning({ id: productCategories.id });
    return row.id;
  },
  change: async (tx, orgId, id, input, before) => {
    const values = { name: input.name, parentId: await checkParent(tx, orgId, input.parentId, id) };
    await tx
      .update(productCategories)
      .set(values)
      .where(orgRow(productCategories, orgId, id));
    return diffChanges(before as unknown as Record<string, unknown>, values, ['name', 'parentId']);
  },
  keys: { added: 'productCategory', updated: ['productCategory'] },
  messages: { added: 'Category added successfully', updated: 'Category updated successfully', deleted: 'Category deleted successfully' },
  // while parts or sub-categories use the category
  inUse: 'This category is used by other records (parts or sub-categories) and cannot be deleted',
});
