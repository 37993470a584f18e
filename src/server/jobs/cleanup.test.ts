import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { withoutTenant, withTenant } from '../db/client';
import { idempotencyKeys, invitations, mailOutbox, rateLimits, sessions } from '../db/schema';
import { createOrg, useTestApp } from '../test/harness';
import { cleanUp, CLEANUP_CRON, CLEANUP_QUEUE } from './cleanup.job';

const t = useTestApp();

const DAY = 24 * 3600_000;

describe('the nightly clean-up', () => {
  it('deletes what is past its cut-off in every organisation and keeps what is not', async () => {
    const now = new Date();
    const ago = (days: number) => new Date(now.getTime() - days * DAY);
    const orgs = [await createOrg(t), await createOrg(t)];
    const tag = randomBytes(4).toString('hex');
    for (const org of orgs) {
      await withTenant(t.database.db, org.orgId, async (tx) => {
        const orgId = org.orgId;
        await tx.insert(sessions).values([
          { orgId, userId: 1, refreshHash: `old-${tag}`, expiresAt: ago(1) },
          { orgId, userId: 1, refreshHash: `new-${tag}`, expiresAt: ago(-1) },
        ]);
        await tx.insert(invitations).values([
          { orgId, userId: 1, tokenHash: `old-${tag}`, expiresAt: ago(0.01) },
          { orgId, userId: 1, tokenHash: `new-${tag}`, expiresAt: ago(-3) },
        ]);
        await tx.insert(idempotencyKeys).values([
          { orgId, key: `old-${tag}`, userId: 1, route: 'x', createdAt: ago(1.1) },
          { orgId, key: `new-${tag}`, userId: 1, route: 'x', createdAt: ago(0.9) },
        ]);
      });
    }
    await withoutTenant(t.database.db, async (tx) => {
      await tx.insert(rateLimits).values([
        { key: `old-${tag}`, hits: 3, resetAt: ago(0.001) },
        { key: `new-${tag}`, hits: 3, resetAt: ago(-0.01) },
      ]);
      await tx.insert(mailOutbox).values([
        { to: `old-${tag}@example.com`, subject: 's', text: 't', sentAt: ago(31) },
        { to: `new-${tag}@example.com`, subject: 's', text: 't', sentAt: ago(29) },
        { to: `unsent-${tag}@example.com`, subject: 's', text: 't', createdAt: ago(40) },
      ]);
    });

    const counts = await cleanUp(t.database, { now, outboxDays: 30 });
    expect(counts.sessions).toBeGreaterThanOrEqual(2);

    for (const org of orgs) {
      const left = await withTenant(t.database.db, org.orgId, async (tx) => ({
        sessions: (
          await tx
            .select({ h: sessions.refreshHash })
            .from(sessions)
            .where(and(eq(sessions.orgId, org.orgId), inArray(sessions.refreshHash, [`old-${tag}`, `new-${tag}`])))
        ).map((r) => r.h),
        invitations: (await tx.select({ h: invitations.tokenHash }).from(invitations).where(eq(invitations.orgId, org.orgId))).map((r) => r.h),
        keys: (await tx.select({ k: idempotencyKeys.key }).from(idempotencyKeys).where(eq(idempotencyKeys.orgId, org.orgId))).map((r) => r.k),
      }));
      expect(left).toEqual({ sessions: [`new-${tag}`], invitations: [`new-${tag}`], keys: [`new-${tag}`] });
    }
    const global = await withoutTenant(t.database.db, async (tx) => ({
      limits: (
        await tx
          .select({ k: rateLimits.key })
          .from(rateLimits)
          .where(inArray(rateLimits.key, [`old-${tag}`, `new-${tag}`]))
      ).map((r) => r.k),
      mail: (
        await tx
          .select({ to: mailOutbox.to })
          .from(mailOutbox)
          .where(
            inArray(
              mailOutbox.to,
              ['old', 'new', 'unsent'].map((w) => `${w}-${tag}@example.com`),
            ),
          )
      )
        .map((r) => r.to)
        .sort(),
    }));
    // Mail never sent stays: it is the record of what did not go out.
    expect(global).toEqual({ limits: [`new-${tag}`], mail: [`new-${tag}@example.com`, `unsent-${tag}@example.com`] });
  });

  it('is scheduled nightly on the app’s queue, and its job cleans up', async () => {
    const { boss } = t.app.deps.jobs.queue;
    const schedules = await boss.getSchedules();
    expect(schedules.find((s) => s.name === CLEANUP_QUEUE)).toMatchObject({ cron: CLEANUP_CRON, timezone: 'UTC' });
    // What the schedule sends at 03:00, sent now: the app's worker runs the clean-up.
    const key = `expired-${randomBytes(4).toString('hex')}`;
    const left = () => withoutTenant(t.database.db, (tx) => tx.select().from(rateLimits).where(eq(rateLimits.key, key)));
    await withoutTenant(t.database.db, (tx) => tx.insert(rateLimits).values({ key, hits: 1, resetAt: new Date(Date.now() - 1000) }));
    await boss.send(CLEANUP_QUEUE, {});
    for (const end = Date.now() + 15_000; (await left()).length > 0; ) {
      if (Date.now() > end) throw new Error('the clean-up job did not run');
      await new Promise((r) => setTimeout(r, 200));
    }
  });
});
