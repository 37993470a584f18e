import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { orgChildKeys, orgLinkTable, orgRef, orgSettingsTable } from '../../server/db/org-keys';
import { sql } from 'drizzle-orm';
import { createdAtColumn, orgIdColumn, orgRowColumns, timestampColumn as ts } from '../../server/db/columns';
import { orgOwned } from '../organization/organization.table';
import { users } from '../users/users.table';
import { workOrders } from '../work-orders/work-orders.table';
import { NOTIFICATION_KINDS, type NotificationData, type NotificationPreferences } from './notifications.schema';

/**
 * One event for one person (decision 074): written in the transaction of the change that caused it, for each
 * recipient who may see the record. `shown`: it is in their bell (their in-app channel for the kind was on).
 * `dedupeKey`: scheduled checks (due soon, overdue) write each event once per person.
 */
export const notifications = pgTable(
  'notifications',
  {
    ...orgRowColumns(),
    userId: integer().notNull(),
    kind: text({ enum: NOTIFICATION_KINDS }).notNull(),
    entityType: text().notNull(),
    entityId: integer().notNull(),
    /** Who caused it (null: the system, a scheduled check). */
    actorId: integer(),
    data: jsonb().$type<NotificationData>().notNull().default({}),
    shown: boolean().notNull().default(true),
    dedupeKey: text(),
    readAt: ts(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    ...orgChildKeys(t, t.userId, users),
    // The bell: my newest ones.
    index('notifications_user_created_idx').on(t.orgId, t.userId, t.createdAt),
    uniqueIndex('notifications_dedupe_key')
      .on(t.orgId, t.userId, t.dedupeKey)
      .where(sql`dedupe_key is not null`),
  ],
);

/**
 * A message to send on a channel (e-mail or push), gathering the notifications of one record for one person:
 * a second event on the same record before `dueAt` joins it (coalescing), a digest one waits for the digest hour.
 * The dispatch job sends what is due (`sentAt`), holding e-mail during the person's quiet hours.
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    ...orgRowColumns(),
    userId: integer().notNull(),
    channel: text({ enum: ['email', 'push'] }).notNull(),
    entityType: text().notNull(),
    entityId: integer().notNull(),
    digest: boolean().notNull().default(false),
    notificationIds: integer().array().notNull(),
    dueAt: ts().notNull(),
    sentAt: ts(),
    /** Why it was not sent (the person turned the channel off meanwhile, the record went away). */
    skipped: text(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    ...orgChildKeys(t, t.userId, users),
    index('notification_deliveries_due_idx')
      .on(t.orgId, t.dueAt)
      .where(sql`sent_at is null`),
    // The every-minute job's "which organisations have messages due" across all of them (decision 074).
    index('notification_deliveries_due_at_idx')
      .on(t.dueAt)
      .where(sql`sent_at is null`),
    index('notification_deliveries_open_idx')
      .on(t.orgId, t.userId, t.channel, t.entityType, t.entityId)
      .where(sql`sent_at is null`),
  ],
);

/** A person's channels per kind and quiet hours; absent: the defaults of their role. */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    orgId: orgIdColumn(),
    userId: integer().notNull(),
    preferences: jsonb().$type<NotificationPreferences>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.userId] }), orgOwned(t), orgRef(t, t.userId, users).onDelete('cascade')],
);

/** The organisation's notification settings: one row, absent means the defaults. */
export const notificationOrgSettings = orgSettingsTable('notification_org_settings', {
  /** "Due soon" this many hours before the due date. */
  dueSoonHours: integer().notNull().default(24),
  /** The daily digest leaves at this time of day ('HH:MM', the organisation's time zone). */
  digestTime: text().notNull().default('07:00'),
});

/** People following a work order: its status changes reach them. */
export const workOrderFollowers = orgLinkTable('work_order_followers', {
  owner: ['workOrderId', workOrders],
  target: ['userId', users, 'cascade'],
  columns: {
    createdAt: createdAtColumn(),
  },
});
