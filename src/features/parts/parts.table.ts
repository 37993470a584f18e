import { index, integer, numeric, pgTable, text } from 'drizzle-orm/pg-core';
import { orgRefs } from '../../server/db/org-keys';
import { createdAtColumn, orgRowColumns } from '../../server/db/columns';
import { orgRowKeys } from '../organization/organization.table';
import { productCategories, uoms } from '../master-data/master-data.table';

export const PART_TYPES = ['consumable', 'stockable'] as const;

/** Parts. A stockable part keeps a quantity on hand, changed only through stock moves. */
export const parts = pgTable(
  'parts',
  {
    ...orgRowColumns(),
    name: text().notNull(),
    type: text({ enum: PART_TYPES }).notNull(),
    skuCode: text(),
    categoryId: integer().notNull(),
    // Major units with up to 4 decimals (ISO 4217's most); the organisation currency's own are checked on input (decision 035).
    salesPrice: numeric({ precision: 16, scale: 4, mode: 'number' }).notNull(),
    unitOfMeasureId: integer().notNull(),
    purchaseUnitOfMeasureId: integer().notNull(),
    image: text(),
    imageLow: text(),
    quantityOnHand: numeric({ precision: 14, scale: 3, mode: 'number' }).notNull().default(0),
    minimumQuantity: numeric({ precision: 14, scale: 3, mode: 'number' }).notNull().default(0),
    /** Bumped by every edit: an edit made from an older version is refused (decision 025). */
    version: integer().notNull().default(1),
    createdAt: createdAtColumn(),
  },
  (t) => [
    ...orgRowKeys(t),
    ...orgRefs(t, { categoryId: productCategories, unitOfMeasureId: uoms, purchaseUnitOfMeasureId: uoms }),
    index('parts_org_name_idx').on(t.orgId, t.name),
  ],
);
