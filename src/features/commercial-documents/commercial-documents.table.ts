import { sql } from 'drizzle-orm';
import { bigint, check, foreignKey, index, integer, jsonb, numeric, primaryKey, text, type AnyPgColumn, type PgTableWithColumns } from 'drizzle-orm/pg-core';
import { orgRefs } from '../../server/db/org-keys';
import { orgRowKeys } from '../organization/organization.table';
import { createdAtColumn, orgIdColumn, orgScopedId, updatedAtColumn, timestampColumn } from '../../server/db/columns';
import { users } from '../users/users.table';
import { customerVendors } from '../customers-vendors/customers-vendors.table';
import { taxes, uoms } from '../master-data/master-data.table';
import { services } from '../service-catalog/service-catalog.table';
import { parts } from '../parts/parts.table';
import { LINE_KINDS, type StoredAttachment } from './document-lines.schema';

/**
 * The columns and constraints quotations and purchase orders share (no table of its own: each feature's
 * `*.table.ts` declares its tables with these helpers, so the generated schema is what it was column for column).
 */

export const documentTimestamp = timestampColumn;
/** Money in integer minor units of the organisation currency (JPY yen, USD cents, KWD fils; decision 035); bigint so a large document never overflows. */
export const minor = () => bigint({ mode: 'number' }).notNull().default(0);

/** Document columns after its own (status, party, person, dates): note, attachments, stored totals, timestamps. */
export const documentTailColumns = () => ({
  note: text(),
  attachments: jsonb().$type<StoredAttachment[]>().notNull().default([]),
  rawSubtotal: minor(),
  totalDiscount: minor(),
  untaxed: minor(),
  totalTax: minor(),
  total: minor(),
  createdAt: createdAtColumn(),
  updatedAt: updatedAtColumn(),
});

interface DocumentColumns {
  orgId: AnyPgColumn;
  id: AnyPgColumn;
  status: AnyPgColumn;
}

/** Primary key, organisation, party (customer or vendor) and person (user) keys, and the list indexes. */
export const documentConstraints = (
  name: string,
  t: DocumentColumns,
  party: { column: AnyPgColumn; index: string },
  person: { column: AnyPgColumn; index: string },
) => [
  ...orgRowKeys(t),
  foreignKey({ columns: [t.orgId, party.column], foreignColumns: [customerVendors.orgId, customerVendors.id] }),
  foreignKey({ columns: [t.orgId, person.column], foreignColumns: [users.orgId, users.id] }),
  index(`${name}_org_status_idx`).on(t.orgId, t.status, t.id),
  index(`${name}_org_${party.index}_idx`).on(t.orgId, party.column),
  index(`${name}_org_${person.index}_idx`).on(t.orgId, person.column),
];

const requiredInteger = () => integer().notNull();

/** A line's columns: `docColumn` is its document's id column (quotationId, purchaseOrderId). */
export const documentLineColumns = <K extends string>(docColumn: K) => ({
  orgId: orgIdColumn(),
  id: orgScopedId(),
  ...({ [docColumn]: requiredInteger() } as Record<K, ReturnType<typeof requiredInteger>>),
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
});
interface LineColumns {
  orgId: AnyPgColumn;
  id: AnyPgColumn;
  kind: AnyPgColumn;
  serviceId: AnyPgColumn;
  partId: AnyPgColumn;
  taxId: AnyPgColumn;
  uomId: AnyPgColumn;
  discount: AnyPgColumn;
  position: AnyPgColumn;
}

/** A line table's keys (its document, cascading; catalogue, tax, unit), indexes and checks, named `${name}_…`. */
export const documentLineConstraints = (name: string, t: LineColumns, doc: { column: AnyPgColumn; table: PgTableWithColumns<any> }) => [
  primaryKey({ columns: [t.orgId, t.id] }),
  foreignKey({ columns: [t.orgId, doc.column], foreignColumns: [doc.table.orgId, doc.table.id] }).onDelete('cascade'),
  ...orgRefs(t, { serviceId: services, partId: parts, taxId: taxes, uomId: uoms }),
  index(`${name}_doc_idx`).on(t.orgId, doc.column, t.position),
  index(`${name}_service_idx`).on(t.orgId, t.serviceId),
  index(`${name}_part_idx`).on(t.orgId, t.partId),
  index(`${name}_tax_idx`).on(t.orgId, t.taxId),
  check(`${name}_kind_ref`, sql`(${t.kind} = 'service' and ${t.serviceId} is not null) or (${t.kind} = 'part' and ${t.partId} is not null)`),
  check(`${name}_discount_range`, sql`${t.discount} between 0 and 100`),
];
