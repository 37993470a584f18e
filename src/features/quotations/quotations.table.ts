import { sql } from 'drizzle-orm';
import { bigint, check, foreignKey, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAtColumn, orgIdColumn, orgScopedId, updatedAtColumn } from '../../server/db/columns';
import { organizations } from '../organization/organization.table';
import { users } from '../users/users.table';
import { customerVendors } from '../customers-vendors/customers-vendors.table';
import { taxes, uoms } from '../master-data/master-data.table';
import { services } from '../service-catalog/service-catalog.table';
import { parts } from '../parts/parts.table';
import { LINE_KINDS, type StoredAttachment } from './document-lines.schema';
import { QUOTATION_STATUSES } from './quotations.schema';

const ts = () => timestamp({ withTimezone: true, mode: 'date' });
/** Money in integer minor units (cents); bigint so a large document never overflows. */
export const minor = () => bigint({ mode: 'number' }).notNull().default(0);

/** Quotations (display number Q-0001). Totals are stored as the shared tax engine computed them. */
export const quotations = pgTable(
  'quotations',
  {
    orgId: orgIdColumn(),
    id: orgScopedId(),
    status: text({ enum: QUOTATION_STATUSES }).notNull().default('draft'),
    customerId: integer().notNull(),
    salesPersonId: integer().notNull(),
    quotationDate: ts().notNull(),
    expirationDate: ts().notNull(),
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
    foreignKey({ columns: [t.orgId, t.customerId], foreignColumns: [customerVendors.orgId, customerVendors.id] }),
    foreignKey({ columns: [t.orgId, t.salesPersonId], foreignColumns: [users.orgId, users.id] }),
    index('quotations_org_status_idx').on(t.orgId, t.status, t.id),
    index('quotations_org_customer_idx').on(t.orgId, t.customerId),
    index('quotations_org_sales_person_idx').on(t.orgId, t.salesPersonId),
  ],
);

/** The service and part lines of a quotation, in order. Amounts in minor units, computed by the server. */
export const quotationLines = pgTable(
  'quotation_lines',
  {
    orgId: orgIdColumn(),
    id: orgScopedId(),
    quotationId: integer().notNull(),
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
    foreignKey({ columns: [t.orgId, t.quotationId], foreignColumns: [quotations.orgId, quotations.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.orgId, t.serviceId], foreignColumns: [services.orgId, services.id] }),
    foreignKey({ columns: [t.orgId, t.partId], foreignColumns: [parts.orgId, parts.id] }),
    foreignKey({ columns: [t.orgId, t.taxId], foreignColumns: [taxes.orgId, taxes.id] }),
    foreignKey({ columns: [t.orgId, t.uomId], foreignColumns: [uoms.orgId, uoms.id] }),
    index('quotation_lines_doc_idx').on(t.orgId, t.quotationId, t.position),
    index('quotation_lines_service_idx').on(t.orgId, t.serviceId),
    index('quotation_lines_part_idx').on(t.orgId, t.partId),
    index('quotation_lines_tax_idx').on(t.orgId, t.taxId),
    check('quotation_lines_kind_ref', sql`(${t.kind} = 'service' and ${t.serviceId} is not null) or (${t.kind} = 'part' and ${t.partId} is not null)`),
    check('quotation_lines_discount_range', sql`${t.discount} between 0 and 100`),
  ],
);
