import { and, eq, isNotNull, lt } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database, Tx } from '../db/client';
import { withoutTenant, withTenant } from '../db/client';
import { idempotencyKeys, invitations, mailOutbox, organizations, rateLimits, sessions } from '../db/schema';
import { scheduleJob, type JobQueue } from './queue';

export const CLEANUP_QUEUE = 'nightly-cleanup';
/** Every night at 03:00 UTC; one instance runs it (pg-boss sends a schedule once per slot). */
export const CLEANUP_CRON = '0 3 * * *';

export interface CleanupOptions {
  now?: Date;
  /** Sent outbox mail is kept this many days (for "did they get it?"), then deleted. */
  outboxDays?: number;
}

const DAY = 24 * 3600_000;

/** Deletes the organisation's rows of a tenant table whose `column` is before `cutoff`; answers how many. */
async function deleteBefore(tx: Tx, orgId: number, table: PgTable & { orgId: PgColumn }, column: PgColumn, cutoff: Date) {
  return (
    await tx
      .delete(table)
      .where(and(eq(table.orgId, orgId), lt(column, cutoff)))
      .returning({ orgId: table.orgId })
  ).length;
}

/**
 * Deletes what has outlived its use: expired sessions and invitations, idempotency keys older than a day
 * (a retry comes within minutes), rate-limit windows that have ended, and sent outbox mail older than
 * `outboxDays`. Global tables in one statement each; tenant tables organisation by organisation through
 * withTenant, as the runtime role under RLS (decision 027): no cross-tenant statement, and no reliance on
 * the database owner bypassing the forced policies.
 */
export async function cleanUp(database: Database, options: CleanupOptions = {}) {
  const now = options.now ?? new Date();
  const dayAgo = new Date(now.getTime() - DAY);
  const outboxCutoff = new Date(now.getTime() - (options.outboxDays ?? 30) * DAY);
  const { db } = database;
  const counts = { rateLimits: 0, mailOutbox: 0, sessions: 0, idempotencyKeys: 0, invitations: 0 };
  const orgIds = await withoutTenant(
    db,
    async (tx) => {
      counts.rateLimits = (await tx.delete(rateLimits).where(lt(rateLimits.resetAt, now)).returning({ key: rateLimits.key })).length;
      counts.mailOutbox = (
        await tx
          .delete(mailOutbox)
          .where(and(isNotNull(mailOutbox.sentAt), lt(mailOutbox.sentAt, outboxCutoff)))
          .returning({ id: mailOutbox.id })
      ).length;
      return (await tx.select({ id: organizations.id }).from(organizations)).map((o) => o.id);
    },
    { long: true },
  );
  for (const orgId of orgIds) {
    await withTenant(
      db,
      orgId,
      async (tx) => {
        counts.sessions += await deleteBefore(tx, orgId, sessions, sessions.expiresAt, now);
        counts.idempotencyKeys += await deleteBefore(tx, orgId, idempotencyKeys, idempotencyKeys.createdAt, dayAgo);
        counts.invitations += await deleteBefore(tx, orgId, invitations, invitations.expiresAt, now);
      },
      { long: true },
    );
  }
  return counts;
}

/** The queue, its nightly schedule and its worker. */
export async function registerCleanup(queue: JobQueue, database: Database, log: { info(obj: object, msg: string): void }) {
  await scheduleJob(queue, CLEANUP_QUEUE, CLEANUP_CRON, { retryLimit: 2, retryDelay: 600 }, async () => {
    const counts = await cleanUp(database);
    log.info(counts, 'nightly clean-up done');
  });
}
