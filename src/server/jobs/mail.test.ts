import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { withoutTenant } from '../db/client';
import { mailOutbox } from '../db/schema';
import { MAIL_QUEUE, smtpSender } from '../mailer';
import { maskTokens } from '../mask';
import { createOrg, createTestApp, type TestApp } from '../test/harness';
import { startSmtpServer, until } from '../test/fixtures';
import { rowsOf } from '../test/sql';
import { createJobs, type Jobs } from '.';

/** A real SMTP server that refuses the first delivery to any `busy-…` address (a temporary 451). */
const refused = new Set<string>();
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
let jobs: Jobs;
const logged: { obj: Record<string, unknown>; msg: string }[] = [];
const log = {
  info: (obj: object, msg: string) => void logged.push({ obj: obj as Record<string, unknown>, msg }),
  warn: (obj: object, msg: string) => void logged.push({ obj: obj as Record<string, unknown>, msg }),
};
// Its own pg-boss schema: on a shared PostgreSQL, the other test files' apps never fetch these mail jobs.
const SCHEMA = 'pgboss_mail_test';

beforeAll(async () => {
  smtp = await startSmtpServer({
    refuse(address) {
      if (!address.startsWith('busy-') || refused.has(address)) return false;
      refused.add(address);
      return true;
    },
  });
  t = await createTestApp();
  jobs = createJobs(t.database, { databaseUrl: t.config.databaseUrl }, log, {
    schema: SCHEMA,
    pollingIntervalSeconds: 0.5,
    mailRetryDelaySeconds: 1,
    send: smtpSender(smtp.url),
  });
  await jobs.start();
});
afterAll(async () => {
  await jobs?.stop();
  await t?.close();
  await smtp?.close();
});

const address = (what: string) => `${what}-${randomBytes(4).toString('hex')}@example.com`;
const received = (to: string) => smtp.received(to);
/**
 * The outbox ids of the mail jobs in the queue (read as the owner, on a connection of its own on PostgreSQL): a
 * mail with no job is never sent.
 */
const mailJobs = async () =>
  rowsOf<{ id: string }>(
    await t.database.db.execute(sql.raw(`select data->>'id' as id from ${SCHEMA}.job where name = '${MAIL_QUEUE}' order by created_on`)),
  ).map((r) => Number(r.id));
const rowsTo = (to: string) => withoutTenant(t.database.db, (tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.to, to)));

describe('the mail outbox', () => {
  it('sends a mail after its transaction commits, never before, and marks it sent', async () => {
    const to = address('after');
    await withoutTenant(t.database.db, async (tx) => {
      await jobs.mailer.send({ to, subject: 'Hello', text: 'Hi there' }, tx);
      const [{ id }] = await tx.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.to, to));
      // Still inside the transaction: nothing sent, and the job is not visible to the worker yet. On PostgreSQL
      // not from another connection, as the worker's fetch would be; PGlite is one session, this transaction's.
      expect(received(to)).toHaveLength(0);
      if (t.database.kind === 'postgres') expect(await mailJobs()).not.toContain(id);
    });
    await until(async () => (await rowsTo(to))[0]?.sentAt != null);
    expect(received(to)).toHaveLength(1);
    expect(received(to)[0].raw).toContain('Subject: Hello');
    const [row] = await rowsTo(to);
    expect(row).toMatchObject({ attempts: 1, lastError: null });
  });

  it('writes nothing and sends nothing when the transaction rolls back', async () => {
    const to = address('rollback');
    const before = await mailJobs();
    await expect(
      withoutTenant(t.database.db, async (tx) => {
        await jobs.mailer.send({ to, subject: 'Never', text: 'Never sent' }, tx);
        throw new Error('the invitation failed');
      }),
    ).rejects.toThrow('the invitation failed');
    expect(await rowsTo(to)).toEqual([]);
    // No job either: nothing will ever send it.
    expect(await mailJobs()).toEqual(before);
    expect(received(to)).toHaveLength(0);
  });

  it('retries a mail the SMTP server refused, with the error kept, until it is sent', async () => {
    const to = address('busy');
    await withoutTenant(t.database.db, (tx) => jobs.mailer.send({ to, subject: 'Retry me', text: 'Second time lucky' }, tx));
    await until(async () => (await rowsTo(to))[0]?.sentAt != null, 20_000);
    expect(refused.has(to)).toBe(true);
    expect(received(to)).toHaveLength(1);
    const [row] = await rowsTo(to);
    expect(row.attempts).toBe(2);
    expect(row.lastError).toContain('Mailbox busy');
  });

  it('sends a burst of mail in one or two fetches, not one mail per polling interval', async () => {
    const tos = Array.from({ length: 11 }, () => address('burst'));
    await withoutTenant(t.database.db, async (tx) => {
      for (const to of tos) await jobs.mailer.send({ to, subject: 'Burst', text: 'One of many' }, tx);
    });
    await until(async () => (await Promise.all(tos.map(rowsTo))).every(([row]) => row?.sentAt != null), 20_000);
    for (const to of tos) expect(received(to)).toHaveLength(1);
    // Fetched together; one job per fetch would give them eleven start times, half a second apart.
    const ids = (await Promise.all(tos.map(rowsTo))).map(([row]) => row.id);
    const [{ fetches }] = rowsOf<{ fetches: number }>(
      await t.database.db.execute(
        sql.raw(
          `select count(distinct started_on)::int as fetches from ${SCHEMA}.job where name = '${MAIL_QUEUE}' and (data->>'id')::int in (${ids.join(',')})`,
        ),
      ),
    );
    expect(fetches).toBeLessThanOrEqual(2);
  });

  it('a refused mail holds back none of the mails fetched with it', async () => {
    const busy = address('busy');
    const fine = address('fine');
    await withoutTenant(t.database.db, async (tx) => {
      await jobs.mailer.send({ to: busy, subject: 'First', text: 'Refused once' }, tx);
      await jobs.mailer.send({ to: fine, subject: 'Second', text: 'Accepted' }, tx);
    });
    await until(async () => (await rowsTo(busy))[0]?.sentAt != null && (await rowsTo(fine))[0]?.sentAt != null, 20_000);
    const [[first], [second]] = await Promise.all([rowsTo(busy), rowsTo(fine)]);
    // The accepted one went in the first pass, before the refused one's retry (not after it, in the retried batch).
    expect(second.attempts).toBe(1);
    expect(second.sentAt!.getTime()).toBeLessThan(first.sentAt!.getTime());
    expect(first.attempts).toBe(2);
  });

  it('sends mail to one address in the order written, also when the first is refused once and retried', async () => {
    const to = address('busy');
    await withoutTenant(t.database.db, async (tx) => {
      for (const n of [1, 2, 3]) await jobs.mailer.send({ to, subject: `Ordered ${n}`, text: `Number ${n}` }, tx);
    });
    await until(async () => (await rowsTo(to)).every((row) => row.sentAt != null), 30_000);
    expect(refused.has(to)).toBe(true);
    expect(received(to).map((m) => /Subject: (.*)/.exec(m.raw)?.[1])).toEqual(['Ordered 1', 'Ordered 2', 'Ordered 3']);
    // Waiting is no attempt: the later ones were tried once, each sent once.
    expect((await rowsTo(to)).sort((a, b) => a.id - b.id).map((row) => row.attempts)).toEqual([2, 1, 1]);
  });

  it('an earlier mail given up (out of attempts) or from a day ago (kept without SMTP) holds nothing back', async () => {
    const to = address('after-dead');
    await withoutTenant(t.database.db, (tx) =>
      tx.insert(mailOutbox).values([
        { to, subject: 'Given up', text: 'x', attempts: 11 },
        { to, subject: 'Kept', text: 'x', createdAt: new Date(Date.now() - 25 * 3_600_000) },
      ]),
    );
    await withoutTenant(t.database.db, (tx) => jobs.mailer.send({ to, subject: 'Fresh', text: 'Goes out' }, tx));
    await until(async () => received(to).length === 1, 20_000);
    expect(received(to)[0].raw).toContain('Subject: Fresh');
  });

  it("a portal requester's mails arrive in the order of the changes (received, accepted, in progress, done), the first refused once", async () => {
    // An app whose mail goes through this file's queue and SMTP server (the portal's flow mails through it too).
    const portal = await createTestApp({}, { mailer: jobs.mailer });
    try {
      const org = await createOrg(portal, 'Ordered');
      const settings = {
        enabled: true,
        nameField: 'optional',
        emailField: 'required',
        phoneField: 'hidden',
        notifyRequester: true,
        welcome: null,
        published: [],
      };
      expect((await org.admin.put('/api/portal/settings', settings)).status).toBe(200);
      const to = address('busy');
      expect((await org.anonymous.post('/api/portal/submit-request', { description: 'The door does not close', urgency: 'normal', email: to })).status).toBe(
        201,
      );
      const accepted = await org.admin.post('/api/portal/accept-request/1', { into: 'work-order', title: 'Door' });
      expect(accepted.status).toBe(200);
      for (const status of ['in-progress', 'completed'])
        expect((await org.admin.put(`/api/work-orders/update-status/${accepted.body.workOrderId}`, { status })).status).toBe(200);
      await until(async () => (await rowsTo(to)).length === 4 && (await rowsTo(to)).every((row) => row.sentAt != null), 30_000);
      expect(refused.has(to)).toBe(true);
      expect(received(to).map((m) => /we received|now accepted|now in progress|now done/.exec(m.text)?.[0])).toEqual([
        'we received',
        'now accepted',
        'now in progress',
        'now done',
      ]);
    } finally {
      await portal.close();
    }
  }, 60_000);

  it('without SMTP keeps the mail in the outbox, sends no job, and logs it with the token masked', async () => {
    const noSmtp = createJobs(t.database, { databaseUrl: t.config.databaseUrl }, log, { schema: SCHEMA });
    const to = address('kept');
    const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    await withoutTenant(t.database.db, (tx) =>
      noSmtp.mailer.send({ to, subject: 'Invite', text: `Join: http://x.localhost/complete-registration?token=${token}&a=1` }, tx),
    );
    const [row] = await rowsTo(to);
    expect(row).toMatchObject({ sentAt: null, attempts: 0 });
    expect(row.text).toContain(token);
    const line = logged.find((l) => l.obj.to === to);
    expect(line?.msg).toBe('mail kept in outbox (no SMTP_URL)');
    expect(String(line?.obj.text)).toContain('token=AbCdEf…&a=1');
    expect(JSON.stringify(line)).not.toContain(token.slice(0, 10));
    // No job: no instance will ever send it.
    expect(await mailJobs()).not.toContain(row.id);
    expect(received(to)).toHaveLength(0);
  });

  it('masks every token in a text', () => {
    expect(maskTokens('a ?token=1234567890 b &token=xy c token=plain')).toBe('a ?token=123456… b &token=… c token=…');
  });
});
