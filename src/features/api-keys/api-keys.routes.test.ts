import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { client, createOrg, createTestApp, useOrgs, useTestApp, type TestApp, type TestOrg } from '../../server/test/harness';
import { deactivateUser } from '../../server/test/builders';
import { withTenant } from '../../server/db/client';
import { setClockOffset } from '../../server/clock';
import { hashToken } from '../auth/tokens';
import { apiKeys } from './api-keys.table';
import { keyRole } from './api-keys.service';

// Decision 043: keys go through the caller checks of decision 021, with their own role, limit and revocation.
const t = useTestApp();
const [a, b] = useOrgs(t, 'Alpha', 'Beta');
const inAYear = () => new Date(Date.now() + 365 * 86400_000).toISOString();

afterEach(() => setClockOffset(0));

async function newKey(org: TestOrg, role: 'read-only' | 'worker' | 'manager', expiresAt = inAYear()) {
  const res = await org.admin.post('/api/api-keys/add-api-key', { name: `${role} key`, role, expiresAt });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.apiKey.id as number, key: res.body.key as string, api: client(t.app, org.host, res.body.key) };
}
const storedKey = (org: TestOrg, id: number) =>
  withTenant(
    t.database.db,
    org.orgId,
    async (tx) =>
      (
        await tx
          .select()
          .from(apiKeys)
          .where(and(eq(apiKeys.orgId, org.orgId), eq(apiKeys.id, id)))
      )[0],
  );
const workOrder = (title: string) => ({ title, priority: 'medium', status: 'assigned' });

describe('API keys', () => {
  it('shows a key once, keeps only its SHA-256, and lists it without secret', async () => {
    const { id, key } = await newKey(a, 'manager');
    expect(key).toMatch(/^cmms_live_[A-Za-z0-9_-]{43}$/);
    const row = await storedKey(a, id);
    expect(row.keyHash).toBe(hashToken(key));
    expect(JSON.stringify(row)).not.toContain(key.slice(10));
    const list = await a.admin.get('/api/api-keys/list-api-keys');
    expect(list.status).toBe(200);
    const listed = list.body.apiKeys.find((k: { id: number }) => k.id === id);
    expect(listed).toMatchObject({ name: 'manager key', role: 'manager', prefix: key.slice(0, 16), revokedAt: null, lastUsedAt: null });
    expect(JSON.stringify(list.body)).not.toContain(key.slice(16));
    expect(JSON.stringify(list.body)).not.toContain(row.keyHash);
  });

  it('acts with its role: a manager key adds a work order, a worker key may not, both list them', async () => {
    const manager = await newKey(a, 'manager');
    const worker = await newKey(a, 'worker');
    const added = await manager.api.post('/api/work-orders/add-work-order', workOrder('Made with a key'));
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect((await worker.api.post('/api/work-orders/add-work-order', workOrder('Refused'))).status).toBe(403);
    expect((await manager.api.get('/api/work-orders/get-work-orders')).status).toBe(200);
    expect((await worker.api.get('/api/work-orders/get-work-orders')).status).toBe(200);
    // No key reaches the admin's routes, its own management included.
    expect((await manager.api.get('/api/api-keys/list-api-keys')).status).toBe(403);
    expect((await manager.api.post('/api/api-keys/add-api-key', { name: 'x', role: 'manager', expiresAt: inAYear() })).status).toBe(403);
  });

  it('a read-only key reads and is refused on every other method', async () => {
    const { api } = await newKey(a, 'read-only');
    const before = await a.admin.get('/api/work-orders/get-work-orders');
    const list = await api.get('/api/work-orders/get-work-orders');
    expect(list.status).toBe(200);
    expect(list.body.pagination.totalRecords).toBe(before.body.pagination.totalRecords);
    const add = await api.post('/api/work-orders/add-work-order', workOrder('Not with a read-only key'));
    expect(add.status).toBe(403);
    expect(add.body.error).toBe('This API key is read-only');
    expect((await api.put('/api/work-orders/update-status/1', { status: 'completed' })).status).toBe(403);
    expect((await api.del('/api/work-orders/delete-work-order/1')).status).toBe(403);
    expect((await a.admin.get('/api/work-orders/get-work-orders')).body.pagination.totalRecords).toBe(before.body.pagination.totalRecords);
  });

  it("never acts above its creator's current role, and stops with its creator", () => {
    expect(keyRole('manager', 'admin')).toBe('manager');
    expect(keyRole('manager', 'worker')).toBe('worker');
    expect(keyRole('read-only', 'worker')).toBe('worker');
    expect(keyRole('worker', 'manager')).toBe('worker');
  });

  it("refuses the routes of the creator's own account (password, profile)", async () => {
    const { api } = await newKey(a, 'worker');
    const res = await api.post('/api/user/reset-password', { newPassword: 'An0ther!password', confirmPassword: 'An0ther!password' });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('An API key cannot call this route');
  });

  it('is refused once expired and at once once revoked (401)', async () => {
    const soon = new Date(Date.now() + 3600_000).toISOString();
    const expiring = await newKey(a, 'manager', soon);
    expect((await expiring.api.get('/api/work-orders/get-work-orders')).status).toBe(200);
    setClockOffset(2 * 3600_000);
    expect((await expiring.api.get('/api/work-orders/get-work-orders')).status).toBe(401);
    setClockOffset(0);

    const revoked = await newKey(a, 'manager');
    expect((await revoked.api.get('/api/work-orders/get-work-orders')).status).toBe(200);
    const res = await a.admin.post(`/api/api-keys/revoke-api-key/${revoked.id}`);
    expect(res.status).toBe(200);
    expect(res.body.apiKeys.find((k: { id: number }) => k.id === revoked.id).revokedAt).not.toBeNull();
    expect((await revoked.api.get('/api/work-orders/get-work-orders')).status).toBe(401);
  });

  it('refuses expiries in the past or beyond two years', async () => {
    const past = await a.admin.post('/api/api-keys/add-api-key', { name: 'old', role: 'manager', expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.issues).toEqual([{ path: 'expiresAt', message: 'Expiry must be in the future' }]);
    const far = await a.admin.post('/api/api-keys/add-api-key', {
      name: 'far',
      role: 'manager',
      expiresAt: new Date(Date.now() + 800 * 86400_000).toISOString(),
    });
    expect(far.status).toBe(400);
  });

  it('stops when its creator is no longer active', async () => {
    const admin2 = await a.as('admin');
    const res = await admin2.post('/api/api-keys/add-api-key', { name: 'theirs', role: 'manager', expiresAt: inAYear() });
    const api = client(t.app, a.host, res.body.key);
    expect((await api.get('/api/work-orders/get-work-orders')).status).toBe(200);
    await withTenant(t.database.db, a.orgId, (tx) => deactivateUser(tx, a.orgId, admin2.userId));
    expect((await api.get('/api/work-orders/get-work-orders')).status).toBe(401);
  });

  it('records its last use at most once a minute', async () => {
    const { id, api } = await newKey(a, 'read-only');
    await api.get('/api/work-orders/get-work-orders');
    const first = (await storedKey(a, id)).lastUsedAt;
    expect(first).not.toBeNull();
    await api.get('/api/work-orders/get-work-orders');
    expect((await storedKey(a, id)).lastUsedAt).toEqual(first);
    setClockOffset(61_000);
    await api.get('/api/work-orders/get-work-orders');
    expect((await storedKey(a, id)).lastUsedAt!.getTime()).toBeGreaterThan(first!.getTime());
  });

  it('another organisation: its host refuses the key (401), its records are not found (404), its admin cannot revoke it', async () => {
    const { id, key, api } = await newKey(a, 'manager');
    const bWorkOrder = await b.admin.post('/api/work-orders/add-work-order', workOrder('B only'));
    const bId = bWorkOrder.body.workOrder.id as number;
    // A's key on B's host.
    expect((await client(t.app, b.host, key).get('/api/work-orders/get-work-orders')).status).toBe(401);
    // On its own host B's ids name nothing of A's.
    const aCount = (await a.admin.get('/api/work-orders/get-work-orders')).body.pagination.totalRecords as number;
    if (bId > aCount) expect((await api.get(`/api/work-orders/get-work-order/${bId}`)).status).toBe(404);
    // B's admin cannot see or revoke A's key.
    expect((await b.admin.get('/api/api-keys/list-api-keys')).body.apiKeys.map((k: { id: number }) => k.id)).not.toContain(id);
    expect((await b.admin.post(`/api/api-keys/revoke-api-key/${id + 1000}`)).status).toBe(404);
    const before = await storedKey(a, id);
    expect((await b.admin.post(`/api/api-keys/revoke-api-key/${id}`)).status).toBe(404);
    expect(await storedKey(a, id)).toEqual(before);
    expect((await api.get('/api/work-orders/get-work-orders')).status).toBe(200);
  });

  it('an unknown key is 401', async () => {
    expect((await client(t.app, a.host, 'cmms_live_' + 'x'.repeat(43)).get('/api/work-orders/get-work-orders')).status).toBe(401);
  });
});

describe('API key rate limit', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp();
    limited.config.routeLimits.apiKey = { max: 3, windowSeconds: 60 };
  });
  afterAll(() => limited.close());

  it('answers 429 past its own limit, per key', async () => {
    const org = await createOrg(limited);
    const make = async () => {
      const res = await org.admin.post('/api/api-keys/add-api-key', { name: 'k', role: 'read-only', expiresAt: inAYear() });
      return client(limited.app, org.host, res.body.key);
    };
    const one = await make();
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await one.get('/api/work-orders/get-work-orders')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Another key has its own count; the signed-in admin is not limited by the keys.
    expect((await (await make()).get('/api/work-orders/get-work-orders')).status).toBe(200);
    expect((await org.admin.get('/api/work-orders/get-work-orders')).status).toBe(200);
  });

  it('an address sending unknown keys waits (429) once past its limit, even with a good key; other addresses do not', async () => {
    limited.config.routeLimits.apiKeyUnknown = { max: 3, windowSeconds: 60 };
    const org = await createOrg(limited);
    const good = (await org.admin.post('/api/api-keys/add-api-key', { name: 'k', role: 'read-only', expiresAt: inAYear() })).body.key as string;
    const from = `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const call = (key: string, remoteAddress = from) =>
      limited.app.inject({
        method: 'GET',
        url: '/api/work-orders/get-work-orders',
        remoteAddress,
        headers: { host: org.host, authorization: `Bearer ${key}` },
      });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(`cmms_live_${'y'.repeat(40)}${i}`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const waiting = await call(good);
    expect(waiting.statusCode).toBe(429);
    expect(Number(waiting.headers['retry-after'])).toBeGreaterThan(0);
    // another address is not held back
    expect((await call(good, '10.78.0.1')).statusCode).toBe(200);
  });
});
