import { date, foreignKey, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations } from '../organization/organization.table';
import { orgIdColumn } from '../../server/db/columns';
import { workOrders } from '../work-orders/work-orders.table';

/**
 * When each closed work order was closed (completed or cancelled), kept by a row trigger on work_orders
 * (custom migration): throughput, backlog over time, MTTR and MTBF read a completion time from an index instead
 * of the history lines (decision 038). A reopened order loses its row; an order inserted closed takes its
 * updated_at (imports, the demo seed, the benchmark generator).
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
    foreignKey({ columns: [t.orgId, t.workOrderId], foreignColumns: [workOrders.orgId, workOrders.id] }).onDelete('cascade'),
    index('work_order_closures_org_closed_idx').on(t.orgId, t.closedAt),
  ],
);

/**
 * The daily roll-up (decision 038): per organisation and UTC day, work orders created, closed (completed or
 * cancelled) and completed, kept by statement triggers on work_orders and work_order_closures (custom migration).
 * Throughput and the backlog over time read it when no filter is set, instead of a year of a big organisation's rows.
 */
export const workOrderDailyCounts = pgTable(
  'work_order_daily_counts',
  {
    orgId: orgIdColumn(),
    day: date({ mode: 'string' }).notNull(),
    created: integer().notNull().default(0),
    closed: integer().notNull().default(0),
    completed: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.day] }), foreignKey({ columns: [t.orgId], foreignColumns: [organizations.id] }).onDelete('cascade')],
);
