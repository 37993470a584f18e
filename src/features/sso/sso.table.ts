import { boolean, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { orgRef } from '../../server/db/org-keys';
import { orgOwned } from '../organization/organization.table';
import { orgIdColumn, updatedAtColumn } from '../../server/db/columns';
import { users } from '../users/users.table';

/**
 * An organisation's single sign-on with OpenID Connect (decision 077): one row at most. The client secret is kept
 * sealed under ENCRYPTION_KEY (`src/server/secret-box.ts`, decision 083) and never answered.
 */
export const ssoSettings = pgTable(
  'sso_settings',
  {
    orgId: orgIdColumn(),
    enabled: boolean().notNull().default(false),
    /** The button's name on the login page: "Sign in with <displayName>". */
    displayName: text().notNull(),
    issuer: text().notNull(),
    clientId: text().notNull(),
    clientSecretEncrypted: text().notNull(),
    /** The role of a person created at their first sign-in. */
    defaultRole: text({ enum: ['manager', 'worker'] })
      .notNull()
      .default('worker'),
    /** Create the user at their first sign-in; otherwise only people already in the organisation (invited or active). */
    createUsers: boolean().notNull().default(false),
    /** Password sign-in refused for everyone but admins (the break-glass way in). */
    ssoOnly: boolean().notNull().default(false),
    updatedAt: updatedAtColumn(),
  },
  (t) => [primaryKey({ columns: [t.orgId] }), orgOwned(t)],
);

/**
 * A fresh sign-in with the identity provider, given for one signature (issue 44, decision 078 addendum): the proof's
 * hash (the proof itself is answered once, never stored), the person and the procedure step it was asked for, and a
 * short life. Spent (deleted) by the sign-off that uses it, in the sign-off's transaction: it works once.
 */
export const ssoReauthProofs = pgTable(
  'sso_reauth_proofs',
  {
    orgId: orgIdColumn(),
    proofHash: text().notNull(),
    userId: integer().notNull(),
    workOrderId: integer().notNull(),
    stepId: integer().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.proofHash] }), orgRef(t, t.userId, users).onDelete('cascade')],
);
