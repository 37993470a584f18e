import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { orgChildKeys } from '../../server/db/org-keys';
import { createdAtColumn, orgRowColumns } from '../../server/db/columns';

import { users } from '../users/users.table';

/**
 * Web Push subscriptions (decision 075): one per person and device (browser), as the browser's PushSubscription
 * gives it: the push service's endpoint and the keys the payload is encrypted to. An endpoint the push service
 * answers 404 or 410 for is deleted; a person's deletion takes their subscriptions with them.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    ...orgRowColumns(),
    userId: integer().notNull(),
    endpoint: text().notNull(),
    /** The browser's P-256 public key (base64url) and auth secret (base64url). */
    p256dh: text().notNull(),
    auth: text().notNull(),
    userAgent: text(),
    createdAt: createdAtColumn(),
    lastSuccessAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [
    ...orgChildKeys(t, t.userId, users),
    uniqueIndex('push_subscriptions_org_endpoint_idx').on(t.orgId, t.endpoint),
    index('push_subscriptions_org_user_idx').on(t.orgId, t.userId),
  ],
);
