import { simpleTableReads } from './master-data-reads';
import { countedPage } from '../../server/db/paging';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ReadTx, Tx } from '../../server/db/client';
import { uomCategories, uoms } from '../../server/db/schema';
import { conflict, notFound } from '../../server/http-error';
import { pgCode } from '../../server/db/pg-code';
import { diffChanges, registerActivityEntity } from '../activity/activity.service';
import type { UomCategoryDto, uomCategoryInputSchema, UomDto, uomInputSchema, UomListQuery, uomOptionsQuerySchema } from './master-data.schema';
import { iso, nameContains } from '../../server/db/simple-list';
import { orgRow } from '../../server/db/org-rows';
import { masterDataWrites } from './master-data-writes';
import { requireReference } from '../../server/db/references';

registerActivityEntity('uom-category', uomCategories, 'UOM category');
registerActivityEntity('uom', uoms, 'Unit of measure');

const REFERENCE_TAKEN = 'This category already has a reference unit';

// ---- UOM categories -----------------------------------------------------------------------------------

// Derived from the category's own units. Written with explicit names: in a one-table select drizzle prints the
// columns of a `sql` chunk unqualified, so `${uoms.categoryId} = ${uomCategories.id}` became the inner table's
// `category_id = id`, and every category "had" a reference once any unit's id matched its category's.
const hasReference = sql<boolean>`exists (select 1 from uoms as ref where ref.org_id = uom_categories.org_id and ref.category_id = uom_categories.id and ref.type = 'reference')`;

const categoryColumns = { id: uomCategories.id, name: uomCategories.name, isReferenceSet: hasReference, createdAt: uomCategories.createdAt };
const categoryDto = (r: { id: number; name: string; isReferenceSet: boolean; createdAt: Date }): UomCategoryDto => ({
  id: r.id,
  name: r.name,
  isReferenceSet: Boolean(r.isReferenceSet),
  createdAt: iso(r.createdAt),
});

/** UOM categories with `isReferenceSet` (whether a reference unit exists), sorted by name. */
export const { list: listUomCategories, get: getUomCategory } = simpleTableReads({
  statement: 'uomCategories.list',
  table: uomCategories,
  columns: categoryColumns,
  toDto: categoryDto,
  key: 'uomCategories',
  noun: 'UOM category',
});

/** Creates (the add route, and the import, decision 042), adds, updates and deletes UOM categories. */
export const {
  create: createUomCategory,
  add: addUomCategory,
  update: updateUomCategory,
  remove: deleteUomCategory,
} = masterDataWrites({
  entityType: 'uom-category',
  table: uomCategories,
  get: getUomCategory,
  list: listUomCategories,
  insert: async (tx, orgId, input: z.output<typeof uomCategoryInputSchema>) => {
    const [row] = await tx.insert(uomCategories).values({ orgId, name: input.name }).returning({ id: uomCategories.id });
    return row.id;
  },
  change: async (tx, orgId, id, input, before) => {
    await tx
      .update(uomCategories)
      .set({ name: input.name })
      .where(orgRow(uomCategories, orgId, id));
    return diffChanges({ name: before.name }, { name: input.name }, ['name']);
  },
  // the spec's names for these answers' records
  keys: { added: 'addedUomCategory', updated: ['category'] },
  messages: { added: 'UOM Category added successfully', updated: 'UOM Category updated successfully', deleted: 'UOM Category deleted successfully' },
  // while units of measure belong to the category
  inUse: 'This UOM category has units of measure and cannot be deleted',
});

// ---- Units of measure ---------------------------------------------------------------------------------

type UomInput = z.output<typeof uomInputSchema>;

const uomColumns = {
  id: uoms.id,
  name: uoms.name,
  categoryId: uoms.categoryId,
  ratio: uoms.ratio,
  type: uoms.type,
  categoryName: uomCategories.name,
  createdAt: uoms.createdAt,
};
const uomDto = (r: {
  id: number;
  name: string;
  categoryId: number;
  ratio: number;
  type: UomDto['type'];
  categoryName: string | null;
  createdAt: Date;
}): UomDto => ({
  id: r.id,
  name: r.name,
  categoryId: r.categoryId,
  ratio: Number(r.ratio),
  type: r.type,
  category: r.categoryName !== null ? { id: r.categoryId, name: r.categoryName } : null,
  createdAt: iso(r.createdAt),
});

const uomBase = (tx: ReadTx) =>
  tx
    .select(uomColumns)
    .from(uoms)
    .leftJoin(uomCategories, and(eq(uomCategories.orgId, uoms.orgId), eq(uomCategories.id, uoms.categoryId)));

const uomWhere = (orgId: number, query: { name?: string; categoryId?: number }) =>
  and(eq(uoms.orgId, orgId), nameContains(uoms.name, query.name), query.categoryId ? eq(uoms.categoryId, query.categoryId) : undefined);

/** Units of measure, paged on the server (name filter, optional category), sorted by name. */
export async function listUoms(tx: ReadTx, orgId: number, query: UomListQuery) {
  const where = uomWhere(orgId, query);
  const { rows, pagination } = await countedPage(tx, uoms, where, uomBase(tx).where(where).orderBy(asc(uoms.name), asc(uoms.id)).$dynamic(), query);
  return { uoms: rows.map(uomDto), pagination };
}

/** Options for unit selects: `[{ value, label, categoryId, type }]`. */
export async function listUomOptions(tx: ReadTx, orgId: number, query: z.output<typeof uomOptionsQuerySchema>) {
  const rows = await tx
    .select({ value: uoms.id, label: uoms.name, categoryId: uoms.categoryId, type: uoms.type })
    .from(uoms)
    .where(uomWhere(orgId, query))
    .orderBy(asc(uoms.name), asc(uoms.id))
    .limit(query.pageSize);
  return rows;
}

export async function getUom(tx: Tx, orgId: number, id: number) {
  const [row] = await uomBase(tx).where(orgRow(uoms, orgId, id));
  if (!row) throw notFound('Unit of measure');
  return uomDto(row);
}

/** The category must be the organisation's, and hold at most one reference unit. */
async function checkUom(tx: Tx, orgId: number, input: UomInput, selfId?: number) {
  await requireReference(tx, orgId, uomCategories, input.categoryId, 'categoryId', 'UOM category not found');
  if (input.type !== 'reference') return;
  const [taken] = await tx
    .select({ id: uoms.id })
    .from(uoms)
    .where(
      and(
        eq(uoms.orgId, orgId),
        eq(uoms.categoryId, input.categoryId),
        eq(uoms.type, 'reference'),
        selfId !== undefined ? sql`${uoms.id} <> ${selfId}` : undefined,
      ),
    );
  if (taken) throw conflict(REFERENCE_TAKEN, 'type');
}

/** Writes a unit; the partial unique index settles a race between two reference units. */
async function writeUom<T>(fn: () => Promise<T>) {
  try {
    return await fn();
  } catch (err) {
    if (pgCode(err) === '23505') throw conflict(REFERENCE_TAKEN, 'type');
    throw err;
  }
}

const uomValues = (input: UomInput) => ({ name: input.name, categoryId: input.categoryId, type: input.type, ratio: input.ratio });

/** Creates (the add route, and the import, decision 042), adds, updates and deletes units of measure. */
export const {
  create: createUom,
  add: addUom,
  update: updateUom,
  remove: deleteUom,
} = masterDataWrites({
  entityType: 'uom',
  table: uoms,
  get: getUom,
  list: listUoms,
  insert: async (tx, orgId, input: UomInput) => {
    await checkUom(tx, orgId, input);
    const [row] = await writeUom(() =>
      tx
        .insert(uoms)
        .values({ orgId, ...uomValues(input) })
        .returning({ id: uoms.id }),
    );
    return row.id;
  },
  change: async (tx, orgId, id, input, before) => {
    await checkUom(tx, orgId, input, id);
    const values = uomValues(input);
    await writeUom(() =>
      tx
        .update(uoms)
        .set(values)
        .where(orgRow(uoms, orgId, id)),
    );
    return diffChanges(before as unknown as Record<string, unknown>, values, ['name', 'categoryId', 'type', 'ratio']);
  },
  // an update answers the unit under `category` too (the spec's name for this call's response)
  keys: { added: 'uom', updated: ['uom', 'category'] },
  messages: { added: 'UOM added successfully', updated: 'UOM updated successfully', deleted: 'UOM deleted successfully' },
  // while parts use the unit
  inUse: 'This unit of measure is used by other records and cannot be deleted',
});
