import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { createOrg, useOrgs, useTestAppWith, type TestOrg } from '../../server/test/harness';
import { updatePart } from '../../server/test/builders';
import { withoutTenant, withTenant } from '../../server/db/client';
import { mailOutbox } from '../../server/db/schema';
import { webhookDeliveries, webhookEndpoints } from './webhooks.table';
import { deliverWebhook } from './webhooks.delivery';
import { catalogue } from '../maintenance-requests/test-fixtures';
import { correctiveRequest, until } from '../../server/test/fixtures';
import { guardedLookup, isForbiddenAddress, postJson } from './outbound';
import { startReceiver } from './test-fixtures';

// Decision 043: deliveries signed (Standard Webhooks), retried, redelivered, refused to private addresses.

const settings = { allowPrivate: true, timeoutMs: 5000, maxResponseBytes: 65536, retryBaseSeconds: 1, retryHours: 24, disableAfterHours: 72 };
const workOrder = (title: string) => ({ title, priority: 'medium', status: 'assigned' });

// The receiver is started before the app and closed after it. The deliveries run on this file's app only: on the
// shared PostgreSQL another file's app, its clock moved to 2030, once ran one ("failed for 28388 hours").
const [t, receiver] = useTestAppWith(startReceiver, () => [{}, { ownJobs: true }]);
const [a, b] = useOrgs(t, 'Alpha', 'Beta');

const deliveriesOf = async (org: TestOrg, webhookId: number) =>
  (await org.admin.get(`/api/webhooks/list-deliveries?webhookId=${webhookId}&pageSize=100`)).body.deliveries;
const forTitle = (title: string) => receiver().received.filter((r) => JSON.parse(r.body).data?.title === title);
/** The events of `type` delivered to the receiver's URL ending in `suffix` (one webhook of a test), parsed. */
const eventsAt = (suffix: string, type: string) => {
  const delivered = receiver().received.filter((r) => r.url.endsWith(suffix));
  return delivered.map((r) => JSON.parse(r.body)).filter((b) => b.type === type);
};

describe('webhooks', () => {
  it('delivers a work order event signed: verified with the standardwebhooks library', async () => {
    const added = await a.admin.post('/api/webhooks/add-webhook', { url: receiver().url, events: ['work-order.created', 'work-order.completed'] });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const { id, secret } = added.body.webhook;
    expect(secret).toMatch(/^whsec_/);
    await a.admin.post('/api/work-orders/add-work-order', workOrder('Signed one'));
    await until(() => forTitle('Signed one').length === 1);
    const [got] = forTitle('Signed one');
    const payload = new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as { type: string; data: { title: string } };
    expect(payload).toMatchObject({ type: 'work-order.created', data: { title: 'Signed one' } });
    // Another secret does not verify it.
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).verify(got.body, got.headers as Record<string, string>)).toThrow();
    await until(async () => (await deliveriesOf(a, id))[0]?.status === 'succeeded');
    const [delivery] = await deliveriesOf(a, id);
    expect(delivery).toMatchObject({ event: 'work-order.created', responseCode: 200, attempts: 1, messageId: got.headers['webhook-id'] });
    // the receiver's answer is kept and shown in the delivery's detail (not in the list)
    expect(delivery).not.toHaveProperty('responseBody');
    const detail = await a.admin.get(`/api/webhooks/get-delivery/${delivery.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.delivery).toMatchObject({ id: delivery.id, responseBody: 'ok', responseCode: 200 });
  });

  it('a given secret is used, an endpoint gets only its events, and completion sends both status events', async () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const added = await a.admin.post('/api/webhooks/add-webhook', {
      url: `${receiver().url}?given`,
      events: ['work-order.status-changed', 'work-order.completed'],
      secret,
    });
    expect(added.body.webhook.secret).toBe(secret);
    const wo = await a.admin.post('/api/work-orders/add-work-order', workOrder('Status one'));
    await a.admin.put(`/api/work-orders/update-status/${wo.body.workOrder.id}`, { status: 'completed' });
    const mine = () => receiver().received.filter((r) => r.body.includes(`"id":${wo.body.workOrder.id}`) && r.body.includes('Status one'));
    // All four, in whatever order the queue delivers them (the created one may come last).
    await until(() => mine().length >= 4, 30_000);
    const types = mine()
      .map((r) => JSON.parse(r.body).type)
      .sort();
    // The first endpoint takes created and completed; this one status-changed and completed.
    expect(types).toEqual(['work-order.completed', 'work-order.completed', 'work-order.created', 'work-order.status-changed']);
    const changed = mine().find((r) => JSON.parse(r.body).type === 'work-order.status-changed')!;
    expect(new Webhook(secret).verify(changed.body, changed.headers as Record<string, string>)).toMatchObject({ data: { from: 'assigned', to: 'completed' } });
  });

  // A retry waits its backoff and the queue's next poll: on a loaded machine (CI's two runs) over the 30 s default.
  it('retries after a 500 with the same message id, then succeeds; Redeliver sends it again', { timeout: 90_000 }, async () => {
    const added = await b.admin.post('/api/webhooks/add-webhook', { url: `${receiver().url}?retry`, events: ['work-order.created'] });
    const id = added.body.webhook.id;
    receiver().answers.push(500);
    await b.admin.post('/api/work-orders/add-work-order', workOrder('Retried one'));
    await until(() => forTitle('Retried one').length === 2, 30_000);
    const [first, second] = forTitle('Retried one');
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    await until(async () => (await deliveriesOf(b, id))[0]?.status === 'succeeded');
    const [delivery] = await deliveriesOf(b, id);
    expect(delivery).toMatchObject({ attempts: 2, responseCode: 200, lastError: null });

    const again = await b.admin.post(`/api/webhooks/redeliver/${delivery.id}`);
    expect(again.status).toBe(200);
    await until(() => forTitle('Retried one').length === 3);
    expect(forTitle('Retried one')[2].headers['webhook-id']).toBe(first.headers['webhook-id']);
    await until(async () => (await deliveriesOf(b, id))[0]?.attempts === 3);
  });

  it("another organisation: its admin does not see, change, redeliver or delete A's endpoints and deliveries (404)", async () => {
    const added = await a.admin.post('/api/webhooks/add-webhook', { url: `${receiver().url}?iso`, events: ['part.stock-below-minimum'] });
    const id = added.body.webhook.id;
    const before = JSON.stringify((await a.admin.get('/api/webhooks/list-webhooks')).body);
    const bList = await b.admin.get('/api/webhooks/list-webhooks');
    expect(bList.body.webhooks.map((w: { url: string }) => w.url)).not.toContain(`${receiver().url}?iso`);
    const aDeliveries = (await a.admin.get('/api/webhooks/list-deliveries?pageSize=100')).body.deliveries as { id: number; messageId: string }[];
    const bDeliveries = (await b.admin.get('/api/webhooks/list-deliveries?pageSize=100')).body.deliveries as { messageId: string }[];
    expect(bDeliveries.map((d) => d.messageId)).not.toEqual(expect.arrayContaining([aDeliveries[0].messageId]));
    const far = id + 1000;
    expect((await b.admin.put(`/api/webhooks/update-webhook/${far}`, { url: receiver().url, events: ['work-order.created'], enabled: false })).status).toBe(
      404,
    );
    expect((await b.admin.del(`/api/webhooks/delete-webhook/${far}`)).status).toBe(404);
    expect((await b.admin.post(`/api/webhooks/redeliver/${aDeliveries[0].id + 1000}`)).status).toBe(404);
    expect((await b.admin.get(`/api/webhooks/get-delivery/${aDeliveries[0].id + 1000}`)).status).toBe(404);
    // by A's own id, B reads at most a delivery of its own
    const bSame = await b.admin.get(`/api/webhooks/get-delivery/${aDeliveries[0].id}`);
    if (bSame.status === 200) expect(bSame.body.delivery.messageId).not.toBe(aDeliveries[0].messageId);
    else expect(bSame.status).toBe(404);
    expect(JSON.stringify((await a.admin.get('/api/webhooks/list-webhooks')).body)).toBe(before);
    // Managers and workers are refused (admins only), a delivery's detail too (it holds the receiver's answer).
    expect((await (await a.as('manager')).get('/api/webhooks/list-webhooks')).status).toBe(403);
    for (const role of ['manager', 'worker'] as const)
      expect((await (await a.as(role)).get(`/api/webhooks/get-delivery/${aDeliveries[0].id}`)).status).toBe(403);
  });

  it('announces stock falling below its minimum', async () => {
    const added = await a.admin.post('/api/webhooks/add-webhook', { url: `${receiver().url}?stock`, events: ['part.stock-below-minimum'] });
    expect(added.status).toBe(201);
    const { part } = await catalogue(t, a.orgId, 'W1');
    const partId = part.id;
    await withTenant(t.database.db, a.orgId, (tx) => updatePart(tx, a.orgId, partId, { minimumQuantity: 3 }));
    // Stock comes in through the ledger (decision 071): five at the default location.
    expect((await a.admin.post(`/api/parts/adjust-stock/${partId}`, { quantity: 5, reason: 'Received' })).status).toBe(200);
    await a.admin.post(`/api/parts/adjust-stock/${partId}`, { quantity: -1, reason: 'Used' });
    await a.admin.post(`/api/parts/adjust-stock/${partId}`, { quantity: -2, reason: 'Used' });
    await a.admin.post(`/api/parts/adjust-stock/${partId}`, { quantity: -1, reason: 'Used' });
    const stock = () => receiver().received.filter((r) => r.url.endsWith('?stock') && r.body.includes('Bearing 6204 W1'));
    await until(() => stock().length >= 1);
    await new Promise((r) => setTimeout(r, 2500));
    expect(stock().map((r) => JSON.parse(r.body).data)).toEqual([{ id: partId, name: 'Bearing 6204 W1', quantityOnHand: 2, minimumQuantity: 3 }]);
  });

  it('disables an endpoint failing for days and mails the admin', async () => {
    const added = await a.admin.post('/api/webhooks/add-webhook', { url: `${receiver().url}?down`, events: ['work-order.created'] });
    const id = added.body.webhook.id;
    await withTenant(t.database.db, a.orgId, (tx) =>
      tx
        .update(webhookEndpoints)
        .set({ failingSince: sql`now() - interval '73 hours'` })
        .where(and(eq(webhookEndpoints.orgId, a.orgId), eq(webhookEndpoints.id, id))),
    );
    receiver().answers.push(503, 503, 503, 503);
    await a.admin.post('/api/work-orders/add-work-order', workOrder('Down one'));
    await until(async () => (await a.admin.get('/api/webhooks/list-webhooks')).body.webhooks.find((w: { id: number }) => w.id === id).enabled === false);
    const endpoint = (await a.admin.get('/api/webhooks/list-webhooks')).body.webhooks.find((w: { id: number }) => w.id === id);
    expect(endpoint.disabledReason).toMatch(/failed for 73 hours/);
    const mails = await withoutTenant(t.database.db, (tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.to, a.email)));
    expect(mails.some((m) => m.subject === 'A webhook endpoint was disabled' && m.text.includes('?down'))).toBe(true);
    // A disabled endpoint is not redelivered to until enabled again.
    receiver().answers.length = 0;
    const [delivery] = await deliveriesOf(a, id);
    expect((await a.admin.post(`/api/webhooks/redeliver/${delivery.id}`)).status).toBe(409);
    const enabled = await a.admin.put(`/api/webhooks/update-webhook/${id}`, { url: `${receiver().url}?down`, events: ['work-order.created'], enabled: true });
    expect(enabled.body.webhook).toMatchObject({ enabled: true, failingSince: null, disabledReason: null });
  });

  it('shows a secret once: in the create answer, never in a list, update or delete; rotation answers the new one once', async () => {
    const added = await a.admin.post('/api/webhooks/add-webhook', { url: `${receiver().url}?once`, events: ['work-order.created'] });
    expect(added.status).toBe(201);
    const { id, secret } = added.body.webhook;
    expect(secret).toMatch(/^whsec_/);
    // the create answer's list holds no secret either
    expect(JSON.stringify(added.body.webhooks)).not.toContain(secret);
    const listed = await a.admin.get('/api/webhooks/list-webhooks');
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    const mine = listed.body.webhooks.find((w: { id: number }) => w.id === id);
    expect(mine).not.toHaveProperty('secret');
    expect(mine.secretHint).toBe(secret.slice(0, 10));
    const updated = await a.admin.put(`/api/webhooks/update-webhook/${id}`, { url: `${receiver().url}?once`, events: ['work-order.created'], enabled: true });
    expect(updated.status).toBe(200);
    expect(JSON.stringify(updated.body)).not.toContain(secret);

    const rotated = await a.admin.post(`/api/webhooks/rotate-webhook-secret/${id}`);
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.webhook.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    expect(rotated.body.webhook).toMatchObject({ id, secretHint: fresh.slice(0, 10) });
    const after = await a.admin.get('/api/webhooks/list-webhooks');
    expect(JSON.stringify(after.body)).not.toContain(fresh);
    // The next delivery is signed with the new secret only.
    await a.admin.post('/api/work-orders/add-work-order', workOrder('Rotated one'));
    const got = () => receiver().received.filter((r) => r.url.endsWith('?once') && JSON.parse(r.body).data?.title === 'Rotated one');
    await until(() => got().length === 1);
    const headers = got()[0].headers as Record<string, string>;
    expect(new Webhook(fresh).verify(got()[0].body, headers)).toMatchObject({ type: 'work-order.created' });
    expect(() => new Webhook(secret).verify(got()[0].body, headers)).toThrow();
    const deleted = await a.admin.del(`/api/webhooks/delete-webhook/${id}`);
    expect(JSON.stringify(deleted.body)).not.toContain(fresh);
  });

  it("another organisation cannot rotate an endpoint's secret (404, the secret unchanged); managers are refused", async () => {
    const added = await a.admin.post('/api/webhooks/add-webhook', { url: `${receiver().url}?rot-iso`, events: ['quotation.accepted'] });
    const { id, secret } = added.body.webhook;
    const secretOf = async () =>
      (
        await withTenant(t.database.db, a.orgId, (tx) =>
          tx
            .select({ secret: webhookEndpoints.secret })
            .from(webhookEndpoints)
            .where(and(eq(webhookEndpoints.orgId, a.orgId), eq(webhookEndpoints.id, id))),
        )
      )[0].secret;
    // B's ids are its own: A's id is either none of B's (404) or one of B's own endpoints, never A's.
    const far = await b.admin.post(`/api/webhooks/rotate-webhook-secret/${id + 1000}`);
    expect(far.status).toBe(404);
    expect(far.body).toEqual({ error: expect.any(String) });
    const same = await b.admin.post(`/api/webhooks/rotate-webhook-secret/${id}`);
    if (same.status === 200) expect(same.body.webhook.url).not.toContain('?rot-iso');
    else expect(same.status).toBe(404);
    expect((await (await a.as('manager')).post(`/api/webhooks/rotate-webhook-secret/${id}`)).status).toBe(403);
    expect(await secretOf()).toBe(secret);
  });

  it('work order events carry the order as the API shows it (number, priority, assignees, updatedAt); updated and assigned say what changed', async () => {
    const c = await createOrg(t, 'Gamma');
    const events = ['work-order.created', 'work-order.updated', 'work-order.assigned', 'work-order.status-changed', 'work-order.completed'];
    expect((await c.admin.post('/api/webhooks/add-webhook', { url: `${receiver().url}?wo-shape`, events })).status).toBe(201);
    const got = (type: string) => eventsAt('?wo-shape', type);
    const wanda = await c.as('worker', { firstName: 'Wanda' });
    // No priority given: the API shows medium, and so does the event.
    const added = await c.admin.post('/api/work-orders/add-work-order', { title: 'Shape one', assignees: [wanda.userId] });
    expect(added.status).toBe(201);
    const shown = added.body.workOrder;
    expect(shown).toMatchObject({ priority: 'medium', workOrderId: expect.stringMatching(/^WO-/), assignees: [{ id: wanda.userId, firstName: 'Wanda' }] });
    await until(() => got('work-order.created').length === 1 && got('work-order.assigned').length === 1);
    expect(got('work-order.created')[0].data).toEqual(shown);
    expect(got('work-order.assigned')[0].data).toEqual({ ...shown, added: [wanda.userId], removed: [] });

    const otto = await c.as('worker', { firstName: 'Otto' });
    const upd = await c.admin.put(`/api/work-orders/update-work-order/${shown.id}`, {
      title: 'Shape two',
      priority: 'high',
      assignees: [otto.userId],
      updatedAt: shown.updatedAt,
    });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    await until(() => got('work-order.updated').length === 1 && got('work-order.assigned').length === 2);
    const updated = got('work-order.updated')[0].data;
    expect(updated).toEqual({
      ...upd.body.workOrder,
      changes: expect.objectContaining({ title: { from: 'Shape one', to: 'Shape two' }, priority: { from: 'medium', to: 'high' } }),
    });
    expect(got('work-order.assigned')[1].data).toEqual({ ...upd.body.workOrder, added: [otto.userId], removed: [wanda.userId] });

    const done = await c.admin.put(`/api/work-orders/update-status/${shown.id}`, { status: 'completed' });
    await until(() => got('work-order.status-changed').length === 1 && got('work-order.completed').length === 1);
    expect(got('work-order.status-changed')[0].data).toEqual({ ...done.body.workOrder, from: 'assigned', to: 'completed' });
    expect(got('work-order.completed')[0].data).toEqual(done.body.workOrder);
  });

  it('announces maintenance requests created and updated, and contractor shares created, used and revoked', async () => {
    const c = await createOrg(t, 'Delta');
    const events = [
      'maintenance-request.created',
      'maintenance-request.updated',
      'work-order-share.created',
      'work-order-share.revoked',
      'work-order-share.contractor-updated',
    ];
    expect((await c.admin.post('/api/webhooks/add-webhook', { url: `${receiver().url}?mr-share`, events })).status).toBe(201);
    const got = (type: string) => eventsAt('?mr-share', type);

    const refs = await catalogue(t, c.orgId, 'D1');
    const mr = await c.admin.post('/api/maintenance-requests/add-maintenance-request', correctiveRequest(refs));
    expect(mr.status, JSON.stringify(mr.body)).toBe(201);
    const mrId = mr.body.maintenanceRequest.id;
    const upd = await c.admin.put(`/api/maintenance-requests/update-maintenance-request/${mrId}`, correctiveRequest(refs, { title: 'Belt slipping (line 2)' }));
    expect(upd.status).toBe(200);
    const state = await c.admin.put(`/api/maintenance-requests/update-state/${mrId}`, { state: 'approved' });
    expect(state.status).toBe(200);
    await until(() => got('maintenance-request.created').length === 1 && got('maintenance-request.updated').length === 2);
    expect(got('maintenance-request.created')[0].data).toEqual(mr.body.maintenanceRequest);
    // the queue may deliver the two in either order
    const updates = got('maintenance-request.updated').map((b) => b.data);
    const approved = updates.find((d) => d.changes.state);
    const edited = updates.find((d) => !d.changes.state);
    expect(edited).toEqual({
      ...upd.body.maintenanceRequest,
      changes: expect.objectContaining({ title: { from: 'Conveyor belt slipping', to: 'Belt slipping (line 2)' } }),
    });
    expect(approved).toEqual({ ...state.body.maintenanceRequest, changes: { state: { from: 'new', to: 'approved' } } });

    const order = await c.admin.post('/api/work-orders/add-work-order', { title: 'Chiller service' });
    const shared = await c.admin.post('/api/shared-work-orders/create-share', {
      workOrderId: order.body.workOrder.id,
      contractorName: 'Coolair Ltd',
      email: 'tech@coolair.example.com',
    });
    expect(shared.status, JSON.stringify(shared.body)).toBe(201);
    const token = new URL(shared.body.link).searchParams.get('token')!;
    await until(() => got('work-order-share.created').length === 1);
    const created = got('work-order-share.created')[0].data;
    expect(created).toEqual(shared.body.share);
    // the link's token never leaves in an event
    expect(JSON.stringify(got('work-order-share.created'))).not.toContain(token);
    expect((await c.anonymous.post(`/api/shared-work-orders/add-shared-comment?token=${encodeURIComponent(token)}`, { body: 'On site Monday' })).status).toBe(
      201,
    );
    await until(() => got('work-order-share.contractor-updated').length === 1);
    expect(got('work-order-share.contractor-updated')[0].data).toMatchObject({
      id: created.id,
      workOrderId: order.body.workOrder.id,
      state: 'in-progress',
      change: 'commented',
    });
    const revoked = await c.admin.put(`/api/shared-work-orders/revoke-share/${created.id}`);
    await until(() => got('work-order-share.revoked').length === 1);
    expect(got('work-order-share.revoked')[0].data).toEqual(revoked.body.share);
    // Another organisation's endpoints hear none of it.
    expect(receiver().received.filter((r) => !r.url.endsWith('?mr-share') && r.body.includes('Coolair Ltd'))).toEqual([]);
  });

  it('refuses bad URLs and secrets with the messages of the form', async () => {
    const bad = await a.admin.post('/api/webhooks/add-webhook', { url: 'ftp://example.com', events: ['work-order.created'], secret: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.issues.map((i: { path: string }) => i.path).sort()).toEqual(['secret', 'url']);
    expect((await a.admin.post('/api/webhooks/add-webhook', { url: 'https://u:p@example.com', events: ['work-order.created'] })).status).toBe(400);
    expect((await a.admin.post('/api/webhooks/add-webhook', { url: 'https://example.com', events: [] })).status).toBe(400);
  });
});

describe('server-side request forgery', () => {
  it('refuses private, loopback, link-local, unique-local and mapped addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      'ff02::1',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
  });

  it('checks the resolved address at connect time (a name for loopback is refused)', async () => {
    const err = await new Promise<Error | null>((resolve) => guardedLookup('localhost', { all: true }, (e) => resolve(e)));
    expect(err?.message).toMatch(/private or reserved/);
    // The admin reads this error: it never says which address inside our network the name gave.
    expect(err?.message).not.toMatch(/127\.0\.0\.1|::1/);
    await expect(
      postJson(receiver().url.replace('127.0.0.1', 'localhost'), '{}', { headers: {}, timeoutMs: 2000, maxResponseBytes: 1000, allowPrivate: false }),
    ).rejects.toThrow(/private or reserved/);
    await expect(postJson(receiver().url, '{}', { headers: {}, timeoutMs: 2000, maxResponseBytes: 1000, allowPrivate: false })).rejects.toThrow(
      /private or reserved/,
    );
    await expect(postJson('http://[::ffff:127.0.0.1]:1/', '{}', { headers: {}, timeoutMs: 2000, maxResponseBytes: 1000, allowPrivate: false })).rejects.toThrow(
      /private or reserved/,
    );
  });

  it('a delivery to a private address is refused and recorded, the receiver gets nothing', async () => {
    // The delivery's try is run here with private addresses refused (any test app on the shared database could
    // fetch a queued job, and test apps allow them); its retry is queued an hour away.
    const org = await createOrg(t);
    const added = await org.admin.post('/api/webhooks/add-webhook', { url: `${receiver().url}?ssrf`, events: ['work-order.created'] });
    const webhookId = added.body.webhook.id;
    await withTenant(t.database.db, org.orgId, (tx) => tx.update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.orgId, org.orgId)));
    const [row] = await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .insert(webhookDeliveries)
        .values({
          orgId: org.orgId,
          endpointId: webhookId,
          event: 'work-order.created',
          messageId: 'msg_ssrf',
          payload: { type: 'work-order.created', data: { title: 'Never sent' } },
          windowStart: new Date(),
        })
        .returning(),
    );
    await withTenant(t.database.db, org.orgId, (tx) => tx.update(webhookEndpoints).set({ enabled: true }).where(eq(webhookEndpoints.orgId, org.orgId)));
    await deliverWebhook(
      t.database.db,
      { orgId: org.orgId, deliveryId: row.id, seq: 1 },
      { settings: { ...settings, allowPrivate: false, retryBaseSeconds: 3600 }, mailer: t.app.deps.mailer },
    );
    const [delivery] = (await org.admin.get(`/api/webhooks/list-deliveries?webhookId=${webhookId}`)).body.deliveries;
    expect(delivery).toMatchObject({ status: 'retrying', responseCode: null, attempts: 1 });
    expect(delivery.lastError).toMatch(/private or reserved/);
    expect(new Date(delivery.nextAttemptAt).getTime()).toBeGreaterThan(Date.now() + 3000_000);
    expect(receiver().received.filter((r) => r.body.includes('Never sent'))).toEqual([]);
  });

  it('stops reading an answer past the size cap and gives up after the timeout', async () => {
    const big = createServer((_req, res) => {
      res.write(Buffer.alloc(200_000, 97));
      res.end();
    });
    const slow = createServer(() => {});
    await new Promise<void>((r) => big.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    try {
      const res = await postJson(`http://127.0.0.1:${(big.address() as AddressInfo).port}/`, '{}', {
        headers: {},
        timeoutMs: 2000,
        maxResponseBytes: 10_000,
        allowPrivate: true,
      });
      expect(res.status).toBe(200);
      expect(res.body.length).toBe(1024);
      await expect(
        postJson(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/`, '{}', {
          headers: {},
          timeoutMs: 300,
          maxResponseBytes: 1000,
          allowPrivate: true,
        }),
      ).rejects.toThrow(/Timed out/);
    } finally {
      big.closeAllConnections();
      slow.closeAllConnections();
      big.close();
      slow.close();
    }
  });
});
