import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { solidImage } from '../test/images';
import { idempotencyKeys } from '../db/schema';
import { createOrg, useTestApp, type TestOrg } from '../test/harness';
import { orgRows } from '../test/sql';
import { correctiveRequest, multipart, PDF, type UploadFile } from '../test/fixtures';
import { catalogue } from '../../features/maintenance-requests/test-fixtures';

const t = useTestApp();

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
    const keys = () => orgRows(t.database.db, org.orgId, idempotencyKeys, eq(idempotencyKeys.key, headers['idempotency-key']));
    expect(await keys()).toEqual([]);
    const created = await org.admin.post('/api/activities/user/999999/notes', { note: 'x' }, headers);
    expect(created.status).toBe(404);
    const ok = await org.admin.post('/api/activities/user/1/notes', { note: 'x' }, { 'idempotency-key': 'same-tx-key-0002' });
    expect(ok.status).toBe(201);
    const [row] = await orgRows(t.database.db, org.orgId, idempotencyKeys, eq(idempotencyKeys.key, 'same-tx-key-0002'));
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

describe('Idempotency-Key on uploads (multipart)', () => {
  const jpeg = (background: string) => solidImage('jpeg', 32, 24, background);
  // Each call builds its body anew: another boundary, as a client's retry does.
  const upload = async (org: TestOrg, url: string, files: UploadFile[], fields: Record<string, string>, key: string) => {
    const body = multipart(files, fields);
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: { host: org.host, authorization: `Bearer ${org.admin.token}`, 'idempotency-key': key, ...body.headers },
      payload: body.payload,
    });
    return { status: res.statusCode, body: res.json(), replayed: res.headers['idempotent-replayed'] };
  };
  const storedFiles = async (orgId: number) => {
    let n = 0;
    for await (const _ of t.app.deps.storage.files(orgId)) n++;
    return n;
  };

  it('the same key with another file, file name or field is 422 and keeps nothing; the same body again replays', async () => {
    const org = await createOrg(t);
    const order = await org.admin.post('/api/work-orders/add-work-order', { title: 'Photo target', assignees: [] });
    expect(order.status).toBe(201);
    const url = `/api/my-work/add-photo/${order.body.workOrder.id}`;
    const blue = await jpeg('#3366cc');
    const red = await jpeg('#cc3333');
    const photo = (bytes: Buffer, name = 'pump.jpg'): UploadFile[] => [{ field: 'image', name, bytes, type: 'image/jpeg' }];

    const first = await upload(org, url, photo(blue), {}, 'photo-key-00001');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const other = await upload(org, url, photo(red), {}, 'photo-key-00001');
    expect(other.status, JSON.stringify(other.body)).toBe(422);
    expect(other.body).toEqual({ error: 'This Idempotency-Key was already used for another request' });
    expect((await upload(org, url, photo(blue, 'seal.jpg'), {}, 'photo-key-00001')).status).toBe(422);
    expect((await upload(org, url, photo(blue), { note: 'x' }, 'photo-key-00001')).status).toBe(422);

    const again = await upload(org, url, photo(blue), {}, 'photo-key-00001');
    expect(again.status).toBe(201);
    expect(again.replayed).toBe('true');
    expect(again.body).toEqual(first.body);
    const listed = await org.admin.get(`/api/my-work/list-photos/${order.body.workOrder.id}`);
    expect(listed.body.photos).toHaveLength(1);
    // The refused photos' stored copies were removed: one file, the first photo's.
    expect(await storedFiles(org.orgId)).toBe(1);
    // The second photo under a key of its own is kept.
    expect((await upload(org, url, photo(red), {}, 'photo-key-00002')).status).toBe(201);
    expect((await org.admin.get(`/api/my-work/list-photos/${order.body.workOrder.id}`)).body.photos).toHaveLength(2);
  });

  it('an attachment route (several files): another second file under the same key is 422 and keeps nothing', async () => {
    const org = await createOrg(t);
    const refs = await catalogue(t, org.orgId);
    const request = await org.admin.post('/api/maintenance-requests/add-maintenance-request', correctiveRequest(refs));
    expect(request.status, JSON.stringify(request.body)).toBe(201);
    const id = request.body.maintenanceRequest.id as number;
    const url = `/api/maintenance-requests/add-attachments/${id}`;
    const files = (second: Buffer): UploadFile[] => [
      { field: 'documents', name: 'a.pdf', bytes: PDF, type: 'application/pdf' },
      { field: 'documents', name: 'b.jpg', bytes: second, type: 'image/jpeg' },
    ];
    const first = await upload(org, url, files(await jpeg('#3366cc')), {}, 'docs-key-000001');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const other = await upload(org, url, files(await jpeg('#cc3333')), {}, 'docs-key-000001');
    expect(other.status, JSON.stringify(other.body)).toBe(422);
    const again = await upload(org, url, files(await jpeg('#3366cc')), {}, 'docs-key-000001');
    expect(again.status).toBe(200);
    expect(again.replayed).toBe('true');
    const kept = await org.admin.get(`/api/maintenance-requests/get-maintenance-request/${id}`);
    expect(kept.body.maintenanceRequest.documents, JSON.stringify(kept.body)).toHaveLength(2);
  });
});
