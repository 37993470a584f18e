import { sql, type BuildExtraConfigColumns } from 'drizzle-orm';
import { boolean, index, integer, numeric, pgTable, text, uniqueIndex, type PgColumnBuilderBase, type PgTableExtraConfigValue } from 'drizzle-orm/pg-core';
import { orgLinkTable, orgRef } from '../../server/db/org-keys';
import { orgRowKeys } from '../organization/organization.table';
import { createdAtColumn, orgRowColumns } from '../../server/db/columns';

const nameColumn = () => text().notNull();
/** Every column of a master-data table: the organisation's row, its name, the list's own columns, when it was created. */
type MasterDataColumns<C> = ReturnType<typeof orgRowColumns> & { name: ReturnType<typeof nameColumn> } & C & { createdAt: ReturnType<typeof createdAtColumn> };

/**
 * A master-data table: the organisation's row (orgId, id), a name, the list's own `columns`, and when the row was
 * created, in that order; keyed by organisation and id, and by the `more` keys and indexes given.
 */
function masterDataTable<N extends string, C extends Record<string, PgColumnBuilderBase>>(
  table: N,
  columns: C,
  more: (t: BuildExtraConfigColumns<N, MasterDataColumns<C>, 'pg'>) => PgTableExtraConfigValue[] = () => [],
) {
  return pgTable(table, { ...orgRowColumns(), name: nameColumn(), ...columns, createdAt: createdAtColumn() }, (t) => [...orgRowKeys(t), ...more(t)]);
}

/** Product categories (a tree: parentId points to another category of the same organisation). */
export const productCategories = masterDataTable('product_categories', { parentId: integer() }, (t) => [orgRef(t, t.parentId, t)]);

export const TAX_SCOPES = ['sales', 'purchase'] as const;
export const TAX_COMPUTATIONS = ['fixed', 'percentage_of_price', 'group', 'percentage_of_price_tax_included'] as const;

/** Taxes. amount is a money amount for `fixed`, a percent otherwise (negative: a withholding), null for `group`. */
export const taxes = masterDataTable('taxes', {
  scope: text({ enum: TAX_SCOPES }).notNull(),
  taxComputation: text({ enum: TAX_COMPUTATIONS }).notNull(),
  amount: numeric({ precision: 14, scale: 4, mode: 'number' }),
  isPriceIncluded: boolean().notNull().default(false),
  /** Order of application within a group (Odoo's sequence; lower first, then id). */
  sequence: integer().notNull().default(1),
  /** The tax's amount joins the base of the taxes applied after it (Odoo's include_base_amount). */
  includeBaseAmount: boolean().notNull().default(false),
});

/** The child taxes of a group tax (never other groups: enforced by the service). */
export const taxChildren = orgLinkTable('tax_children', { owner: ['groupId', taxes], target: ['childId', taxes] });

export const uomCategories = masterDataTable('uom_categories', {});

export const UOM_TYPES = ['reference', 'bigger', 'lesser'] as const;

/** Units of measure. A category has at most one reference unit (ratio 1): a partial unique index says so. */
export const uoms = masterDataTable(
  'uoms',
  {
    categoryId: integer().notNull(),
    ratio: numeric({ precision: 14, scale: 6, mode: 'number' }).notNull().default(1),
    type: text({ enum: UOM_TYPES }).notNull(),
  },
  (t) => [
    orgRef(t, t.categoryId, uomCategories),
    uniqueIndex('uoms_one_reference_per_category')
      .on(t.orgId, t.categoryId)
      .where(sql`${t.type} = 'reference'`),
    index('uoms_org_name_idx').on(t.orgId, t.name),
  ],
);

export const assetCategories = masterDataTable('asset_categories', { code: text().notNull() }, (t) => [
  uniqueIndex('asset_categories_org_code_key').on(t.orgId, sql`lower(${t.code})`),
]);

export const REASON_TYPES = ['productivity', 'availability', 'quality', 'performance'] as const;

export const timeTrackingReasons = masterDataTable('time_tracking_reasons', {
  type: text({ enum: REASON_TYPES }).notNull(),
  isBlockingReason: boolean().notNull().default(false),
});
