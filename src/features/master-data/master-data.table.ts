import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, integer, numeric, pgTable, primaryKey, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAtColumn, orgIdColumn, orgRowColumns } from '../../server/db/columns';
import { organizations } from '../organization/organization.table';

const orgFk = (t: { orgId: AnyPgColumn }) => foreignKey({ columns: [t.orgId], foreignColumns: [organizations.id] }).onDelete('cascade');

/** Product categories (a tree: parentId points to another category of the same organisation). */
export const productCategories = pgTable(
  'product_categories',
  {
    ...orgRowColumns(),
    name: text().notNull(),
    parentId: integer(),
    createdAt: createdAtColumn(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.id] }), orgFk(t), foreignKey({ columns: [t.orgId, t.parentId], foreignColumns: [t.orgId, t.id] })],
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
  (t) => [primaryKey({ columns: [t.orgId, t.id] }), orgFk(t)],
);

/** The child taxes of a group tax (never other groups: enforced by the service). */
export const taxChildren = pgTable(
  'tax_children',
  {
    orgId: orgIdColumn(),
    groupId: integer().notNull(),
    childId: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.groupId, t.childId] }),
    foreignKey({ columns: [t.orgId, t.groupId], foreignColumns: [taxes.orgId, taxes.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.orgId, t.childId], foreignColumns: [taxes.orgId, taxes.id] }),
  ],
);

export const uomCategories = pgTable(
  'uom_categories',
  {
    ...orgRowColumns(),
    name: text().notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.id] }), orgFk(t)],
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
    primaryKey({ columns: [t.orgId, t.id] }),
    orgFk(t),
    foreignKey({ columns: [t.orgId, t.categoryId], foreignColumns: [uomCategories.orgId, uomCategories.id] }),
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
  (t) => [primaryKey({ columns: [t.orgId, t.id] }), orgFk(t), uniqueIndex('asset_categories_org_code_key').on(t.orgId, sql`lower(${t.code})`)],
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
  (t) => [primaryKey({ columns: [t.orgId, t.id] }), orgFk(t)],
);
