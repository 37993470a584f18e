import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { withoutTenant, withTenant } from '../../server/db/client';
import { mailOutbox, maintenanceRequests, portalCodes, portalRequests, webhookDeliveries, workOrders } from '../../server/db/schema';
import { client, createOrg, createTestApp, useTestAppWith, type TestOrg } from '../../server/test/harness';
import { orgRows } from '../../server/test/sql';
import { setClockOffset } from '../../server/clock';
import { catalogue } from '../maintenance-requests/test-fixtures';
import { inDays } from '../commercial-documents/test-fixtures';
import { qrTextsOfPdf } from './test-qr';
import { PORTAL_SETTINGS } from './test-fixtures';
import { publicOrigin } from '../../server/env';
import { PORTAL_LIMITS } from './request-portal.values';
import { maintenanceOrder, startSmtpServer, until } from '../../server/test/fixtures';

// A real SMTP server: the requesters' mails go through the outbox and its job, as in production.
const [t, smtp] = useTestAppWith(startSmtpServer, (mailbox) => [{ smtpUrl: mailbox.url }]);
let png: Buffer;
beforeAll(async () => {
  const { default: sharp } = await import('sharp');
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .png()
    .toBuffer();
});

/** An address of this run only (the PostgreSQL pass keeps the outbox of earlier runs). */
const RUN = Math.random().toString(36).slice(2, 8);
const addr = (name: string) => `${name}-${RUN}@example.com`;
/** Tests that wait for mails through the outbox's job (a loaded machine takes its time). */
const MAIL_TEST_MS = 180_000;
/** Waits for a mail to `to` whose text says `words`, received by the SMTP server. */
const received = (to: string, words: string) =>
  until(
    () =>
      smtp()
        .received(to)
        .some((m) => m.text.includes(words)),
    60_000,
  ).catch((err: Error) => {
    throw new Error(
      `${err.message}: no mail to ${to} saying "${words}"; received: ${JSON.stringify(
        smtp()
          .received(to)
          .map((m) => m.text.slice(-300)),
      )}`,
    );
  });

const B = '/api/portal';
const photo = () => ({ field: 'photos', name: 'leak.png', bytes: png, type: 'image/png' });

async function setup(name = 'Org') {
  const org = await createOrg(t, name);
  const refs = await catalogue(t, org.orgId, name.slice(0, 1));
  return { org, ...refs };
}

/** setup's organisation with its request portal open (PORTAL_SETTINGS). */
async function setupWithPortal(name: string) {
  const made = await setup(name);
  await made.org.admin.put(`${B}/settings`, PORTAL_SETTINGS);
  return made;
}

/** The code token of an asset, made through the label route (as printing does). */
async function codeOf(org: TestOrg, assetId: number) {
  const res = await org.admin.post(`${B}/asset-labels`, { assetIds: [assetId], layout: 'single-large' });
  expect(res.status).toBe(200);
  const [row] = await orgRows(t.database.db, org.orgId, portalCodes, eq(portalCodes.targetId, assetId));
  return row.token;
}

const rowsOf = (org: TestOrg) =>
  withTenant(t.database.db, org.orgId, async (tx) => tx.select().from(portalRequests).where(eq(portalRequests.orgId, org.orgId)).orderBy(portalRequests.id));
const mailsTo = (to: string) => withoutTenant(t.database.db, (tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.to, to)));

async function send(org: TestOrg, fields: Record<string, string>, files = [photo()]) {
  return org.anonymous.upload(`${B}/submit-request`, files, fields);
}

/** A portal's organisation and one request sent to it with a photo: the answer to the requester and the stored row. */
async function sentWithPhoto(name: string, description: string, email: string) {
  const { org, asset } = await setupWithPortal(name);
  const sent = await send(org, { code: await codeOf(org, asset.id), description, urgency: 'high', email });
  expect(sent.status).toBe(201);
  const [row] = await rowsOf(org);
  return { org, sent, row };
}

describe('request portal: the public side', () => {
  it("a new request is announced to the organisation's webhook endpoints (request.received), without the requester's contact", async () => {
    const { org, asset } = await setupWithPortal('Webhooked');
    const hook = await org.admin.post('/api/webhooks/add-webhook', { url: 'https://hooks.example.com/cmms', events: ['request.received'] });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const res = await send(org, { code: await codeOf(org, asset.id), description: 'Belt squeals', urgency: 'low', email: 'op@example.com' });
    expect(res.status).toBe(201);
    const deliveries = await withTenant(t.database.db, org.orgId, (tx) => tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.orgId, org.orgId)));
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ event: 'request.received' });
    expect(deliveries[0].payload).toMatchObject({
      type: 'request.received',
      data: { number: res.body.number, description: 'Belt squeals', urgency: 'low', target: { kind: 'asset', id: asset.id } },
    });
    expect(JSON.stringify(deliveries[0].payload)).not.toContain('op@example.com');
    // No delivery job left trying a host the test does not run.
    expect((await org.admin.del(`/api/webhooks/delete-webhook/${hook.body.webhook.id}`)).status).toBe(200);
  });

  it('is closed (404) until an admin turns it on; unknown codes and other organisations\u2019 codes are the same 404', async () => {
    const { org, asset } = await setup('Alpha');
    const other = await setup('Beta');
    const token = await codeOf(org, asset.id);
    const otherToken = await codeOf(other.org, other.asset.id);
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect((await org.anonymous.get(`${B}/form/${token}`)).status).toBe(404);
    expect((await org.anonymous.get(`${B}/form`)).status).toBe(404);

    const manager = await org.as('manager');
    expect((await manager.put(`${B}/settings`, PORTAL_SETTINGS)).status).toBe(403);
    const saved = await org.admin.put(`${B}/settings`, {
      ...PORTAL_SETTINGS,
      published: [
        { kind: 'asset', id: asset.id },
        { kind: 'work-station', id: 1 },
      ],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.settings.published.map((p: { name: string }) => p.name)).toEqual([asset.name, 'Line 1 A']);

    const form = await org.anonymous.get(`${B}/form/${token}`);
    expect(form.status).toBe(200);
    expect(form.body).toMatchObject({
      welcome: 'Tell us what is wrong',
      fields: { name: 'optional', email: 'required', phone: 'hidden' },
      target: { kind: 'asset', id: asset.id, name: asset.name },
      published: [],
    });
    const general = await org.anonymous.get(`${B}/form`);
    expect(general.body.published).toHaveLength(2);

    const unknown = await org.anonymous.get(`${B}/form/${'x'.repeat(22)}`);
    const foreign = await org.anonymous.get(`${B}/form/${otherToken}`);
    const noOrg = await (await import('../../server/test/harness')).client(t.app, `nosuchorg.${t.config.baseDomain}`).get(`${B}/form/${token}`);
    expect([unknown.status, foreign.status, noOrg.status]).toEqual([404, 404, 404]);
    expect(unknown.body).toEqual(foreign.body);
    // A host of no organisation is refused by the request context before any route (as every route of the app).
  });

  it('takes a request with a photo, mails the status link, and shows the requester only their own request by its token', async () => {
    const { org, asset } = await setup('Gamma');
    const other = await setup('Delta');
    await org.admin.put(`${B}/settings`, PORTAL_SETTINGS);
    await other.org.admin.put(`${B}/settings`, PORTAL_SETTINGS);
    const token = await codeOf(org, asset.id);

    const missing = await send(org, { code: token, description: 'Leaking oil', urgency: 'high' });
    expect(missing.status).toBe(400);
    expect(missing.body.issues?.[0]?.path ?? 'email').toBe('email');

    const res = await send(org, {
      code: token,
      description: 'Leaking oil under the pump',
      urgency: 'high',
      name: 'Sam Operator',
      email: 'Sam@Example.com',
      phone: '+1 555 0100',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ message: 'Request received', number: 'PR-0001' });
    const statusToken: string = res.body.statusToken;
    expect(res.body.statusUrl).toBe(`${publicOrigin(t.config, org.subdomain)}/portal/status/${statusToken}`);
    const [row] = await rowsOf(org);
    expect(row).toMatchObject({
      status: 'received',
      urgency: 'high',
      targetKind: 'asset',
      targetId: asset.id,
      email: 'sam@example.com',
      phone: null,
      name: 'Sam Operator',
    });
    expect(row.statusTokenHash).not.toContain(statusToken);
    expect(row.photos).toHaveLength(1);
    expect(row.photos[0]).toMatch(/^\/uploads\/org-\d+\/[0-9a-f-]{36}\.webp$/);
    // The PostgreSQL pass keeps the outbox of earlier runs: this request's mail is the one with its link.
    const mails = (await mailsTo('sam@example.com')).filter((m) => m.text.includes(statusToken));
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(`/portal/status/${statusToken}`);

    const status = await org.anonymous.get(`${B}/status/${statusToken}`);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      number: 'PR-0001',
      status: 'received',
      description: 'Leaking oil under the pump',
      target: { name: asset.name },
      replies: [],
      canComment: true,
    });
    expect(status.body.photos[0]).toMatch(/\?exp=\d+&sig=/);
    expect(JSON.stringify(status.body)).not.toContain('sam@example.com');
    // The signed photo is served to the requester.
    expect((await org.anonymous.get(status.body.photos[0])).status).toBe(200);

    // The token on another organisation's host, and a made-up token: the same 404.
    expect((await other.org.anonymous.get(`${B}/status/${statusToken}`)).status).toBe(404);
    expect((await org.anonymous.get(`${B}/status/${statusToken.slice(0, -2)}AA`)).status).toBe(404);

    // Nothing else of the organisation is readable without a session.
    for (const url of [`${B}/list-requests`, `${B}/get-request/1`, `${B}/settings`, `${B}/new-requests-count`, `${B}/resolve-code/${token}`])
      expect((await org.anonymous.get(url)).status).toBe(401);

    const comment = await org.anonymous.upload(`${B}/status/${statusToken}/add-comment`, [photo()], { body: 'It is getting worse' });
    expect(comment.status).toBe(201);
    expect(comment.body.status.replies).toMatchObject([{ author: 'requester', body: 'It is getting worse' }]);
    expect(comment.body.status.replies[0].photos[0]).toMatch(/\?exp=/);
    expect((await other.org.anonymous.upload(`${B}/status/${statusToken}/add-comment`, [], { body: 'x' })).status).toBe(404);

    const count = await org.admin.get(`${B}/new-requests-count`);
    expect(count.body).toEqual({ count: 1 });
    expect((await other.org.admin.get(`${B}/new-requests-count`)).body).toEqual({ count: 0 });
  });

  it('keeps nothing from a filled honeypot, refuses wrong files and too many photos, and a general portal needs a published place', async () => {
    const { org, asset } = await setup('Eps');
    await org.admin.put(`${B}/settings`, { ...PORTAL_SETTINGS, emailField: 'optional', published: [{ kind: 'asset', id: asset.id }] });
    const bot = await send(org, { where: `asset:${asset.id}`, description: 'Buy cheap pills', website: 'http://spam.example' });
    expect(bot.status).toBe(201);
    expect(bot.body.statusToken).toBeUndefined();
    expect(await rowsOf(org)).toHaveLength(0);

    expect((await send(org, { description: 'No place' }, [])).status).toBe(400);
    expect((await send(org, { where: 'asset:999', description: 'Unpublished place' }, [])).status).toBe(400);
    const notImage = await send(org, { where: `asset:${asset.id}`, description: 'x' }, [
      { field: 'photos', name: 'a.png', bytes: Buffer.from('not an image'), type: 'image/png' },
    ]);
    expect(notImage.status).toBe(415);
    const six = Array.from({ length: PORTAL_LIMITS.photosPerRequest + 1 }, photo);
    expect((await send(org, { where: `asset:${asset.id}`, description: 'x' }, six)).status).toBe(413);
    const long = await send(org, { where: `asset:${asset.id}`, description: 'x'.repeat(PORTAL_LIMITS.descriptionMax + 1) }, []);
    expect(long.status).toBe(400);
    expect(await rowsOf(org)).toHaveLength(0);
    const ok = await send(org, { where: `asset:${asset.id}`, description: 'Door stuck' }, []);
    expect(ok.status).toBe(201);
  });

  it('a full inbox (open new requests at the cap) refuses more until triage', async () => {
    const { org, asset } = await setup('Zeta');
    await org.admin.put(`${B}/settings`, { ...PORTAL_SETTINGS, emailField: 'optional', published: [{ kind: 'asset', id: asset.id }] });
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx.execute(sql`insert into portal_requests (org_id, description, urgency, status_token_hash)
        select ${org.orgId}, 'flood', 'normal', md5(g::text) from generate_series(1, ${PORTAL_LIMITS.openPerOrganization}) g`),
    );
    const full = await send(org, { where: `asset:${asset.id}`, description: 'One more' }, []);
    expect(full.status).toBe(503);
    await org.admin.post(`${B}/decline-request/1`, { reason: 'Test flood' });
    expect((await send(org, { where: `asset:${asset.id}`, description: 'One more' }, [])).status).toBe(201);
  });
});

describe('request portal: rate limits', () => {
  it('an address has its own limit (429); past its share of the organisation\u2019s budget, or past the budget, requests are held for review, never refused', async () => {
    // Budget 3 an hour: an address's share is 1 (PORTAL_LIMITS.addressShare), its own limit 2.
    const limited = await createTestApp({
      routeLimits: { ...t.config.routeLimits, portalSubmit: { max: 2, windowSeconds: 60 }, portalOrgSubmit: { max: 3, windowSeconds: 60 } },
    });
    try {
      const org = await createOrg(limited, 'Limited');
      const other = await createOrg(limited, 'Unlimited');
      const refs = await catalogue(limited, org.orgId, 'L');
      await org.admin.put(`${B}/settings`, { ...PORTAL_SETTINGS, emailField: 'optional', published: [{ kind: 'asset', id: refs.asset.id }] });
      await other.admin.put(`${B}/settings`, { ...PORTAL_SETTINGS, emailField: 'optional' });
      const net = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const at = (to: TestOrg, host: string, email?: string) =>
        limited.app.inject({
          method: 'POST',
          url: `${B}/submit-request`,
          headers: { host: to.host },
          payload: { ...(to === org ? { where: `asset:${refs.asset.id}` } : {}), description: `Noise from ${host}`, ...(email ? { email } : {}) },
          remoteAddress: `${net}.${host}`,
        });
      const [a1, a2, a3, b1, c1, d1] = [addr('a1'), addr('a2'), addr('a3'), addr('b1'), addr('c1'), addr('d1')];
      expect((await at(org, '1', a1)).statusCode).toBe(201);
      // Past the address's share: taken, held.
      const second = await at(org, '1', a2);
      expect(second.statusCode).toBe(201);
      expect(second.json()).toMatchObject({ message: 'Request received', statusToken: expect.any(String) });
      // Past the address's own limit: refused.
      const third = await at(org, '1', a3);
      expect(third.statusCode).toBe(429);
      expect(third.headers['retry-after']).toBeDefined();
      // Other addresses: within the budget, then past it: held, not refused.
      expect((await at(org, '2', b1)).statusCode).toBe(201);
      expect((await at(org, '3', c1)).statusCode).toBe(201);
      expect((await at(org, '4', d1)).statusCode).toBe(201);
      // Another organisation's budget is its own.
      expect((await at(other, '4')).statusCode).toBe(201);

      const rows = await withTenant(limited.database.db, org.orgId, (tx) =>
        tx.select().from(portalRequests).where(eq(portalRequests.orgId, org.orgId)).orderBy(portalRequests.id),
      );
      expect(rows.map((x) => [x.email, x.heldAt !== null])).toEqual([
        [a1, false],
        [a2, true],
        [b1, false],
        [c1, false],
        [d1, true],
      ]);
      const [otherRow] = await withTenant(limited.database.db, other.orgId, (tx) =>
        tx.select().from(portalRequests).where(eq(portalRequests.orgId, other.orgId)),
      );
      expect(otherRow.heldAt).toBeNull();
      // Held ones: no mail written to the address given, not in the bell's figure, listed after the new ones, triaged as any.
      expect(await mailsTo(a2)).toEqual([]);
      expect(await mailsTo(d1)).toEqual([]);
      expect(await mailsTo(b1)).toHaveLength(1);
      expect((await org.admin.get(`${B}/new-requests-count`)).body).toEqual({ count: 3 });
      const list = await org.admin.get(`${B}/list-requests`);
      expect(list.body.requests.map((x: { number: string; heldAt: string | null }) => [x.number, x.heldAt !== null])).toEqual([
        ['PR-0004', false],
        ['PR-0003', false],
        ['PR-0001', false],
        ['PR-0005', true],
        ['PR-0002', true],
      ]);
      expect((await org.admin.post(`${B}/decline-request/2`, { reason: 'Spam' })).status).toBe(200);
      expect((await org.admin.post(`${B}/accept-request/5`, { into: 'work-order', title: 'Noise' })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('request portal: the inbox', () => {
  it('accepts into a work order; the order\u2019s status flows back; done closes the link 30 days later', async () => {
    const { org, asset } = await setup('Eta');
    const other = await setup('Theta');
    await org.admin.put(`${B}/settings`, PORTAL_SETTINGS);
    const token = await codeOf(org, asset.id);
    const first = await send(org, { code: token, description: 'Belt slipping', urgency: 'urgent', email: 'ann@example.com' });
    const second = await send(org, { code: token, description: 'Belt noise', urgency: 'normal', email: 'bob@example.com' }, []);
    const manager = await org.as('manager');
    const worker = await org.as('worker');

    const list = await manager.get(`${B}/list-requests`);
    expect(list.status).toBe(200);
    // The export writes its dates in ISO 8601, as every export does.
    const csv = await manager.get('/api/data-transfer/export/portal-requests?columns=number,age');
    expect(csv.status).toBe(200);
    expect(String(csv.body).trim().split('\r\n').slice(1)).toEqual(
      list.body.requests.map((x: { number: string; createdAt: string }) => `${x.number},${new Date(x.createdAt).toISOString()}`),
    );
    expect(list.body.requests.map((x: { number: string }) => x.number)).toEqual(['PR-0002', 'PR-0001']);
    expect(list.body.requests[1].photos[0]).toMatch(/\?exp=/);
    expect(list.body.pagination).toMatchObject({ totalRecords: 2 });
    expect((await worker.get(`${B}/list-requests`)).status).toBe(403);

    // Another organisation: 404 on every id, nothing changes.
    const before = JSON.stringify(await rowsOf(org));
    for (const [url, body] of [
      [`${B}/accept-request/1`, { into: 'work-order', title: 'X' }],
      [`${B}/decline-request/1`, { reason: 'x' }],
      [`${B}/merge-request/2`, { intoId: 1 }],
      [`${B}/reply-request/1`, { body: 'x' }],
    ] as const) {
      expect((await other.org.admin.post(url, body)).status, url).toBe(404);
    }
    expect((await other.org.admin.get(`${B}/get-request/1`)).status).toBe(404);
    expect(JSON.stringify(await rowsOf(org))).toBe(before);

    // The merge picker finds a request by its number, description or requester (issue 46: no typed ids); never
    // the request being merged, one merged already, or another organisation's.
    const picked = async (query: string) =>
      ((await manager.get(`${B}/get-requests-options?${query}`)).body as { value: number; label: string }[]).map((o) => o.value);
    expect((await manager.get(`${B}/get-requests-options?name=slipping&excludeId=2`)).body).toEqual([
      { value: 1, label: expect.stringMatching(/^PR-0001 · .*Belt slipping$/) },
    ]);
    expect(await picked('name=PR-0002')).toEqual([2]);
    expect(await picked('name=2')).toEqual([2]);
    expect(await picked('name=bob%40example')).toEqual([2]);
    expect(await picked('name=belt')).toEqual([2, 1]);
    expect(await picked('excludeId=2')).toEqual([1]);
    expect(await picked('name=100%25')).toEqual([]);
    expect((await other.org.admin.get(`${B}/get-requests-options?name=belt`)).body).toEqual([]);
    expect((await worker.get(`${B}/get-requests-options`)).status).toBe(403);

    const merged = await manager.post(`${B}/merge-request/2`, { intoId: 1 });
    expect(merged.status).toBe(200);
    expect(merged.body.request).toMatchObject({ mergedIntoId: 1, status: 'received' });
    expect(await picked('')).toEqual([1]);

    const accepted = await manager.post(`${B}/accept-request/1`, {
      into: 'work-order',
      title: 'Replace conveyor belt',
      priority: 'high',
      assignees: [worker.userId],
    });
    expect(accepted.status).toBe(200);
    const workOrderId = accepted.body.workOrderId;
    expect(accepted.body.request).toMatchObject({ status: 'accepted', workOrderId });
    expect((await manager.post(`${B}/accept-request/1`, { into: 'work-order', title: 'Again' })).status).toBe(409);
    const [order] = await orgRows(t.database.db, org.orgId, workOrders, eq(workOrders.id, workOrderId));
    expect(order).toMatchObject({ title: 'Replace conveyor belt', priority: 'high', assetId: asset.id });
    expect(order.instructions).toContain('Belt slipping');
    expect(order.instructions).toContain('PR-0001');

    const statusOf = async (res: { body: { statusToken: string } }) => (await org.anonymous.get(`${B}/status/${res.body.statusToken}`)).body;
    expect((await statusOf(first)).status).toBe('accepted');
    expect((await statusOf(second)).status).toBe('accepted');
    expect((await mailsTo('bob@example.com')).map((m) => m.subject).join('|')).toContain('accepted');

    const reply = await manager.post(`${B}/reply-request/1`, { body: 'A technician comes tomorrow' });
    expect(reply.status).toBe(200);
    expect((await statusOf(first)).replies).toMatchObject([{ author: 'team', body: 'A technician comes tomorrow' }]);
    // Mailed as a reply, not as a status.
    const replied = (await mailsTo('ann@example.com')).find((m) => m.text.includes('A technician comes tomorrow'));
    expect(replied?.subject).toMatch(/: a reply to your request PR-0001$/);

    await worker.put(`/api/work-orders/update-status/${workOrderId}`, { status: 'in-progress' });
    expect((await statusOf(first)).status).toBe('in-progress');
    const done = await worker.put(`/api/work-orders/update-status/${workOrderId}`, { status: 'completed' });
    expect(done.status).toBe(200);
    const closed = await statusOf(first);
    expect(closed).toMatchObject({ status: 'done' });
    expect(closed.expiresAt).not.toBeNull();
    expect((await statusOf(second)).status).toBe('done');

    // 29 days on the link works; 31 days on it is the same 404 as an unknown token.
    try {
      setClockOffset(29 * 86_400_000);
      expect((await org.anonymous.get(`${B}/status/${first.body.statusToken}`)).status).toBe(200);
      setClockOffset(31 * 86_400_000);
      expect((await org.anonymous.get(`${B}/status/${first.body.statusToken}`)).status).toBe(404);
      expect((await org.anonymous.upload(`${B}/status/${first.body.statusToken}/add-comment`, [], { body: 'hello?' })).status).toBe(404);
    } finally {
      setClockOffset(0);
    }
  });

  it('a work order deleted after accepting: its requests are declined (the work will not be done), not left accepted', async () => {
    const { org, asset } = await setupWithPortal('Iota');
    const sent = await send(org, { code: await codeOf(org, asset.id), description: 'Door sticks', urgency: 'normal', email: 'cy@example.com' }, []);
    const accepted = await org.admin.post(`${B}/accept-request/1`, { into: 'work-order', title: 'Fix the door' });
    expect(accepted.status).toBe(200);
    expect((await org.admin.del(`/api/work-orders/delete-work-order/${accepted.body.workOrderId}`)).status).toBe(200);
    const status = (await org.anonymous.get(`${B}/status/${sent.body.statusToken}`)).body;
    expect(status).toMatchObject({ status: 'declined' });
    expect(status.expiresAt).not.toBeNull();
  });

  it('accepts into a maintenance request with the photos, and declines with a reason the requester is told', async () => {
    const { org, asset } = await setupWithPortal('Iota');
    const token = await codeOf(org, asset.id);
    const first = await send(org, { code: token, description: 'Pump vibrates', urgency: 'high', email: 'cy@example.com' });
    const second = await send(org, { code: token, description: 'Lights off', urgency: 'low', email: 'di@example.com' }, []);

    const accepted = await org.admin.post(`${B}/accept-request/1`, { into: 'maintenance-request', title: 'Pump vibration', priority: 'high' });
    expect(accepted.status).toBe(200);
    const [mr] = await orgRows(t.database.db, org.orgId, maintenanceRequests, eq(maintenanceRequests.id, accepted.body.maintenanceRequestId));
    expect(mr).toMatchObject({ title: 'Pump vibration', assetId: asset.id, maintenanceType: 'corrective', urgencyLevel: 'high' });
    expect(mr.images).toHaveLength(1);
    expect((await org.anonymous.get(`${B}/status/${first.body.statusToken}`)).body.status).toBe('accepted');

    expect((await org.admin.post(`${B}/decline-request/2`, { reason: '' })).status).toBe(400);
    const declined = await org.admin.post(`${B}/decline-request/2`, { reason: 'Not our building' });
    expect(declined.status).toBe(200);
    const status = (await org.anonymous.get(`${B}/status/${second.body.statusToken}`)).body;
    expect(status).toMatchObject({ status: 'declined', declineReason: 'Not our building' });
    const mails = await mailsTo('di@example.com');
    expect(mails.map((m) => m.text).join('\n')).toContain('Not our building');
    expect((await org.admin.get(`${B}/new-requests-count`)).body).toEqual({ count: 0 });
  });
});

describe('request portal: labels and codes', () => {
  it('prints a label PDF whose QR codes read back as the organisation\u2019s /r/<token> URLs, Arabic names included', async () => {
    const { org, asset, asset2 } = await setup('Kappa');
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx.execute(sql`update assets set name = 'مضخة الغلاية 2', asset_code = 'PMP-0002' where org_id = ${org.orgId} and id = ${asset2.id}`),
    );
    const res = await org.admin.post(`${B}/asset-labels`, { assetIds: [asset.id, asset2.id], layout: 'sheet-24' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = (
      await t.app.inject({
        method: 'POST',
        url: `${B}/asset-labels`,
        headers: { host: org.host, authorization: `Bearer ${org.admin.token}` },
        payload: { assetIds: [asset.id, asset2.id], layout: 'sheet-24' },
      })
    ).rawPayload;
    const texts = await qrTextsOfPdf(pdf);
    const codes = await withTenant(t.database.db, org.orgId, (tx) =>
      tx.select().from(portalCodes).where(eq(portalCodes.orgId, org.orgId)).orderBy(portalCodes.targetId),
    );
    expect(codes).toHaveLength(2);
    expect(texts.sort()).toEqual(codes.map((c) => `${publicOrigin(t.config, org.subdomain)}/r/${c.token}`).sort());
    // The Arabic font is embedded for the Arabic name.
    expect(pdf.toString('latin1')).toMatch(/NotoSansArabic/);

    // Signed in: the code resolves to its asset (the scanner, /r/<token>); another organisation gets 404.
    const worker = await org.as('worker');
    const resolved = await worker.get(`${B}/resolve-code/${codes[0].token}`);
    expect(resolved.body).toEqual({ target: { kind: 'asset', id: asset.id, name: asset.name, number: null } });
    const other = await createOrg(t, 'Lambda');
    expect((await other.admin.get(`${B}/resolve-code/${codes[0].token}`)).status).toBe(404);
    expect((await other.admin.post(`${B}/asset-labels`, { assetIds: [asset.id] })).status).toBe(404);
  });
});

describe('request portal: the work flows back to the requester', () => {
  /** A request by a code with an e-mail, accepted into `into`; its status token and the link made. */
  async function accepted(org: TestOrg, assetId: number, email: string, into: 'work-order' | 'maintenance-request') {
    const sent = await send(org, { code: await codeOf(org, assetId), description: `Problem for ${email}`, urgency: 'normal', email }, []);
    expect(sent.status).toBe(201);
    const [row] = (await rowsOf(org)).filter((x) => x.email === email);
    const res = await org.admin.post(`${B}/accept-request/${row.id}`, { into, title: `Fix for ${email}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const statusOf = async () => (await org.anonymous.get(`${B}/status/${sent.body.statusToken}`)).body;
    return { id: row.id as number, workOrderId: res.body.workOrderId as number, maintenanceRequestId: res.body.maintenanceRequestId as number, statusOf };
  }

  /** The status link in the newest mail to `to` whose text says `words` (outbox), and what it opens. */
  async function linkIn(org: TestOrg, to: string, words: string) {
    const mail = (await mailsTo(to)).filter((m) => m.text.includes(words)).at(-1);
    expect(mail, `a mail to ${to} saying "${words}"`).toBeDefined();
    const link = /https?:\/\/[^\s"<>]+\/portal\/status\/([A-Za-z0-9_-]+)/.exec(mail!.text);
    expect(link?.[0], mail!.text).toBeDefined();
    expect(mail!.html).toContain(`href="${link![0]}"`);
    const opened = await org.anonymous.get(`${B}/status/${link![1]}`);
    return { url: link![0], status: opened.status, body: opened.body };
  }

  it('every requester mail carries a working status link: "accepted", a later status, a reply and a merge (issue 45)', async () => {
    const { org, asset } = await setupWithPortal('Linked');
    const ivy = addr('ivy');
    const req = await accepted(org, asset.id, ivy, 'work-order');
    const acceptedLink = await linkIn(org, ivy, 'Your request is now accepted.');
    expect(acceptedLink.url.startsWith(`${publicOrigin(t.config, org.subdomain)}/portal/status/`)).toBe(true);
    expect(acceptedLink).toMatchObject({ status: 200, body: { number: 'PR-0001', status: 'accepted' } });
    // Mailed deep in the work order's own transaction (the flow's registered mailer): the same link.
    expect((await org.admin.put(`/api/work-orders/update-status/${req.workOrderId}`, { status: 'in-progress' })).status).toBe(200);
    expect(await linkIn(org, ivy, 'Your request is now in progress.')).toMatchObject({ url: acceptedLink.url, status: 200, body: { status: 'in-progress' } });
    expect((await org.admin.post(`${B}/reply-request/${req.id}`, { body: 'On our way' })).status).toBe(200);
    expect(await linkIn(org, ivy, 'On our way')).toMatchObject({ url: acceptedLink.url, status: 200 });
    // A duplicate merged into it: its own link, to its own page.
    const max = addr('max');
    expect((await send(org, { code: await codeOf(org, asset.id), description: 'Same problem', urgency: 'normal', email: max }, [])).status).toBe(201);
    const [dup] = (await rowsOf(org)).filter((x) => x.email === max);
    expect((await org.admin.post(`${B}/merge-request/${dup.id}`, { intoId: req.id })).status).toBe(200);
    const merged = await linkIn(org, max, 'Your request is now');
    expect(merged.url).not.toBe(acceptedLink.url);
    expect(merged).toMatchObject({ status: 200, body: { number: 'PR-0002', status: 'in-progress' } });
    // Only the hash is stored, as before.
    expect(JSON.stringify(await rowsOf(org))).not.toContain(acceptedLink.url.split('/').at(-1));
  });

  it(
    "mails the requester (real SMTP) when the work order's own status changes, and not when the organisation turned it off",
    async () => {
      const { org, asset } = await setupWithPortal('Mu');
      const ann = addr('ann');
      const req = await accepted(org, asset.id, ann, 'work-order');
      await received(ann, 'Your request is now accepted.');

      expect((await org.admin.put(`/api/work-orders/update-status/${req.workOrderId}`, { status: 'in-progress' })).status).toBe(200);
      expect((await req.statusOf()).status).toBe('in-progress');
      await received(ann, 'Your request is now in progress.');
      expect((await org.admin.put(`/api/work-orders/update-status/${req.workOrderId}`, { status: 'completed' })).status).toBe(200);
      await received(ann, 'Your request is now done.');
      // The same status twice tells nothing more.
      const count = (await mailsTo(ann)).length;
      await org.admin.put(`/api/work-orders/update-status/${req.workOrderId}`, { status: 'completed' });
      expect(await mailsTo(ann)).toHaveLength(count);

      // Turned off: the page still follows, no mail is written.
      await org.admin.put(`${B}/settings`, { ...PORTAL_SETTINGS, notifyRequester: false });
      const bo = addr('bo');
      const quiet = await accepted(org, asset.id, bo, 'work-order');
      expect((await org.admin.put(`/api/work-orders/update-status/${quiet.workOrderId}`, { status: 'cancelled' })).status).toBe(200);
      expect(await quiet.statusOf()).toMatchObject({ status: 'declined', declineReason: 'The work was cancelled' });
      // (Only the status link's own mail, which the requester needs whatever the setting.)
      expect((await mailsTo(bo)).map((m) => m.text).filter((text) => text.includes('Your request'))).toEqual([]);
      expect(await mailsTo(bo)).toHaveLength(1);

      // Another organisation cannot move this order (404), and the requester's page does not change.
      const other = await createOrg(t, 'MuOther');
      const before = JSON.stringify(await rowsOf(org));
      expect((await other.admin.put(`/api/work-orders/update-status/${req.workOrderId}`, { status: 'in-progress' })).status).toBe(404);
      expect(JSON.stringify(await rowsOf(org))).toBe(before);
    },
    MAIL_TEST_MS,
  );

  it(
    'a due date set without a status change shows "scheduled" (and mails it); cleared, "accepted" again',
    async () => {
      const { org, asset } = await setupWithPortal('Nu');
      const cy = addr('cy');
      const req = await accepted(org, asset.id, cy, 'work-order');
      expect((await req.statusOf()).status).toBe('accepted');
      const moved = await org.admin.put(`/api/work-orders/reschedule-work-order/${req.workOrderId}`, { dueDate: inDays(5).slice(0, 10) });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(moved.body.workOrder.status).toBe('assigned');
      expect((await req.statusOf()).status).toBe('scheduled');
      await received(cy, 'Your request is now scheduled.');

      // The drawer's save (update-work-order) without a due date: back to accepted.
      const { workOrder } = (await org.admin.get(`/api/work-orders/get-work-order/${req.workOrderId}`)).body;
      const cleared = await org.admin.put(`/api/work-orders/update-work-order/${req.workOrderId}`, {
        title: workOrder.title,
        priority: workOrder.priority,
        dueDate: null,
        updatedAt: workOrder.updatedAt,
      });
      expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
      expect((await req.statusOf()).status).toBe('accepted');
    },
    MAIL_TEST_MS,
  );

  it(
    "a request accepted into a maintenance request follows the request's state and its maintenance order's status",
    async () => {
      const { org, asset, service, part } = await setup('Xi');
      await org.admin.put(`${B}/settings`, PORTAL_SETTINGS);
      const di = addr('di');
      const req = await accepted(org, asset.id, di, 'maintenance-request');
      const mr = req.maintenanceRequestId;
      expect((await req.statusOf()).status).toBe('accepted');

      expect((await org.admin.put(`/api/maintenance-requests/update-state/${mr}`, { state: 'approved' })).status).toBe(200);
      expect((await req.statusOf()).status).toBe('accepted');
      const { maintenanceRequestId: _mr, ...orderBody } = maintenanceOrder({ asset, service, part }, mr);
      const made = await org.admin.post(`/api/maintenance-requests/create-order/${mr}`, orderBody);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const orderId = made.body.maintenanceOrder.id;
      expect((await req.statusOf()).status).toBe('scheduled');
      await received(di, 'Your request is now scheduled.');

      expect((await org.admin.put(`/api/maintenance-orders/update-status/${orderId}`, { status: 'in-progress' })).status).toBe(200);
      expect((await req.statusOf()).status).toBe('in-progress');
      expect((await org.admin.put(`/api/maintenance-orders/update-status/${orderId}`, { status: 'validate' })).status).toBe(200);
      const done = await req.statusOf();
      expect(done.status).toBe('done');
      expect(done.expiresAt).not.toBeNull();
      await received(di, 'Your request is now done.');

      // Another one is rejected: declined, with the reason the requester reads.
      const ed = addr('ed');
      const second = await accepted(org, asset.id, ed, 'maintenance-request');
      const other = await createOrg(t, 'XiOther');
      expect((await other.admin.put(`/api/maintenance-requests/update-state/${second.maintenanceRequestId}`, { state: 'rejected' })).status).toBe(404);
      expect((await second.statusOf()).status).toBe('accepted');
      expect((await org.admin.put(`/api/maintenance-requests/update-state/${second.maintenanceRequestId}`, { state: 'rejected' })).status).toBe(200);
      expect(await second.statusOf()).toMatchObject({ status: 'declined', declineReason: 'The request was not accepted for maintenance' });
      await received(ed, 'Your request was declined.');
    },
    MAIL_TEST_MS,
  );

  it(
    "the maintenance request gets copies of the photos: deleting it leaves the requester's photos",
    async () => {
      const { org, sent, row } = await sentWithPhoto('Omicron', 'Cracked guard', addr('fa'));
      const res = await org.admin.post(`${B}/accept-request/${row.id}`, { into: 'maintenance-request', title: 'Guard' });
      expect(res.status).toBe(200);
      const [mr] = await orgRows(t.database.db, org.orgId, maintenanceRequests, eq(maintenanceRequests.id, res.body.maintenanceRequestId));
      expect(mr.images).toHaveLength(1);
      expect(mr.images[0].url).not.toBe(row.photos[0]);
      expect(await t.app.deps.storage.read(mr.images[0].url)).toEqual(await t.app.deps.storage.read(row.photos[0]));

      expect((await org.admin.del(`/api/maintenance-requests/delete-maintenance-request/${mr.id}`)).status).toBe(200);
      // The maintenance request's copy goes (after the commit); the requester's photo stays and is still served.
      await until(async () => (await t.app.deps.storage.read(mr.images[0].url)) === null);
      expect(await t.app.deps.storage.read(row.photos[0])).not.toBeNull();
      const status = (await org.anonymous.get(`${B}/status/${sent.body.statusToken}`)).body;
      expect(status.status).toBe('declined');
      expect((await org.anonymous.get(status.photos[0])).status).toBe(200);
    },
    MAIL_TEST_MS,
  );
});

describe('request portal: photos of a request accepted into a work order', () => {
  it(
    "the work order gets copies of the photos: its assigned worker lists and opens them; deleting it leaves the requester's",
    async () => {
      const { org, sent, row } = await sentWithPhoto('Rho', 'Oil on the floor', addr('ga'));
      const worker = await org.as('worker');
      const res = await org.admin.post(`${B}/accept-request/${row.id}`, { into: 'work-order', title: 'Oil leak', assignees: [worker.userId] });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const workOrderId = res.body.workOrderId;

      const photos = await worker.get(`/api/my-work/list-photos/${workOrderId}`);
      expect(photos.status).toBe(200);
      expect(photos.body.photos).toHaveLength(1);
      const [copy] = photos.body.photos;
      expect(copy.url.split('?')[0]).not.toBe(row.photos[0]);
      // Signed for the worker, and served.
      const opened = await worker.get(copy.url);
      expect(opened.status).toBe(200);
      expect(await t.app.deps.storage.read(copy.url.split('?')[0])).toEqual(await t.app.deps.storage.read(row.photos[0]));
      const { workOrder } = (await worker.get(`/api/work-orders/get-work-order/${workOrderId}`)).body;
      expect(workOrder.instructions).toContain("1 photo(s) in this work order's photos");
      // Another organisation sees none of it.
      const other = await createOrg(t, 'RhoOther');
      expect((await other.admin.get(`/api/my-work/list-photos/${workOrderId}`)).status).toBe(404);

      // Deleting the order removes its copy only; the requester's photo stays and is still served.
      expect((await org.admin.del(`/api/work-orders/delete-work-order/${workOrderId}`)).status).toBe(200);
      await until(async () => (await t.app.deps.storage.read(copy.url.split('?')[0])) === null);
      const status = (await org.anonymous.get(`${B}/status/${sent.body.statusToken}`)).body;
      expect((await org.anonymous.get(status.photos[0])).status).toBe(200);
    },
    MAIL_TEST_MS,
  );
});

describe('request portal: links come from the configured base domain', () => {
  it('a forged Host (another port, other case) changes neither the mailed status link nor the QR codes', async () => {
    const { org, asset } = await setupWithPortal('Sigma');
    const forged = `${org.host.toUpperCase()}:6666`;
    const origin = publicOrigin(t.config, org.subdomain);
    expect(origin).toMatch(new RegExp(`^${t.config.publicScheme}://${org.subdomain}\\.${t.config.baseDomain}(:\\d+)?$`));

    const labels = await t.app.inject({
      method: 'POST',
      url: `${B}/asset-labels`,
      headers: { host: forged, authorization: `Bearer ${org.admin.token}` },
      payload: { assetIds: [asset.id], layout: 'sheet-10' },
    });
    expect(labels.statusCode).toBe(200);
    const [token] = (await withTenant(t.database.db, org.orgId, (tx) => tx.select().from(portalCodes).where(eq(portalCodes.orgId, org.orgId)))).map(
      (c) => c.token,
    );
    expect(await qrTextsOfPdf(labels.rawPayload)).toEqual([`${origin}/r/${token}`]);

    const ha = addr('ha');
    const sent = await client(t.app, forged).post(`${B}/submit-request`, { code: token, description: 'Sparks from the socket', urgency: 'urgent', email: ha });
    expect(sent.status).toBe(201);
    expect(sent.body.statusUrl).toBe(`${origin}/portal/status/${sent.body.statusToken}`);
    const [mail] = await mailsTo(ha);
    expect(mail.text).toContain(`${origin}/portal/status/${sent.body.statusToken}`);
    expect(mail.text + mail.html).not.toContain('6666');
  });
});

describe('request portal: labels of work stations', () => {
  it('prints work stations with assets; another organisation gets 404 and no code is made', async () => {
    const { org, asset, station } = await setup('Pi');
    const res = await t.app.inject({
      method: 'POST',
      url: `${B}/asset-labels`,
      headers: { host: org.host, authorization: `Bearer ${org.admin.token}` },
      payload: { assetIds: [asset.id], workStationIds: [station.id], layout: 'sheet-10' },
    });
    expect(res.statusCode).toBe(200);
    const codes = await withTenant(t.database.db, org.orgId, (tx) => tx.select().from(portalCodes).where(eq(portalCodes.orgId, org.orgId)));
    expect(codes.map((c) => c.kind).sort()).toEqual(['asset', 'work-station']);
    expect((await qrTextsOfPdf(res.rawPayload)).sort()).toEqual(codes.map((c) => `${publicOrigin(t.config, org.subdomain)}/r/${c.token}`).sort());
    // The station's code resolves to it (the scanner), and its public form names it.
    const stationCode = codes.find((c) => c.kind === 'work-station')!;
    expect((await org.admin.get(`${B}/resolve-code/${stationCode.token}`)).body.target).toMatchObject({ kind: 'work-station', id: station.id });

    expect((await org.admin.post(`${B}/asset-labels`, { assetIds: [], workStationIds: [] })).status).toBe(400);
    const other = await createOrg(t, 'PiOther');
    expect((await other.admin.post(`${B}/asset-labels`, { workStationIds: [station.id] })).status).toBe(404);
    const theirs = await withTenant(t.database.db, other.orgId, (tx) => tx.select().from(portalCodes).where(eq(portalCodes.orgId, other.orgId)));
    expect(theirs).toHaveLength(0);
  });
});
