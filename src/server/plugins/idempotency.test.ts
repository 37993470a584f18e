import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { withTenant } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { createOrg, createTestApp, type TestApp } from '../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('Idempotency-Key on creates', () => {
  it('replays the first response to a retried create instead of creating a duplicate', async () => {
    const org = await createOrg(t);
    const headers = { 'idempotency-key': 'retry-key-0001' };
    const first = await org.admin.post('/api/activities/user/1/notes', { note: 'Replace the belt' }, headers);
    const second = await org.admin.post('/api/activities/user/1/notes', { note: 'Replace the belt' }, headers);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    const list = await org.admin.get('/api/activities/user/1');
    expect(list.body.activities.filter((a: { note: string }) => a.note === 'Replace the belt')).toHaveLength(1);
  });

  it('refuses the same key for another route or user, and a malformed key', async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker');
    await org.admin.post('/api/activities/user/1/notes', { note: 'a' }, { 'idempotency-key': 'shared-key-0001' });
    const other = await worker.post('/api/activities/user/1/notes', { note: 'b' }, { 'idempotency-key': 'shared-key-0001' });
    expect(other.status).toBe(422);
    const bad = await org.admin.post('/api/activities/user/1/notes', { note: 'c' }, { 'idempotency-key': 'x' });
    expect(bad.status).toBe(400);
  });

  it('keys of one organisation do not collide with another', async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    const headers = { 'idempotency-key': 'same-key-in-two-orgs' };
    expect((await a.admin.post('/api/activities/user/1/notes', { note: 'A' }, headers)).status).toBe(201);
    const res = await b.admin.post('/api/activities/user/1/notes', { note: 'B' }, headers);
    expect(res.status).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses the same key with another body (422) and creates nothing', async () => {
    const org = await createOrg(t);
    const headers = { 'idempotency-key': 'body-key-00001' };
    expect((await org.admin.post('/api/activities/user/1/notes', { note: 'first' }, headers)).status).toBe(201);
    const other = await org.admin.post('/api/activities/user/1/notes', { note: 'second' }, headers);
    expect(other.status).toBe(422);
    const list = await org.admin.get('/api/activities/user/1');
    expect(list.body.activities.filter((a: { note: string }) => a.note === 'second')).toHaveLength(0);
  });

  it('writes the key and its answer in the transaction of the write: never a key "in progress"', async () => {
    const org = await createOrg(t);
    const headers = { 'idempotency-key': 'same-tx-key-0001' };
    // A write refused inside its transaction leaves no key behind: the corrected retry runs.
    const refused = await org.admin.post('/api/activities/user/999999/notes', { note: 'x' }, headers);
    expect(refused.status).toBe(404);
    const keys = () =>
      withTenant(t.database.db, org.orgId, (tx) =>
        tx.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.orgId, org.orgId), eq(idempotencyKeys.key, headers['idempotency-key']))),
      );
    expect(await keys()).toEqual([]);
    const created = await org.admin.post('/api/activities/user/999999/notes', { note: 'x' }, headers);
    expect(created.status).toBe(404);
    const ok = await org.admin.post('/api/activities/user/1/notes', { note: 'x' }, { 'idempotency-key': 'same-tx-key-0002' });
    expect(ok.status).toBe(201);
    const [row] = await withTenant(t.database.db, org.orgId, (tx) =>
      tx.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.orgId, org.orgId), eq(idempotencyKeys.key, 'same-tx-key-0002'))),
    );
    expect(row.status).toBe(201);
    expect(JSON.parse(row.body!)).toEqual(ok.body);
  });

  it('concurrent requests with one key create one record and all get its answer', async () => {
    const org = await createOrg(t);
    const headers = { 'idempotency-key': 'concurrent-key-01' };
    const results = await Promise.all(Array.from({ length: 4 }, () => org.admin.post('/api/activities/user/1/notes', { note: 'once' }, headers)));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    for (const r of results) expect(r.body).toEqual(results[0].body);
    const list = await org.admin.get('/api/activities/user/1');
    expect(list.body.activities.filter((a: { note: string }) => a.note === 'once')).toHaveLength(1);
  });
});
