import { createServer, type AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { withoutTenant } from '../db/client';
import { mailOutbox } from '../db/schema';
import { smtpSender } from '../mailer';
import { maskTokens } from '../mask';
import { createTestApp, type TestApp } from '../test/harness';
import { createJobs, type Jobs } from '.';

/** A real SMTP server that refuses the first delivery to any `busy-…` address (a temporary 451). */
const inbox: { to: string[]; raw: string }[] = [];
const refused = new Set<string>();
let smtp: SMTPServer;
let t: TestApp;
let jobs: Jobs;
const logged: { obj: Record<string, unknown>; msg: string }[] = [];
const log = { info: (obj: object, msg: string) => void logged.push({ obj: obj as Record<string, unknown>, msg }), warn: (obj: object, msg: string) => void logged.push({ obj: obj as Record<string, unknown>, msg }) };

async function freePort() {
  return new Promise<number>((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => res(port));
    });
  });
}

async function until(done: () => boolean | Promise<boolean>, ms = 15_000) {
  for (const end = Date.now() + ms; !(await done()); ) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  const port = await freePort();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, done) {
      if (address.address.startsWith('busy-') && !refused.has(address.address)) {
        refused.add(address.address);
        return done(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
      }
      done();
    },
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (c) => (raw += String(c)));
      stream.on('end', () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        done();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(port, '127.0.0.1', () => r()));
  t = await createTestApp();
  // Its own pg-boss schema: on a shared PostgreSQL, the other test files' apps never fetch these mail jobs.
  jobs = createJobs(t.database, { databaseUrl: t.config.databaseUrl }, log, {
    schema: 'pgboss_mail_test',
    pollingIntervalSeconds: 0.5,
    mailRetryDelaySeconds: 1,
    send: smtpSender(`smtp://127.0.0.1:${port}`),
  });
  await jobs.start();
});
afterAll(async () => {
  await jobs?.stop();
  await t?.close();
  await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
});

const address = (what: string) => `${what}-${randomBytes(4).toString('hex')}@example.com`;
const received = (to: string) => inbox.filter((m) => m.to.includes(to));
const rowsTo = (to: string) => withoutTenant(t.database.db, (tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.to, to)));

describe('the mail outbox', () => {
  it('sends a mail after its transaction commits, never before, and marks it sent', async () => {
    const to = address('after');
    await withoutTenant(t.database.db, async (tx) => {
      await jobs.mailer.send({ to, subject: 'Hello', text: 'Hi there' }, tx);
      // Still inside the transaction: the job is not visible to the worker yet.
      await new Promise((r) => setTimeout(r, 1500));
      expect(received(to)).toHaveLength(0);
    });
    await until(async () => (await rowsTo(to))[0]?.sentAt != null);
    expect(received(to)).toHaveLength(1);
    expect(received(to)[0].raw).toContain('Subject: Hello');
    const [row] = await rowsTo(to);
    expect(row).toMatchObject({ attempts: 1, lastError: null });
  });

  it('writes nothing and sends nothing when the transaction rolls back', async () => {
    const to = address('rollback');
    await expect(
      withoutTenant(t.database.db, async (tx) => {
        await jobs.mailer.send({ to, subject: 'Never', text: 'Never sent' }, tx);
        throw new Error('the invitation failed');
      }),
    ).rejects.toThrow('the invitation failed');
    await new Promise((r) => setTimeout(r, 2000));
    expect(await rowsTo(to)).toEqual([]);
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

  it('without SMTP keeps the mail in the outbox, sends no job, and logs it with the token masked', async () => {
    const noSmtp = createJobs(t.database, { databaseUrl: t.config.databaseUrl }, log, { schema: 'pgboss_mail_test' });
    const to = address('kept');
    const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    await withoutTenant(t.database.db, (tx) => noSmtp.mailer.send({ to, subject: 'Invite', text: `Join: http://x.localhost/complete-registration?token=${token}&a=1` }, tx));
    const [row] = await rowsTo(to);
    expect(row).toMatchObject({ sentAt: null, attempts: 0 });
    expect(row.text).toContain(token);
    const line = logged.find((l) => l.obj.to === to);
    expect(line?.msg).toBe('mail kept in outbox (no SMTP_URL)');
    expect(String(line?.obj.text)).toContain('token=AbCdEf…&a=1');
    expect(JSON.stringify(line)).not.toContain(token.slice(0, 10));
    await new Promise((r) => setTimeout(r, 1500));
    expect(received(to)).toHaveLength(0);
  });

  it('masks every token in a text', () => {
    expect(maskTokens('a ?token=1234567890 b &token=xy c token=plain')).toBe('a ?token=123456… b &token=… c token=…');
  });
});
