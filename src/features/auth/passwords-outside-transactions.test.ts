import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TestApp } from '../../server/test/harness';

/**
 * Argon2 takes tens of milliseconds by design; a transaction open around it holds a connection (on PGlite,
 * the one database session) that long. Each hash and check here first asks the database for a transaction of
 * its own: on PGlite that waits behind any transaction still open, so a hash made inside one is caught
 * (decision 021). The real argon2 runs after the probe.
 */
const probe = vi.hoisted(() => ({
  db: undefined as unknown,
  held: [] as string[],
  calls: 0,
  withoutTenant: undefined as undefined | ((db: never, fn: (tx: { execute: (q: unknown) => Promise<unknown> }) => Promise<unknown>) => Promise<unknown>),
}));

vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  const check = async (what: string) => {
    if (!probe.db) return;
    probe.calls += 1;
    const free = probe.withoutTenant!(probe.db as never, (tx) => tx.execute(sql`select 1`)).then(() => 'free');
    const outcome = await Promise.race([free, new Promise((resolve) => setTimeout(resolve, 1500, 'held'))]);
    if (outcome === 'held') probe.held.push(what);
  };
  return {
    ...real,
    hash: async (...args: Parameters<typeof real.hash>) => (await check('hash'), real.hash(...args)),
    verify: async (...args: Parameters<typeof real.verify>) => (await check('verify'), real.verify(...args)),
  };
});

// The suite shares modules between files of a worker (decision 028): passwords.ts may already hold the real
// argon2. The app's modules are loaded afresh here, so that they take the probe.
let h: typeof import('../../server/test/harness');
let client: typeof import('../../server/db/client');
let schema: typeof import('../../server/db/schema');
let tokens: typeof import('./tokens');
let t: TestApp;
beforeAll(async () => {
  vi.resetModules();
  [h, client, schema, tokens] = await Promise.all([
    import('../../server/test/harness'),
    import('../../server/db/client'),
    import('../../server/db/schema'),
    import('./tokens'),
  ]);
  // PGlite (one session) whichever database the rest of the suite runs on: there an open transaction blocks.
  const url = process.env.DATABASE_URL;
  delete process.env.DATABASE_URL;
  try {
    // Its own database: the modules loaded afresh here do not know the worker's (decision 028, addendum).
    t = await h.createTestApp({}, { ownDatabase: true });
  } finally {
    if (url !== undefined) process.env.DATABASE_URL = url;
  }
});
afterAll(() => t?.close());

describe('password hashing', () => {
  it('happens outside every transaction: sign-up, sign-in, password check and change, invitation completion', async () => {
    const { users, invitations } = schema;
    const org = await h.createOrg(t);
    const { token, hash } = tokens.newOpaqueToken();
    await client.withTenant(t.database.db, org.orgId, async (tx) => {
      const [invited] = await tx
        .insert(users)
        .values({ orgId: org.orgId, email: 'invited@x.example.com', role: 'worker', inviteStatus: 'PENDING' })
        .returning({ id: users.id });
      await tx.insert(invitations).values({ orgId: org.orgId, userId: invited.id, tokenHash: hash, expiresAt: new Date(Date.now() + 3600_000) });
    });

    probe.db = t.database.db;
    probe.withoutTenant = client.withoutTenant as never;
    try {
      const signup = await t.app.inject({
        method: 'POST',
        url: '/api/signup',
        headers: { host: t.config.baseDomain },
        payload: {
          organization: 'Probe Plant',
          email: 'boss@probe.example.com',
          password: 'Passw0rd!long',
          subdomainName: `p${Date.now().toString(36)}`,
          numberOfWorkers: 3,
          consent: true,
        },
      });
      expect(signup.statusCode).toBe(201);
      expect((await org.anonymous.post('/api/login', { email: org.email, password: org.password })).status).toBe(200);
      expect((await org.anonymous.post('/api/login', { email: org.email, password: 'wrong-password' })).status).toBe(401);
      expect((await org.admin.post('/api/user/verify-password', { currentPassword: org.password })).status).toBe(200);
      expect((await org.admin.post('/api/user/reset-password', { newPassword: 'NewPassw0rd!', confirmPassword: 'NewPassw0rd!' })).status).toBe(200);
      const completed = await org.anonymous.post('/api/auth/complete-registration', {
        token,
        firstName: 'Ivy',
        lastName: 'Invited',
        phoneNumber: '+15550001111',
        password: 'Passw0rd!long',
      });
      expect(completed.status).toBe(200);
    } finally {
      probe.db = undefined;
    }
    expect(probe.calls).toBeGreaterThanOrEqual(6);
    expect(probe.held).toEqual([]);
  });
});
