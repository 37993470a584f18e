import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { orgRef } from '../../server/db/org-keys';
import { createdAtColumn, orgRowColumns } from '../../server/db/columns';
import { orgRowKeys } from '../organization/organization.table';
import { workOrders } from '../work-orders/work-orders.table';

/**
 * Photos a technician took into a work order outside its procedure's steps (issue 27, decision 041): the
 * stored image's URL (re-encoded WebP), who took it. Deleting the work order deletes its rows, and
 * `deleteWorkOrder` discards their files.
 */
export const workOrderPhotos = pgTable(
  'work_order_photos',
  {
    ...orgRowColumns(),
    workOrderId: integer().notNull(),
    url: text().notNull(),
    /** Who took it (informational: no foreign key, so people can leave without rewriting history). */
    userId: integer(),
    createdAt: createdAtColumn(),
  },
  (t) => [...orgRowKeys(t), orgRef(t, t.workOrderId, workOrders).onDelete('cascade'), index('work_order_photos_order_idx').on(t.orgId, t.workOrderId, t.id)],
);
