import { sql } from 'drizzle-orm';
import { boolean, index, integer, numeric, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { orgLinkTable, orgRef } from '../../server/db/org-keys';
import { orgRowKeys } from '../organization/organization.table';
import { createdAtColumn, orgRowColumns } from '../../server/db/columns';

/** Product categories (a tree: parentId points to another category of the same organisation). */
export const productCategories = pgTable(
  'product_categories',
  {
    ...orgRowColumns(),
    name: text().notNull(),
    parentId: integer(),
    createdAt: createdAtColumn(),
  },
  (t) => [...orgRowKeys(t), orgRef(t, t.parentId, t)],
);

export const TAX_SCOPES = ['sales', 'purchase'] as const;
export const TAX_COMPUTATIONS = ['fixed', 'percentage_of_price', 'group', 'percentage_of_price_tax_included'] as const;

/** Taxes. amount is a money amount for `fixed`, a percent otherwise (negative: a withholding), null for `group`. */
export const taxes = pgTable(
  'taxes',
  {
    ...orgRowColumns(),
    name: text().notNull(),
    scope: text({ enum: TAX_SCOPES }).notNull(),
    taxComputation: text({ enum: TAX_COMPUTATIONS }).notNull(),
    amount: numeric({ precision: 14, scale: 4, mode: 'number' }),
    isPriceIncluded: boolean().notNull().default(false),
    /** Order of application within a group (Odoo's sequence; lower first, then id). */
    sequence: integer().notNull().default(1),
    /** The tax's amount joins the base of the taxes applied after it (Odoo's include_base_amount). */
    includeBaseAmount: boolean().notNull().default(false),
    createdAt: createdAtColumn(),
  },
  (t) => orgRowKeys(t),
);

/** The child taxes of a group tax (never other groups: enforced by the service). */
export const taxChildren = orgLinkTable('tax_children', { owner: ['groupId', taxes], target: ['childId', taxes] });

export const uomCategories = pgTable(
  'uom_categories',
  {
    ...orgRowColumns(),
    name: text().notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => orgRowKeys(t),
);

export const UOM_TYPES = ['reference', 'bigger', 'lesser'] as const;

/** Units of measure. A category has at most one reference unit (ratio 1): a partial unique index says so. */
export const uoms = pgTable(
  'uoms',
  {
    ...orgRowColumns(),
    name: text().notNull(),
    categoryId: integer().notNull(),
    ratio: numeric({ precision: 14, scale: 6, mode: 'number' }).notNull().default(1),
    type: text({ enum: UOM_TYPES }).notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    ...orgRowKeys(t),
    orgRef(t, t.categoryId, uomCategories),
    uniqueIndex('uoms_one_reference_per_category')
      .on(t.orgId, t.categoryId)
      .where(sql`${t.type} = 'reference'`),
    index('uoms_org_name_idx').on(t.orgId, t.name),
  ],
);

export const assetCategories = pgTable(
  'asset_categories',
  {
    ...orgRowColumns(),
    name: text().notNull(),
    code: text().notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [...orgRowKeys(t), uniqueIndex('asset_categories_org_code_key').on(t.orgId, sql`lower(${t.code})`)],
);

export const REASON_TYPES = ['productivity', 'availability', 'quality', 'performance'] as const;

export const timeTrackingReasons = pgTable(
  'time_tracking_reasons',
  {
    ...orgRowColumns(),
    name: text().notNull(),
    type: text({ enum: REASON_TYPES }).notNull(),
    isBlockingReason: boolean().notNull().default(false),
    createdAt: createdAtColumn(),
  },
  (t) => orgRowKeys(t),
);
