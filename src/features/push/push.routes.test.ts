import { describe, expect, it } from 'vitest';
import { useOrgs, useTestAppWith } from '../../server/test/harness';
import { until } from '../../server/test/fixtures';
import { browserSubscription, decryptPush, startPushService } from './test-push-service';
import { withTenant } from '../../server/db/client';
import { users } from '../users/users.table';
import { and, eq } from 'drizzle-orm';
import { importJWK, jwtVerify } from 'jose';

// Decision 075: Web Push end to end. The test is the browser (a P-256 key pair and an auth secret) and the push
// service (a receiver that decrypts the aes128gcm payload with the browser's private key, RFC 8291, by hand).

// The push service is started before the app and closed after it.
const [t, push] = useTestAppWith(startPushService, () => []);
const [a, b] = useOrgs(t, 'Alpha', 'Beta');

const forPath = (path: string) => push().received.filter((r) => r.path === path);

describe('web push', () => {
  it('gives the deployment VAPID public key to everyone signed in, never the private key', async () => {
    const worker = await a.as('worker');
    const res = await worker.get('/api/push/get-public-key');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ publicKey: t.config.vapid!.publicKey });
    expect(Buffer.from(res.body.publicKey, 'base64url')).toHaveLength(65);
    expect(JSON.stringify(res.body)).not.toContain(t.config.vapid!.privateKey);
    expect((await a.anonymous.get('/api/push/get-public-key')).status).toBe(401);
  });

  it('a manager assigns a work order: the technician device gets the push, encrypted to its keys and signed with VAPID', async () => {
    const worker = await a.as('worker');
    const manager = await a.as('manager');
    const device = browserSubscription(`${push().base}/device-1`);
    const added = await worker.post('/api/push/add-subscription', { ...device.json, userAgent: 'Test phone' });
    expect(added.status).toBe(200);
    expect(added.body.subscriptions).toMatchObject([{ endpoint: device.json.endpoint, userAgent: 'Test phone', lastSuccessAt: null }]);
    expect(JSON.stringify(added.body)).not.toContain(device.json.keys.auth);

    const created = await manager.post('/api/work-orders/add-work-order', {
      title: 'Pump seal leaks',
      priority: 'high',
      status: 'assigned',
      assignees: [worker.userId],
    });
    expect(created.status).toBe(201);
    const id = created.body.workOrder.id;
    await until(() => forPath('/device-1').length === 1);
    const got = forPath('/device-1')[0];
    expect(got.headers['content-encoding']).toBe('aes128gcm');
    expect(got.headers.ttl).toBeDefined();
    // VAPID (RFC 8292): a JWT for this push service's origin, signed (ES256) by the key it names. Which app's key:
    // on the shared PostgreSQL any test app's worker may run the job.
    const vapid = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]{87})$/.exec(String(got.headers.authorization));
    expect(vapid).not.toBeNull();
    const point = Buffer.from(vapid![2], 'base64url');
    const key = await importJWK(
      { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
      'ES256',
    );
    const { payload } = await jwtVerify(vapid![1], key, { audience: push().base });
    expect(payload.sub).toMatch(/^mailto:|^https:/);
    const message = decryptPush(got.body, device.ecdh, device.auth);
    expect(message).toEqual({
      title: `Work order WO-${id} assigned to you`,
      body: 'Pump seal leaks',
      url: `/dashboard/my-work?open=${id}`,
      tag: `work-order-${id}`,
    });
    await until(async () => (await worker.get('/api/push/list-subscriptions')).body.subscriptions[0].lastSuccessAt !== null);

    // Someone else's device gets nothing; a reassignment that adds nobody sends nothing more.
    const other = await a.as('worker');
    const otherDevice = browserSubscription(`${push().base}/device-other`);
    await other.post('/api/push/add-subscription', otherDevice.json);
    const order = (await manager.get(`/api/work-orders/get-work-order/${id}`)).body.workOrder;
    const updated = await manager.put(`/api/work-orders/update-work-order/${id}`, {
      title: 'Pump seal leaks (2)',
      priority: 'high',
      assignees: [worker.userId, other.userId],
      updatedAt: order.updatedAt,
    });
    expect(updated.status).toBe(200);
    await until(() => forPath('/device-other').length === 1);
    expect(decryptPush(forPath('/device-other')[0].body, otherDevice.ecdh, otherDevice.auth).title).toBe(`Work order WO-${id} assigned to you`);
    expect(forPath('/device-1')).toHaveLength(1);
  });

  it('in Arabic for a technician who reads Arabic', async () => {
    const worker = await a.as('worker');
    await withTenant(t.database.db, a.orgId, (tx) =>
      tx
        .update(users)
        .set({ language: 'ar' })
        .where(and(eq(users.orgId, a.orgId), eq(users.id, worker.userId))),
    );
    const device = browserSubscription(`${push().base}/device-ar`);
    await worker.post('/api/push/add-subscription', device.json);
    const created = await a.admin.post('/api/work-orders/add-work-order', { title: 'تسرب', priority: 'low', status: 'assigned', assignees: [worker.userId] });
    await until(() => forPath('/device-ar').length === 1);
    const message = decryptPush(forPath('/device-ar')[0].body, device.ecdh, device.auth);
    expect(message.title).toBe(`أُسند إليك أمر العمل WO-${created.body.workOrder.id}`);
  });

  it('a 410 from the push service drops the subscription; a 500 is retried', async () => {
    const worker = await a.as('worker');
    const gone = browserSubscription(`${push().base}/device-gone`);
    await worker.post('/api/push/add-subscription', gone.json);
    push().answers.push(410);
    await a.admin.post('/api/work-orders/add-work-order', { title: 'Gone', priority: 'low', status: 'assigned', assignees: [worker.userId] });
    await until(() => forPath('/device-gone').length === 1);
    await until(async () => (await worker.get('/api/push/list-subscriptions')).body.subscriptions.length === 0);

    const flaky = browserSubscription(`${push().base}/device-flaky`);
    await worker.post('/api/push/add-subscription', flaky.json);
    push().answers.push(500);
    await a.admin.post('/api/work-orders/add-work-order', { title: 'Flaky', priority: 'low', status: 'assigned', assignees: [worker.userId] });
    await until(() => forPath('/device-flaky').length === 2, 30_000);
    expect(decryptPush(forPath('/device-flaky')[1].body, flaky.ecdh, flaky.auth).body).toBe('Flaky');
    expect((await worker.get('/api/push/list-subscriptions')).body.subscriptions).toHaveLength(1);
  });

  it('each person manages only their own devices; another organisation sees and changes nothing', async () => {
    const worker = await a.as('worker');
    const device = browserSubscription(`${push().base}/device-mine`);
    await worker.post('/api/push/add-subscription', device.json);
    const before = JSON.stringify((await worker.get('/api/push/list-subscriptions')).body);
    const colleague = await a.as('manager');
    expect((await colleague.get('/api/push/list-subscriptions')).body.subscriptions).toEqual([]);
    expect((await colleague.post('/api/push/delete-subscription', { endpoint: device.json.endpoint })).body.subscriptions).toEqual([]);
    expect((await a.admin.post('/api/push/delete-subscription', { endpoint: device.json.endpoint })).status).toBe(200);
    const stranger = await b.as('worker');
    expect((await stranger.post('/api/push/delete-subscription', { endpoint: device.json.endpoint })).body.subscriptions).toEqual([]);
    expect((await b.admin.get('/api/push/list-subscriptions')).body.subscriptions).toEqual([]);
    expect(JSON.stringify((await worker.get('/api/push/list-subscriptions')).body)).toBe(before);
    // The owner unsubscribes.
    expect((await worker.post('/api/push/delete-subscription', { endpoint: device.json.endpoint })).body.subscriptions).toEqual([]);
  });

  it('refuses a subscription without keys or with a non-URL endpoint', async () => {
    const worker = await a.as('worker');
    expect((await worker.post('/api/push/add-subscription', { endpoint: 'not a url', keys: { p256dh: 'x'.repeat(80), auth: 'y'.repeat(22) } })).status).toBe(
      400,
    );
    expect((await worker.post('/api/push/add-subscription', { endpoint: `${push().base}/x` })).status).toBe(400);
  });
});
