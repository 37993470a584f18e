import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { orgRowColumns } from '../../server/db/columns';
import {
  documentConstraints,
  documentLineColumns,
  documentLineConstraints,
  documentTailColumns,
  documentTimestamp as ts,
} from '../commercial-documents/commercial-documents.table';
import { PURCHASE_ORDER_STATUSES } from './purchase-orders.schema';

/** Purchase orders (display number PO-0001). Totals are stored as the shared tax engine computed them. */
export const purchaseOrders = pgTable(
  'purchase_orders',
  {
    ...orgRowColumns(),
    status: text({ enum: PURCHASE_ORDER_STATUSES }).notNull().default('draft'),
    vendorId: integer().notNull(),
    requesterId: integer().notNull(),
    purchaseOrderDate: ts().notNull(),
    expirationDate: ts(),
    ...documentTailColumns(),
  },
  (t) => documentConstraints('purchase_orders', t, { column: t.vendorId, index: 'vendor' }, { column: t.requesterId, index: 'requester' }),
);

/** The service and part lines of a purchase order, in order. Amounts in minor units, computed by the server. */
export const purchaseOrderLines = pgTable('purchase_order_lines', documentLineColumns('purchaseOrderId'), (t) =>
  documentLineConstraints('purchase_order_lines', t, { column: t.purchaseOrderId, table: purchaseOrders }),
);
