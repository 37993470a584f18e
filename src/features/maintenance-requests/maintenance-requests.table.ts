import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { orgRefs } from '../../server/db/org-keys';
import { createdAtColumn, orgRowColumns, timestampColumn as ts } from '../../server/db/columns';
import { orgRowKeys } from '../organization/organization.table';
import { users } from '../users/users.table';
import { assets } from '../assets/assets.table';
import { customerVendors } from '../customers-vendors/customers-vendors.table';
import {
  FREQUENCIES,
  MAINTENANCE_TYPES,
  PRIORITIES,
  REQUEST_STATES,
  REQUESTER_TYPES,
  RISK_LEVELS,
  URGENCY_LEVELS,
  type Attachment,
} from './maintenance-requests.schema';

/** How work enters: a request by an employee or a customer, approved or rejected, then turned into an order. */
export const maintenanceRequests = pgTable(
  'maintenance_requests',
  {
    ...orgRowColumns(),
    title: text().notNull(),
    problemDescription: text().notNull(),
    maintenanceType: text({ enum: MAINTENANCE_TYPES }).notNull(),
    requester: text({ enum: REQUESTER_TYPES }).notNull(),
    customerId: integer(),
    priority: text({ enum: PRIORITIES }).notNull(),
    state: text({ enum: REQUEST_STATES }).notNull().default('new'),
    assignedTo: integer(),
    dateOfRequest: ts().notNull(),
    assetId: integer(),
    failureReason: text(),
    urgencyLevel: text({ enum: URGENCY_LEVELS }),
    riskLevel: text({ enum: RISK_LEVELS }).notNull(),
    scheduleDate: ts(),
    frequency: text({ enum: FREQUENCIES }),
    sensorData: text(),
    condition: text(),
    images: jsonb().$type<Attachment[]>().notNull().default([]),
    documents: jsonb().$type<Attachment[]>().notNull().default([]),
    /** Bumped by every edit: an edit made from an older version is refused (decision 025). */
    version: integer().notNull().default(1),
    createdAt: createdAtColumn(),
  },
  (t) => [
    ...orgRowKeys(t),
    ...orgRefs(t, { customerId: customerVendors, assignedTo: users, assetId: assets }),
    index('maintenance_requests_org_state_idx').on(t.orgId, t.state, t.id),
    index('maintenance_requests_org_title_idx').on(t.orgId, t.title),
    index('maintenance_requests_org_assigned_idx').on(t.orgId, t.assignedTo),
    index('maintenance_requests_org_asset_idx').on(t.orgId, t.assetId),
    index('maintenance_requests_org_customer_idx').on(t.orgId, t.customerId),
  ],
);
