import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { orgLinkTable, orgRef, orgRefs, orgSettingsTable } from '../../server/db/org-keys';
import { orgOwned } from '../organization/organization.table';
import { createdAtColumn, orgIdColumn, orgScopedId } from '../../server/db/columns';
import { locations } from '../locations/locations.table';
import { parts } from '../parts/parts.table';
import { purchaseOrders } from '../purchase-orders/purchase-orders.table';

export const LOCATION_KINDS = ['storeroom', 'van', 'site-store'] as const;
export const MOVE_REASONS = ['count', 'consumption', 'return', 'receipt', 'transfer', 'initial'] as const;

/** Where stock is kept (decision 071): a storeroom, a van, a site store. One per organisation is the default. */
export const stockLocations = pgTable(
  'stock_locations',
  {
    orgId: orgIdColumn(),
    id: orgScopedId(),
    name: text().notNull(),
    kind: text({ enum: LOCATION_KINDS }).notNull(),
    /** The location a part line, an opening stock or a part's own quantity means when none is named. */
    isDefault: boolean().notNull().default(false),
    /** Where it is in the location tree (issue 42, decision 072); a location with a storeroom cannot be deleted. */
    locationId: integer(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.id] }),
    check('stock_locations_kind_check', sql`${t.kind} in ('storeroom', 'van', 'site-store')`),
    orgOwned(t),
    orgRef(t, t.locationId, locations),
    index('stock_locations_org_location_idx').on(t.orgId, t.locationId),
    uniqueIndex('stock_locations_org_name_key').on(t.orgId, sql`lower(${t.name})`),
    uniqueIndex('stock_locations_org_default_key')
      .on(t.orgId)
      .where(sql`${t.isDefault}`),
  ],
);

/**
 * A part's stock at one location: the sum of its moves in and out, kept by the stock service in the transaction
 * of each move (no trigger), with the location's reorder point and quantity and the bin the part sits in.
 */
export const stockLevels = orgLinkTable('stock_levels', {
  owner: ['partId', parts],
  target: ['locationId', stockLocations, 'cascade'],
  index: 'stock_levels_location_idx',
  columns: {
    quantity: numeric({ precision: 14, scale: 3, mode: 'number' }).notNull().default(0),
    reorderPoint: numeric({ precision: 14, scale: 3, mode: 'number' }).notNull().default(0),
    reorderQuantity: numeric({ precision: 14, scale: 3, mode: 'number' }).notNull().default(0),
    bin: text(),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
});

/**
 * The ledger: every change of stock, never overwritten. `quantity` is positive and goes from `fromLocationId`
 * (null: from outside, e.g. a receipt or a count's surplus) to `toLocationId` (null: out, e.g. consumption).
 * Moves written before decision 071 have neither location (signed quantity, their text in `note`): history only.
 * The work order and purchase order ids are plain numbers: the ledger outlives a deleted order.
 */
export const stockMoves = pgTable(
  'stock_moves',
  {
    orgId: orgIdColumn(),
    id: orgScopedId(),
    partId: integer().notNull(),
    fromLocationId: integer(),
    toLocationId: integer(),
    quantity: numeric({ precision: 14, scale: 3, mode: 'number' }).notNull(),
    /** Unit cost in the organisation currency's minor units, when known (receipts; valuation next). */
    unitCostMinor: bigint({ mode: 'number' }),
    reason: text().notNull(),
    note: text(),
    userId: integer(),
    workOrderId: integer(),
    purchaseOrderId: integer(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.id] }),
    check('stock_moves_reason_check', sql`${t.reason} in ('count', 'consumption', 'return', 'receipt', 'transfer', 'initial')`),
    // A ledger move goes somewhere, a positive quantity; only the history before decision 071 has no location.
    check(
      'stock_moves_direction_check',
      sql`(${t.fromLocationId} is null and ${t.toLocationId} is null) or (${t.quantity} > 0 and ${t.fromLocationId} is distinct from ${t.toLocationId})`,
    ),
    orgRef(t, t.partId, parts).onDelete('cascade'),
    ...orgRefs(t, { fromLocationId: stockLocations, toLocationId: stockLocations }),
    index('stock_moves_part_idx').on(t.orgId, t.partId, t.createdAt),
    index('stock_moves_from_idx').on(t.orgId, t.fromLocationId, t.id),
    index('stock_moves_to_idx').on(t.orgId, t.toLocationId, t.id),
    index('stock_moves_work_order_idx').on(t.orgId, t.workOrderId, t.partId),
    index('stock_moves_purchase_order_idx').on(t.orgId, t.purchaseOrderId),
  ],
);

/** The organisation's stock settings: one row, absent means the defaults. */
export const stockSettings = orgSettingsTable('stock_settings', {
  /** A consumption or transfer may take a level below zero. */
  allowNegativeStock: boolean().notNull().default(false),
});

/**
 * What stock keeps about a part beside its levels (decision 081): the vendor reorders go to and the moving average
 * unit cost receipts keep (minor units). A side table, so the part's own contract (the spec's) stays as it is.
 */
export const stockPartSettings = pgTable(
  'stock_part_settings',
  {
    orgId: orgIdColumn(),
    partId: integer().notNull(),
    /** A vendor of the organisation (checked by the service; no key, so deleting the vendor is not blocked: reorders then skip it). */
    preferredVendorId: integer(),
    averageCostMinor: bigint({ mode: 'number' }),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.partId] }), orgRef(t, t.partId, parts).onDelete('cascade')],
);

/**
 * What a reorder draft asked for (decision 081): a part for a location on a purchase order. The location a
 * purchase order's part is meant for (receipts may go elsewhere); purchase orders not drafted by the job count
 * for the default location.
 */
export const stockReorders = pgTable(
  'stock_reorders',
  {
    orgId: orgIdColumn(),
    id: orgScopedId(),
    purchaseOrderId: integer().notNull(),
    partId: integer().notNull(),
    locationId: integer().notNull(),
    quantity: numeric({ precision: 14, scale: 3, mode: 'number' }).notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.id] }),
    orgRef(t, t.purchaseOrderId, purchaseOrders).onDelete('cascade'),
    orgRef(t, t.partId, parts).onDelete('cascade'),
    orgRef(t, t.locationId, stockLocations).onDelete('cascade'),
    index('stock_reorders_part_idx').on(t.orgId, t.partId, t.locationId),
  ],
);
