import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { orgRef } from '../../server/db/org-keys';
import { createdAtColumn, orgRowColumns } from '../../server/db/columns';
import { users } from '../users/users.table';

/**
 * A signed-in session: the current refresh token's hash, the one it replaced (for the grace window)
 * and when the password was last verified (for the password change rule).
 */
export const sessions = pgTable(
  'sessions',
  {
    ...orgRowColumns(),
    userId: integer().notNull(),
    refreshHash: text().notNull(),
    previousHash: text(),
    rotatedAt: timestamp({ withTimezone: true }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    revokedAt: timestamp({ withTimezone: true }),
    passwordVerifiedAt: timestamp({ withTimezone: true }),
    createdAt: createdAtColumn(),
    /** The signing-in client's User-Agent header (cut to 512 characters) and address, for the person's device list (decision 076). */
    userAgent: text(),
    ipAddress: text(),
    /** Set at sign-in and at each refresh: the device list's "last seen". */
    lastSeenAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.id] }),
    orgRef(t, t.userId, users).onDelete('cascade'),
    index('sessions_user_idx').on(t.orgId, t.userId),
    index('sessions_refresh_idx').on(t.orgId, t.refreshHash),
    index('sessions_previous_idx').on(t.orgId, t.previousHash),
  ],
);

/** A single-use invitation; only the token's hash is stored. */
export const invitations = pgTable(
  'invitations',
  {
    ...orgRowColumns(),
    userId: integer().notNull(),
    tokenHash: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAtColumn(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.id] }), orgRef(t, t.userId, users).onDelete('cascade'), index('invitations_token_idx').on(t.orgId, t.tokenHash)],
);

/** Fixed-window counters for rate limits; kept in PostgreSQL so the API stays stateless. */
export const rateLimits = pgTable('rate_limits', {
  key: text().primaryKey(),
  hits: integer().notNull(),
  resetAt: timestamp({ withTimezone: true }).notNull(),
});

/**
 * The transactional outbox (decision 027): every e-mail is written here in the transaction that causes it, and
 * a job sends it after commit. Global (no org_id, so no RLS): the sending job reads across organisations.
 */
/** A file attached to a mail (kept in the outbox row, so small ones only: a report's PDF; decision 075). */
export interface MailAttachment {
  filename: string;
  contentType: string;
  /** base64 */
  content: string;
}

export const mailOutbox = pgTable('mail_outbox', {
  id: serial().primaryKey(),
  to: text().notNull(),
  subject: text().notNull(),
  text: text().notNull(),
  html: text(),
  /** Extra headers, e.g. List-Unsubscribe on a notification (decision 074). */
  headers: jsonb().$type<Record<string, string>>(),
  /** Files attached (a scheduled report's PDF, decision 075): name, type and base64 content. */
  attachments: jsonb().$type<MailAttachment[]>(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  /** Set when the SMTP server accepted it; null while waiting, retrying, or kept without SMTP. */
  sentAt: timestamp({ withTimezone: true }),
  attempts: integer().notNull().default(0),
  lastError: text(),
});
