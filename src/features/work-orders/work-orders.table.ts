import { bigint, boolean, check, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { orgLinkTable, orgRef, orgRefs } from '../../server/db/org-keys';
import { sql } from 'drizzle-orm';
import { createdAtColumn, orgRowColumns, updatedAtColumn, timestampColumn as ts } from '../../server/db/columns';
import { orgRowKeys } from '../organization/organization.table';
import { assets } from '../assets/assets.table';
import { parts } from '../parts/parts.table';
import { stockLocations } from '../stock/stock.table';
import { timeTrackingReasons } from '../master-data/master-data.table';
import { users } from '../users/users.table';
import { quotations } from '../quotations/quotations.table';
import { WORK_ORDER_PRIORITIES, WORK_ORDER_STATUSES } from './work-orders.schema';
import { failureCodes } from '../failure-codes/failure-codes.table';
import { HOLD_REASONS } from '../failure-codes/failure-code-values';

/** Work orders (WO-0001 per organisation). Indexed for each list filter and sort at a million rows per organisation. */
export const workOrders = pgTable(
  'work_orders',
  {
    ...orgRowColumns(),
    title: text().notNull(),
    /** Expected duration, 'HH:MM'. */
    duration: text(),
    status: text({ enum: WORK_ORDER_STATUSES }).notNull().default('assigned'),
    priority: text({ enum: WORK_ORDER_PRIORITIES }).notNull().default('medium'),
    startDate: ts(),
    endDate: ts(),
    dueDate: ts(),
    /** Rich text (HTML), sanitised by the service before it is stored. */
    instructions: text(),
    assetId: integer(),
    /** The quotation this work was quoted in (optional; analytics compares quoted and actual, decision 038). */
    quotationId: integer(),
    /** Who created it (informational: no foreign key, so people can leave without rewriting history). */
    createdById: integer(),
    /** The failure codes it was closed with (decision 080): problem > cause > remedy. */
    problemCodeId: integer(),
    causeCodeId: integer(),
    remedyCodeId: integer(),
    /** On hold (decision 080): a flag beside the status, with its reason and note; `heldAt` while held. */
    onHold: boolean().notNull().default(false),
    holdReason: text({ enum: HOLD_REASONS }),
    holdNote: text(),
    heldAt: ts(),
    /** The seconds it spent on hold before (each resume adds its span): left out of repair times. */
    heldSeconds: integer().notNull().default(0),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [
    ...orgRowKeys(t),
    ...orgRefs(t, { assetId: assets, problemCodeId: failureCodes, causeCodeId: failureCodes, remedyCodeId: failureCodes }),
    // Failures by problem (Pareto, MTBF by failure mode, repeat failures; decision 080).
    index('work_orders_org_asset_problem_idx')
      .on(t.orgId, t.assetId, t.problemCodeId)
      .where(sql`problem_code_id is not null`),
    orgRef(t, t.quotationId, quotations),
    index('work_orders_org_status_id_idx').on(t.orgId, t.status, t.id),
    // "Due in Next 7 Days" counts open orders in a date range: only open orders are in this index, so a big
    // organisation's week reads its open orders' entries and no closed ones (docs/decisions/006).
    index('work_orders_org_open_due_idx')
      .on(t.orgId, t.dueDate)
      .where(sql`status in ('assigned', 'in-progress')`),
    // The notifications job's due-soon/overdue crossings and changed open work across organisations (decision 074).
    index('work_orders_open_due_at_idx')
      .on(t.dueDate)
      .where(sql`status in ('assigned', 'in-progress')`),
    index('work_orders_open_updated_idx')
      .on(t.updatedAt)
      .where(sql`status in ('assigned', 'in-progress')`),
    index('work_orders_org_priority_status_idx').on(t.orgId, t.priority, t.status),
    index('work_orders_org_asset_idx').on(t.orgId, t.assetId),
    // Analytics: what was created in a range (throughput, backlog over time; decision 038).
    index('work_orders_org_created_idx').on(t.orgId, t.createdAt),
    // Analytics: the open orders by age and due date (backlog now) without reading the closed ones.
    index('work_orders_org_open_created_idx')
      .on(t.orgId, t.createdAt, t.dueDate)
      .where(sql`status in ('assigned', 'in-progress')`),
    // The work linked to quotations (quoted vs actual, decision 038); a linked quotation cannot be deleted.
    index('work_orders_org_quotation_idx')
      .on(t.orgId, t.quotationId)
      .where(sql`quotation_id is not null`),
    // The calendar's range: an order sits on its due date, or its start without one (decision 033).
    index('work_orders_org_calendar_idx').on(t.orgId, sql`coalesce(${t.dueDate}, ${t.startDate})`),
    // Title "contains" search without a scan: trigram GIN with org_id first (btree_gin), so a search reads only
    // its organisation's entries, never other tenants' matches (docs/decisions/006).
    index('work_orders_org_title_trgm_idx').using('gin', t.orgId, t.title.op('gin_trgm_ops')),
  ],
);

/** Who a work order is assigned to. Deleting a person removes their assignments. */
export const workOrderAssignees = orgLinkTable('work_order_assignees', {
  owner: ['workOrderId', workOrders],
  target: ['userId', users, 'cascade'],
  extra: (t) => [index('work_order_assignees_user_idx').on(t.orgId, t.userId, t.workOrderId)],
});

/**
 * Labour time logged on a work order: a worker's (worker and reason), or a contractor's through a share
 * (external: their name and their own hourly rate in the currency's minor units; decision 040), so that every
 * sum over this table counts both.
 */
export const workOrderLabors = pgTable(
  'work_order_labors',
  {
    ...orgRowColumns(),
    workOrderId: integer().notNull(),
    workerId: integer(),
    reasonId: integer(),
    startDate: ts().notNull(),
    endDate: ts().notNull(),
    /** The share a contractor logged it through (no foreign key: shares are never deleted, only revoked). */
    shareId: integer(),
    externalName: text(),
    /** The contractor's hourly rate, in the organisation currency's minor units. */
    externalRateMinor: integer(),
    /**
     * The worker's hourly rate in force when the line was logged (minor units; null: none set): a later change
     * of the rate does not rewrite past costs (decision 063).
     */
    rateMinor: integer(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    check(
      'work_order_labors_who_check',
      sql`(${t.workerId} is not null and ${t.reasonId} is not null) or (${t.shareId} is not null and ${t.externalName} is not null and ${t.externalRateMinor} >= 0)`,
    ),
    primaryKey({ columns: [t.orgId, t.id] }),
    orgRef(t, t.workOrderId, workOrders).onDelete('cascade'),
    ...orgRefs(t, { workerId: users, reasonId: timeTrackingReasons }),
    index('work_order_labors_order_idx').on(t.orgId, t.workOrderId, t.startDate),
    // A person's labour by time (the technician view's week, analytics' assignee filter).
    index('work_order_labors_worker_idx').on(t.orgId, t.workerId, t.startDate),
    index('work_order_labors_reason_idx').on(t.orgId, t.reasonId),
    // Analytics: the labour of a range (downtime, cost, planned share; decision 038).
    index('work_order_labors_org_start_idx').on(t.orgId, t.startDate),
  ],
);

/**
 * Parts used on a work order: a part of the inventory is attached once, with a quantity; a contractor's part
 * (through a share) has their name for it and their own unit price in minor units instead (decision 040).
 */
export const workOrderParts = pgTable(
  'work_order_parts',
  {
    ...orgRowColumns(),
    workOrderId: integer().notNull(),
    partId: integer(),
    quantity: integer().notNull().default(1),
    shareId: integer(),
    externalName: text(),
    externalUnitPriceMinor: integer(),
    /** The part's sales price when it was used (minor units): a later price change does not rewrite past costs (decision 063). */
    unitPriceMinor: bigint({ mode: 'number' }),
    /** Where an inventory line's stock comes from (decision 071); null on a contractor's line. */
    locationId: integer(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    check(
      'work_order_parts_what_check',
      sql`${t.partId} is not null or (${t.shareId} is not null and ${t.externalName} is not null and ${t.externalUnitPriceMinor} >= 0)`,
    ),
    primaryKey({ columns: [t.orgId, t.id] }),
    orgRef(t, t.workOrderId, workOrders).onDelete('cascade'),
    ...orgRefs(t, { partId: parts, locationId: stockLocations }),
    uniqueIndex('work_order_parts_order_part_key').on(t.orgId, t.workOrderId, t.partId),
    index('work_order_parts_part_idx').on(t.orgId, t.partId),
    // Analytics: parts added in a range (cost).
    index('work_order_parts_org_created_idx').on(t.orgId, t.createdAt),
  ],
);
