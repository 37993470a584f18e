import { sql } from 'drizzle-orm';
import { check, foreignKey, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAtColumn, orgIdColumn, orgScopedId, updatedAtColumn } from '../../server/db/columns';
import { organizations } from '../organization/organization.table';
import { users } from '../users/users.table';
import { customerVendors } from '../customers-vendors/customers-vendors.table';
import { taxes, uoms } from '../master-data/master-data.table';
import { services } from '../service-catalog/service-catalog.table';
import { parts } from '../parts/parts.table';
import { minor } from '../quotations/quotations.table';
import { LINE_KINDS, type StoredAttachment } from '../quotations/document-lines.schema';
import { PURCHASE_ORDER_STATUSES } from './purchase-orders.schema';

const ts = () => timestamp({ withTimezone: true, mode: 'date' });

/** Purchase orders (display number PO-0001). Totals are stored as the shared tax engine computed them. */
export const purchaseOrders = pgTable(
  'purchase_orders',
  {
    orgId: orgIdColumn(),
    id: orgScopedId(),
    status: text({ enum: PURCHASE_ORDER_STATUSES }).notNull().default('draft'),
    vendorId: integer().notNull(),
    requesterId: integer().notNull(),
    purchaseOrderDate: ts().notNull(),
    expirationDate: ts(),
    note: text(),
    attachments: jsonb().$type<StoredAttachment[]>().notNull().default([]),
    rawSubtotal: minor(),
    totalDiscount: minor(),
    untaxed: minor(),
    totalTax: minor(),
    total: minor(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.id] }),
    foreignKey({ columns: [t.orgId], foreignColumns: [organizations.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.orgId, t.vendorId], foreignColumns: [customerVendors.orgId, customerVendors.id] }),
    foreignKey({ columns: [t.orgId, t.requesterId], foreignColumns: [users.orgId, users.id] }),
    index('purchase_orders_org_status_idx').on(t.orgId, t.status, t.id),
    index('purchase_orders_org_vendor_idx').on(t.orgId, t.vendorId),
    index('purchase_orders_org_requester_idx').on(t.orgId, t.requesterId),
  ],
);

/** The service and part lines of a purchase order, in order. Amounts in minor units, computed by the server. */
export const purchaseOrderLines = pgTable(
  'purchase_order_lines',
  {
    orgId: orgIdColumn(),
    id: orgScopedId(),
    purchaseOrderId: integer().notNull(),
    kind: text({ enum: LINE_KINDS }).notNull(),
    serviceId: integer(),
    partId: integer(),
    name: text().notNull(),
    quantity: numeric({ precision: 14, scale: 3, mode: 'number' }).notNull(),
    unitPrice: minor(),
    taxId: integer(),
    discount: numeric({ precision: 7, scale: 4, mode: 'number' }).notNull().default(0),
    taxAmount: minor(),
    subtotal: minor(),
    uomId: integer(),
    position: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.id] }),
    foreignKey({ columns: [t.orgId, t.purchaseOrderId], foreignColumns: [purchaseOrders.orgId, purchaseOrders.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.orgId, t.serviceId], foreignColumns: [services.orgId, services.id] }),
    foreignKey({ columns: [t.orgId, t.partId], foreignColumns: [parts.orgId, parts.id] }),
    foreignKey({ columns: [t.orgId, t.taxId], foreignColumns: [taxes.orgId, taxes.id] }),
    foreignKey({ columns: [t.orgId, t.uomId], foreignColumns: [uoms.orgId, uoms.id] }),
    index('purchase_order_lines_doc_idx').on(t.orgId, t.purchaseOrderId, t.position),
    index('purchase_order_lines_service_idx').on(t.orgId, t.serviceId),
    index('purchase_order_lines_part_idx').on(t.orgId, t.partId),
    index('purchase_order_lines_tax_idx').on(t.orgId, t.taxId),
    check('purchase_order_lines_kind_ref', sql`(${t.kind} = 'service' and ${t.serviceId} is not null) or (${t.kind} = 'part' and ${t.partId} is not null)`),
    check('purchase_order_lines_discount_range', sql`${t.discount} between 0 and 100`),
  ],
);
