import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { orgRef } from '../../server/db/org-keys';
import { orgRowKeys } from '../organization/organization.table';
import { createdAtColumn, orgRowColumns } from '../../server/db/columns';
import { DELIVERY_STATUSES, WEBHOOK_EVENTS } from './webhooks.schema';

/**
 * Webhook endpoints of an organisation (decision 043). The secret is kept as it is: it signs every delivery
 * (HMAC needs it, unlike a key we only compare). `failingSince`: the first failure since the last success; an
 * endpoint failing longer than the configured days is disabled and its admins told.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    ...orgRowColumns(),
    url: text().notNull(),
    description: text(),
    events: jsonb().$type<(typeof WEBHOOK_EVENTS)[number][]>().notNull(),
    secret: text().notNull(),
    enabled: boolean().notNull().default(true),
    disabledAt: timestamp({ withTimezone: true, mode: 'date' }),
    disabledReason: text(),
    failingSince: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: createdAtColumn(),
  },
  (t) => orgRowKeys(t),
);

/**
 * One event sent to one endpoint, and what became of it. `messageId` is the webhook-id header, the same for every
 * try. `jobSeq` names the one job allowed to deliver it: a redelivery makes any retry already queued stand down.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    ...orgRowColumns(),
    endpointId: integer().notNull(),
    event: text({ enum: WEBHOOK_EVENTS }).notNull(),
    messageId: text().notNull(),
    payload: jsonb().notNull(),
    status: text({ enum: DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer().notNull().default(0),
    jobSeq: integer().notNull().default(1),
    responseCode: integer(),
    responseBody: text(),
    lastError: text(),
    nextAttemptAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Tries stop the configured hours (24) after this: the event, or the last redelivery. */
    windowStart: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    deliveredAt: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.id] }),
    orgRef(t, t.endpointId, webhookEndpoints).onDelete('cascade'),
    index('webhook_deliveries_org_endpoint_idx').on(t.orgId, t.endpointId, t.id),
  ],
);
