import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { orgRef } from '../../server/db/org-keys';
import { orgIdColumn } from '../../server/db/columns';
import { workOrders } from '../work-orders/work-orders.table';

/**
 * When each closed work order was closed (completed or cancelled), kept by two statement triggers on work_orders
 * (migration 0032): a fact of the order (the instant it closed, which no column of work_orders holds), not a
 * roll-up; throughput, the backlog over time, MTTR and MTBF read it (decisions 038, 063). A reopened order loses
 * its row; an order inserted closed takes its updated_at (imports, the demo seed, the benchmark generator).
 */
export const workOrderClosures = pgTable(
  'work_order_closures',
  {
    orgId: orgIdColumn(),
    workOrderId: integer().notNull(),
    status: text({ enum: ['completed', 'cancelled'] }).notNull(),
    closedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.workOrderId] }),
    orgRef(t, t.workOrderId, workOrders).onDelete('cascade'),
    index('work_order_closures_org_closed_idx').on(t.orgId, t.closedAt),
  ],
);
