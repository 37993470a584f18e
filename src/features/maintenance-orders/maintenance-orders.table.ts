import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { orgLinkTable, orgRefs } from '../../server/db/org-keys';
import { createdAtColumn, orgRowColumns, timestampColumn as ts } from '../../server/db/columns';
import { orgRowKeys } from '../organization/organization.table';
import { assets } from '../assets/assets.table';
import { services } from '../service-catalog/service-catalog.table';
import { parts } from '../parts/parts.table';
import { maintenanceRequests } from '../maintenance-requests/maintenance-requests.table';
import { MAINTENANCE_TYPES } from '../maintenance-requests/maintenance-requests.schema';
import { ORDER_STATUSES } from './maintenance-orders.schema';

/**
 * Preventive maintenance orders (PM-0001), planned from a maintenance request. Dates and asset are
 * nullable because 'Create Order' makes a draft from a request that the planner then completes.
 */
export const maintenanceOrders = pgTable(
  'maintenance_orders',
  {
    ...orgRowColumns(),
    status: text({ enum: ORDER_STATUSES }).notNull().default('new'),
    maintenanceRequestId: integer().notNull(),
    maintenanceType: text({ enum: MAINTENANCE_TYPES }).notNull(),
    assetId: integer(),
    scheduleDate: ts(),
    dueDate: ts(),
    completionDate: ts(),
    rootCauseAnalysis: text(),
    /** Bumped by every edit: an edit made from an older version is refused (decision 025). */
    version: integer().notNull().default(1),
    createdAt: createdAtColumn(),
  },
  (t) => [
    ...orgRowKeys(t),
    ...orgRefs(t, { maintenanceRequestId: maintenanceRequests, assetId: assets }),
    index('maintenance_orders_org_status_idx').on(t.orgId, t.status, t.id),
    index('maintenance_orders_org_request_idx').on(t.orgId, t.maintenanceRequestId),
    index('maintenance_orders_org_asset_idx').on(t.orgId, t.assetId),
    // The calendar's range: an order sits on its due date, or its schedule date without one (decision 033).
    index('maintenance_orders_org_calendar_idx').on(t.orgId, sql`coalesce(${t.dueDate}, ${t.scheduleDate})`),
  ],
);

/** The services an order performs (at least one). */
export const maintenanceOrderServices = orgLinkTable('maintenance_order_services', {
  owner: ['maintenanceOrderId', maintenanceOrders],
  target: ['serviceId', services],
  index: 'maintenance_order_services_service_idx',
});

/** The parts an order plans to use (optional). */
export const maintenanceOrderParts = orgLinkTable('maintenance_order_parts', {
  owner: ['maintenanceOrderId', maintenanceOrders],
  target: ['partId', parts],
  index: 'maintenance_order_parts_part_idx',
});
