import { integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { LANGUAGES } from '../../shared/record-fields.schema';
import { sql } from 'drizzle-orm';
import { createdAtColumn, orgRowColumns } from '../../server/db/columns';
import { orgRowKeys } from '../organization/organization.table';

export const users = pgTable(
  'users',
  {
    ...orgRowColumns(),
    email: text().notNull(),
    passwordHash: text(),
    firstName: text().notNull().default(''),
    lastName: text().notNull().default(''),
    phoneNumber: text(),
    jobTitle: text(),
    role: text({ enum: ['admin', 'manager', 'worker'] }).notNull(),
    language: text({ enum: LANGUAGES }).notNull().default('en'),
    location: text(),
    inviteStatus: text({ enum: ['ACTIVE', 'PENDING'] })
      .notNull()
      .default('ACTIVE'),
    profilePicture: text(),
    profilePictureLow: text(),
    /** What the bell shows this user (null: everything); see NOTIFICATION_TOPICS. */
    notificationSettings: jsonb().$type<Record<string, boolean>>(),
    /** Bumped when the password changes: every access token signed before stops working at once (decision 021). */
    tokenVersion: integer().notNull().default(0),
    /** Optional labour rate per hour, in the organisation currency's minor units (analytics' labour cost, decision 038). */
    hourlyRate: integer(),
    createdAt: createdAtColumn(),
  },
  (t) => [...orgRowKeys(t), uniqueIndex('users_org_email_key').on(t.orgId, sql`lower(${t.email})`)],
);
