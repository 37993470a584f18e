import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { LANGUAGES } from '../../shared/record-fields.schema';
import { orgRef } from '../../server/db/org-keys';
import { createdAtColumn, orgIdColumn, orgRowColumns, updatedAtColumn } from '../../server/db/columns';
import { orgRowKeys, orgOwned } from '../organization/organization.table';
import { FIELD_MODES, PORTAL_STATUSES, PORTAL_URGENCIES, TARGET_KINDS, type TargetKind } from './request-portal.values';

/** The public request portal of an organisation (decision 039): one row, made on the first save. Off until an admin turns it on. */
export const portalSettings = pgTable(
  'portal_settings',
  {
    orgId: orgIdColumn(),
    enabled: boolean().notNull().default(false),
    nameField: text({ enum: FIELD_MODES }).notNull().default('optional'),
    emailField: text({ enum: FIELD_MODES }).notNull().default('optional'),
    phoneField: text({ enum: FIELD_MODES }).notNull().default('hidden'),
    /** Requesters with an e-mail address are told of status changes and replies. */
    notifyRequester: boolean().notNull().default(true),
    welcome: text(),
    /** The general portal's short list of places (assets, work stations) a requester picks from. */
    published: jsonb().$type<{ kind: TargetKind; id: number }[]>().notNull().default([]),
    updatedAt: updatedAtColumn(),
  },
  (t) => [primaryKey({ columns: [t.orgId] }), orgOwned(t)],
);

/**
 * The QR code of an asset or work station: a random token (128 bits, never sequential) kept as it is, since
 * it is printed on the label. The code's URL is https://<subdomain>.<base>/r/<token>.
 */
export const portalCodes = pgTable(
  'portal_codes',
  {
    ...orgRowColumns(),
    kind: text({ enum: TARGET_KINDS }).notNull(),
    targetId: integer().notNull(),
    token: text().notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    ...orgRowKeys(t),
    uniqueIndex('portal_codes_org_target_key').on(t.orgId, t.kind, t.targetId),
    uniqueIndex('portal_codes_org_token_key').on(t.orgId, t.token),
  ],
);

/**
 * A request sent through the portal by someone without an account. Its status link's token is stored hashed.
 * The asset or work station is kept by id and name (no foreign key: a request outlives the asset it named).
 * Accepted: the work order or maintenance request made from it; merged: the request it duplicates.
 */
export const portalRequests = pgTable(
  'portal_requests',
  {
    ...orgRowColumns(),
    description: text().notNull(),
    urgency: text({ enum: PORTAL_URGENCIES }).notNull(),
    targetKind: text({ enum: TARGET_KINDS }),
    targetId: integer(),
    targetName: text(),
    photos: jsonb().$type<string[]>().notNull().default([]),
    name: text(),
    email: text(),
    phone: text(),
    /** The language the request was filed in: the requester's e-mails are written in it (decision 065). */
    language: text({ enum: LANGUAGES }).notNull().default('en'),
    status: text({ enum: PORTAL_STATUSES }).notNull().default('received'),
    declineReason: text(),
    statusTokenHash: text().notNull(),
    workOrderId: integer(),
    maintenanceRequestId: integer(),
    mergedIntoId: integer(),
    /** Set when it came past the organisation's hourly budget or its address's share: kept for review, not refused (decision 054). */
    heldAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Set when done or declined; the status link works until 30 days after. */
    closedAt: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [
    ...orgRowKeys(t),
    uniqueIndex('portal_requests_org_token_key').on(t.orgId, t.statusTokenHash),
    index('portal_requests_org_status_idx').on(t.orgId, t.status, t.id),
    index('portal_requests_org_work_order_idx').on(t.orgId, t.workOrderId),
  ],
);

/** Comments on a portal request: the requester's (through the status link) and the team's public replies. */
export const portalReplies = pgTable(
  'portal_replies',
  {
    ...orgRowColumns(),
    requestId: integer().notNull(),
    author: text({ enum: ['requester', 'team'] }).notNull(),
    userId: integer(),
    body: text().notNull(),
    photos: jsonb().$type<string[]>().notNull().default([]),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.id] }),
    orgRef(t, t.requestId, portalRequests).onDelete('cascade'),
    index('portal_replies_org_request_idx').on(t.orgId, t.requestId, t.id),
  ],
);
