import { boolean, date, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { orgRefs } from '../../server/db/org-keys';
import { createdAtColumn, orgRowColumns } from '../../server/db/columns';
import { orgRowKeys } from '../organization/organization.table';
import { assetCategories } from '../master-data/master-data.table';
import { customerVendors } from '../customers-vendors/customers-vendors.table';
import { locations } from '../locations/locations.table';

export const ASSET_STATUSES = ['Operational', 'Not_Operational'] as const;

export const assets = pgTable(
  'assets',
  {
    ...orgRowColumns(),
    name: text().notNull(),
    description: text(),
    serial: text(),
    assetBarcode: text(),
    assetCode: text(),
    date: date({ mode: 'string' }).notNull(),
    customerVendorId: integer(),
    assetCategoryId: integer().notNull(),
    status: text({ enum: ASSET_STATUSES }).notNull().default('Operational'),
    /** Where it is (decision 072); optional. */
    locationId: integer(),
    /** The asset it is part of (decision 072): a tree of any depth, no cycles (the service refuses them). */
    parentId: integer(),
    /** Stays up when its parent goes down (decision 079): a parent's down state does not cascade to it or under it. */
    independent: boolean().notNull().default(false),
    /** Bumped by every edit: an edit made from an older version is refused (decision 025). */
    version: integer().notNull().default(1),
    createdAt: createdAtColumn(),
  },
  (t) => [
    ...orgRowKeys(t),
    ...orgRefs(t, { assetCategoryId: assetCategories, customerVendorId: customerVendors, locationId: locations, parentId: t }),
    index('assets_org_location_idx').on(t.orgId, t.locationId),
    index('assets_org_parent_idx').on(t.orgId, t.parentId),
    index('assets_org_name_idx').on(t.orgId, t.name),
    index('assets_org_status_idx').on(t.orgId, t.status, t.id),
  ],
);
