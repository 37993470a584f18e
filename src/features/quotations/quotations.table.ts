import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { orgRowColumns } from '../../server/db/columns';
import {
  documentConstraints,
  documentLineColumns,
  documentLineConstraints,
  documentTailColumns,
  documentTimestamp as ts,
} from '../commercial-documents/commercial-documents.table';
import { QUOTATION_STATUSES } from './quotations.schema';

/** Quotations (display number Q-0001). Totals are stored as the shared tax engine computed them. */
export const quotations = pgTable(
  'quotations',
  {
    ...orgRowColumns(),
    status: text({ enum: QUOTATION_STATUSES }).notNull().default('draft'),
    customerId: integer().notNull(),
    salesPersonId: integer().notNull(),
    quotationDate: ts().notNull(),
    expirationDate: ts().notNull(),
    ...documentTailColumns(),
  },
  (t) => documentConstraints('quotations', t, { column: t.customerId, index: 'customer' }, { column: t.salesPersonId, index: 'sales_person' }),
);

/** The service and part lines of a quotation, in order. Amounts in minor units, computed by the server. */
export const quotationLines = pgTable('quotation_lines', documentLineColumns('quotationId'), (t) =>
  documentLineConstraints('quotation_lines', t, { column: t.quotationId, table: quotations }),
);
