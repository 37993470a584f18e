import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { buildApp } from './app';
import { withoutTenant } from './db/client';
import { mailOutbox } from './db/schema';
import { maskTokens } from './mask';
import { client, createOrg, useTestApp } from './test/harness';

const t = useTestApp();

describe('tokens in the log (decision 022)', () => {
  it('keeps the first characters of a token and nothing more', () => {
    expect(maskTokens('https://a.example.com/complete-registration?token=AbCdEf123456789&x=1')).toBe(
      'https://a.example.com/complete-registration?token=AbCdEf…&x=1',
    );
    expect(maskTokens('<a href="/x?TOKEN=AbCdEf123456789">')).toBe('<a href="/x?TOKEN=AbCdEf…">');
    expect(maskTokens('token=abc')).toBe('token=…');
    // A contractor's key and the request portal's secrets in paths (status links, asset codes).
    expect(maskTokens('/api/shared-work-orders/get-shared-work-order?token=AbCdEf123456789&key=KeYkEy123456789')).toBe(
      '/api/shared-work-orders/get-shared-work-order?token=AbCdEf…&key=KeYkEy…',
    );
    expect(maskTokens('https://a.example.com/portal/status/AbCdEfGh12345678_-xyz')).toBe('https://a.example.com/portal/status/AbCdEf…');
    expect(maskTokens('GET /api/portal/status/AbCdEfGh12345678_-xyz/add-comment')).toBe('GET /api/portal/status/AbCdEf…/add-comment');
    expect(maskTokens('/r/AbCdEfGh12345678abcd and /api/portal/form/AbCdEfGh12345678abcd')).toBe('/r/AbCdEf… and /api/portal/form/AbCdEf…');
    // Ordinary paths stay as they are.
    expect(maskTokens('/api/work-orders/get-work-orders?status=assigned')).toBe('/api/work-orders/get-work-orders?status=assigned');
  });

  it('never writes an invitation link in full: not from the outbox mailer, not from the request log', async () => {
    let log = '';
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    // The app as main.ts builds it (its own mailer without SMTP writes mail to the log), logging at info.
    const app = await buildApp({ database: t.database, config: { ...t.config, smtpUrl: undefined }, logger: { level: 'info', stream } });
    try {
      const org = await createOrg(t);
      const email = `new.${org.subdomain}@example.com`;
      const invited = await client(app, org.host, org.admin.token).post('/api/auth/addUser', { email, confirmEmail: email, role: 'worker' });
      expect(invited.status).toBe(201);
      const [mail] = await withoutTenant(t.database.db, (tx) =>
        tx.select({ text: mailOutbox.text }).from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(desc(mailOutbox.id)).limit(1),
      );
      const token = decodeURIComponent(/token=([^\s&]+)/.exec(mail.text)![1]);
      expect(token.length).toBeGreaterThan(20);
      const checked = await client(app, org.host).get(`/api/auth/verify-token?token=${encodeURIComponent(token)}`);
      expect(checked.status).toBe(200);

      expect(log).toContain('/api/auth/verify-token?token=');
      expect(log).toContain(`token=${encodeURIComponent(token).slice(0, 6)}…`);
      expect(log).not.toContain(token);
      expect(log).not.toContain(encodeURIComponent(token));
    } finally {
      await app.close();
    }
  });
});
