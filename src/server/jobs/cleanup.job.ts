import { and, eq, isNotNull, lt } from 'drizzle-orm';
import type { Database } from '../db/client';
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
        counts.sessions += (
          await tx
            .delete(sessions)
            .where(and(eq(sessions.orgId, orgId), lt(sessions.expiresAt, now)))
            .returning({ id: sessions.id })
        ).length;
        counts.idempotencyKeys += (
          await tx
            .delete(idempotencyKeys)
            .where(and(eq(idempotencyKeys.orgId, orgId), lt(idempotencyKeys.createdAt, dayAgo)))
            .returning({ key: idempotencyKeys.key })
        ).length;
        counts.invitations += (
          await tx
            .delete(invitations)
            .where(and(eq(invitations.orgId, orgId), lt(invitations.expiresAt, now)))
            .returning({ id: invitations.id })
        ).length;
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
