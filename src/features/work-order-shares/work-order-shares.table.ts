import { boolean, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { LANGUAGES } from '../../shared/record-fields.schema';
import { orgChildKeys, orgRef } from '../../server/db/org-keys';
import { createdAtColumn, orgRowColumns, timestampColumn as ts } from '../../server/db/columns';

import { workOrders } from '../work-orders/work-orders.table';
import { SHARE_STATES } from './work-order-shares.schema';

/**
 * A work order shared with a contractor (decision 040): a private link whose token is stored only as its
 * SHA-256, bound to one work order of one organisation, with what the contractor may do, an expiry and a
 * revocation that apply to the next request.
 */
export const workOrderShares = pgTable(
  'work_order_shares',
  {
    ...orgRowColumns(),
    workOrderId: integer().notNull(),
    /** The vendor of Customers & Vendors it was shared with, when it was one (informational: no foreign key). */
    vendorId: integer(),
    contractorName: text().notNull(),
    email: text().notNull(),
    /** The contractor's e-mails are written in it: the share's choice, else the sharing manager's language (decision 065). */
    language: text({ enum: LANGUAGES }).notNull().default('en'),
    tokenHash: text().notNull(),
    canComment: boolean().notNull().default(false),
    canLog: boolean().notNull().default(false),
    canComplete: boolean().notNull().default(false),
    /** The contractor confirms the e-mail address with a one-time code before seeing anything. */
    requireCode: boolean().notNull().default(false),
    codeHash: text(),
    codeExpiresAt: ts(),
    codeAttempts: integer().notNull().default(0),
    /** SHA-256 of the key a confirmed browser holds (given once, after the right code). */
    accessHash: text(),
    state: text({ enum: SHARE_STATES }).notNull().default('waiting'),
    /** The manager's comment when the work was sent back. */
    reviewComment: text(),
    expiresAt: ts().notNull(),
    revokedAt: ts(),
    lastActivityAt: ts(),
    createdById: integer(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    ...orgChildKeys(t, t.workOrderId, workOrders),
    index('work_order_shares_token_idx').on(t.orgId, t.tokenHash),
    index('work_order_shares_order_idx').on(t.orgId, t.workOrderId),
    index('work_order_shares_org_created_idx').on(t.orgId, t.createdAt),
  ],
);

/** The thread between the contractor and the team on a share: comments and files, either side. */
export const workOrderShareMessages = pgTable(
  'work_order_share_messages',
  {
    ...orgRowColumns(),
    shareId: integer().notNull(),
    /** A member of the team wrote it; null: the contractor did. */
    userId: integer(),
    authorName: text().notNull(),
    body: text(),
    fileUrl: text(),
    fileName: text(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.id] }),
    orgRef(t, t.shareId, workOrderShares).onDelete('cascade'),
    index('work_order_share_messages_share_idx').on(t.orgId, t.shareId, t.createdAt),
  ],
);
