import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { orgRef } from '../../server/db/org-keys';
import { createdAtColumn, orgRowColumns } from '../../server/db/columns';
import { orgRowKeys } from '../organization/organization.table';

export interface StoredDocument {
  url: string;
  name: string;
}

/** Customers and vendors (one table, `type` tells which). */
export const customerVendors = pgTable(
  'customer_vendors',
  {
    ...orgRowColumns(),
    name: text().notNull(),
    email: text().notNull(),
    type: text({ enum: ['customer', 'vendor'] }).notNull(),
    category: text({ enum: ['individual', 'company'] }).notNull(),
    parentId: integer(),
    street: text(),
    street2: text(),
    city: text(),
    state: text(),
    zipCode: text(),
    country: text(),
    tinVat: text(),
    phone: text(),
    mobile: text(),
    website: text(),
    customerDocuments: jsonb().$type<StoredDocument[]>().notNull().default([]),
    profilePicture: text(),
    profilePictureLow: text(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    ...orgRowKeys(t),
    orgRef(t, t.parentId, t),
    index('customer_vendors_org_type_idx').on(t.orgId, t.type, t.id),
    index('customer_vendors_org_name_idx').on(t.orgId, t.name),
    // "name contains" filters (list and options) stay cheap in a big organisation; org_id first (btree_gin), so
    // a search reads only this organisation's entries, as for work-order titles.
    index('customer_vendors_org_name_trgm_idx').using('gin', t.orgId, t.name.op('gin_trgm_ops')),
    index('customer_vendors_org_email_trgm_idx').using('gin', t.orgId, t.email.op('gin_trgm_ops')),
  ],
);
