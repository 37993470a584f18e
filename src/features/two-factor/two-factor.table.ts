import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { orgRef } from '../../server/db/org-keys';
import { sql } from 'drizzle-orm';
import { createdAtColumn, orgIdColumn } from '../../server/db/columns';
import { users } from '../users/users.table';

/**
 * A person's authenticator-app enrolment (decision 076): the TOTP secret encrypted (AES-256-GCM), confirmed once a
 * first code matched, the last time step accepted (a code is good once) and the hashes of the unused recovery codes.
 * A row without `confirmedAt` is an enrolment started and not finished: it signs nobody in.
 */
export const twoFactorEnrolments = pgTable(
  'two_factor_enrolments',
  {
    orgId: orgIdColumn(),
    userId: integer().notNull(),
    secretCipher: text().notNull(),
    confirmedAt: timestamp({ withTimezone: true }),
    lastStep: integer(),
    recoveryHashes: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: createdAtColumn(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.userId] }), orgRef(t, t.userId, users).onDelete('cascade')],
);

/** Who of the organisation must sign in with a second factor: nobody ('off'), admins, or everyone. */
export const twoFactorPolicies = pgTable('two_factor_policies', {
  orgId: orgIdColumn().primaryKey(),
  required: text({ enum: ['off', 'admins', 'everyone'] })
    .notNull()
    .default('off'),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
