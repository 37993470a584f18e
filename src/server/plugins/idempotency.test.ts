import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
