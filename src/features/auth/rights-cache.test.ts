import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { RightsCache, rightsCacheOf } from './rights-cache';
import type { AccessClaims } from './tokens';
import { client, createOrg, createTestApp, type TestApp } from '../../server/test/harness';
import { openDatabase, withTenant, type Database } from '../../server/db/client';
import { buildApp } from '../../server/app';
import { users } from '../../server/db/schema';

const claims: AccessClaims = { userId: 7, orgId: 3, role: 'admin', sessionId: 11, tokenVersion: 0 };
const row = { role: 'manager' as const, tokenVersion: 0, expiresAt: new Date(Date.now() + 60_000) };

// Decision 021, addendum: rights are kept only while every change is heard, and a read that started before a
// change never keeps its answer.
describe('the rights cache', () => {
  it('keeps nothing while its feed is not live', () => {
    const cache = new RightsCache();
    cache.keep(claims, cache.mark(3), row);
    expect(cache.lookup(claims)).toBeUndefined();
  });

  it('keeps the role of a session for its user and token version only', () => {
    const cache = new RightsCache();
    cache.setLive(true);
    cache.keep(claims, cache.mark(3), row);
    expect(cache.lookup(claims)).toBe('manager');
    expect(cache.lookup({ ...claims, tokenVersion: 1 })).toBeUndefined();
    expect(cache.lookup({ ...claims, userId: 8 })).toBeUndefined();
    expect(cache.lookup(claims, row.expiresAt.getTime())).toBeUndefined();
  });

  it('drops an answer read before its organisation was forgotten, or before everything was', () => {
    const cache = new RightsCache();
    cache.setLive(true);
    const before = cache.mark(3);
    cache.forgetOrg(3);
    cache.keep(claims, before, row);
    expect(cache.lookup(claims)).toBeUndefined();
    const beforeAll = cache.mark(3);
    cache.forgetAll();
    cache.keep(claims, beforeAll, row);
    expect(cache.lookup(claims)).toBeUndefined();
    // another organisation's change does not touch it
    cache.keep(claims, cache.mark(3), row);
    cache.forgetOrg(4);
    expect(cache.lookup(claims)).toBe('manager');
    cache.setLive(false);
    expect(cache.lookup(claims)).toBeUndefined();
  });
});

const url = process.env.DATABASE_URL;
// Through a transaction pooler without DATABASE_DIRECT_URL (the CI's PgBouncer run) the feed is deaf and never
// live: src/server/db/pooling.test.ts checks that answers stay right there.
const feedHears = !process.env.PGBOUNCER_UPSTREAM_URL || Boolean(process.env.DATABASE_DIRECT_URL);
describe.skipIf(!url || !feedHears)('rights kept on PostgreSQL', () => {
  let t: TestApp;
  let other: { database: Database; app: Awaited<ReturnType<typeof buildApp>> };
  let owner: pg.Client;
  beforeAll(async () => {
    t = await createTestApp();
    // A second server process on the same database: its own pool, its own feed, the same secret.
    const database = await openDatabase({ databaseUrl: url });
    other = { database, app: await buildApp({ database, config: t.config, logger: false }) };
    await other.app.ready();
    owner = new pg.Client({ connectionString: url });
    await owner.connect();
  });
  afterAll(async () => {
    await owner.end();
    await other.app.close();
    await other.database.close();
    await t.close();
  });

  const feedLive = async (database: Database, live: boolean) => {
    for (let i = 0; i < 200 && rightsCacheOf(database.db).live !== live; i++) await new Promise((r) => setTimeout(r, 25));
    expect(rightsCacheOf(database.db).live).toBe(live);
  };
  /** Waits until the feed has delivered a change (a notification takes a moment to arrive). */
  const heard = async (done: () => boolean) => {
    for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(done()).toBe(true);
  };

  it("keeps a caller's rights after one request, and a change made elsewhere reaches it", async () => {
    await feedLive(other.database, true);
    const org = await createOrg(t);
    const manager = await org.as('manager');
    const there = client(other.app, org.host, manager.token);
    expect((await there.get('/api/user/get-app-data')).status).toBe(200);
    const claims = { orgId: org.orgId, userId: manager.userId, sessionId: sidOf(manager.token!), tokenVersion: 0, role: 'manager' as const };
    const cache = rightsCacheOf(other.database.db);
    expect(cache.lookup(claims)).toBe('manager');
    // A change made elsewhere (another instance, or here straight in the database) is heard through the feed.
    await owner.query(`update users set role = 'worker' where org_id = $1 and id = $2`, [org.orgId, manager.userId]);
    await heard(() => cache.lookup(claims) === undefined);
    expect((await there.post('/api/auth/addUser', { email: 'b@x.example.com', confirmEmail: 'b@x.example.com', role: 'worker' })).status).toBe(403);
    expect((await there.get('/api/user/get-app-data')).status).toBe(200);
    expect(cache.lookup(claims)).toBe('worker');
    await owner.query(`update sessions set revoked_at = now() where org_id = $1 and id = $2`, [org.orgId, claims.sessionId]);
    await heard(() => cache.lookup(claims) === undefined);
    expect((await there.get('/api/user/get-app-data')).status).toBe(401);
  });

  it("forgets an organisation's rights when this process commits a write of it, before the answer leaves", async () => {
    await feedLive(t.database, true);
    const org = await createOrg(t);
    const worker = await org.as('worker');
    expect((await worker.get('/api/user/get-app-data')).status).toBe(200);
    const claims = { orgId: org.orgId, userId: worker.userId, sessionId: sidOf(worker.token!), tokenVersion: 0, role: 'worker' as const };
    expect(rightsCacheOf(t.database.db).lookup(claims)).toBe('worker');
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .update(users)
        .set({ jobTitle: 'Fitter' })
        .where(and(eq(users.orgId, org.orgId), eq(users.id, worker.userId))),
    );
    expect(rightsCacheOf(t.database.db).lookup(claims)).toBeUndefined();
  });

  it('reads the database for every request while its feed is lost, and keeps again once it is back', async () => {
    await feedLive(other.database, true);
    const org = await createOrg(t);
    const manager = await org.as('manager');
    const there = client(other.app, org.host, manager.token);
    expect((await there.get('/api/user/get-app-data')).status).toBe(200);
    await owner.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'cmms-rights-feed'`);
    await feedLive(other.database, false);
    // No instance hears this change now: the next request must still see it.
    await owner.query(`update users set invite_status = 'PENDING' where org_id = $1 and id = $2`, [org.orgId, manager.userId]);
    expect((await there.get('/api/user/get-app-data')).status).toBe(401);
    await feedLive(other.database, true);
  });
});

const sidOf = (token: string) => Number(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sid);
