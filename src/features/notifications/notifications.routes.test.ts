import { afterEach, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { deliveriesOf, notificationsOf } from './test-fixtures';
import { withTenant, withoutTenant } from '../../server/db/client';
import { mailOutbox, notifications, users } from '../../server/db/schema';
import { setClockOffset } from '../../server/clock';
import { createOrg, emailOfUser, useTestApp, type Client, type TestOrg } from '../../server/test/harness';
import { orgRows } from '../../server/test/sql';
import { correctiveRequest } from '../../server/test/fixtures';
import { catalogue } from '../maintenance-requests/test-fixtures';
import { commercialRows, inDays } from '../commercial-documents/test-fixtures';
import { addStockablePart, masterRows } from '../assets/test-fixtures';
import { checkDueWork, dispatchDue } from './notifications.dispatch';
import { runNotifications } from '../../server/jobs/notifications.job';
import { unsubscribeToken } from './notifications.service';

const t = useTestApp();
afterEach(() => setClockOffset(0));

/** 10:00 UTC on a fixed day (the organisations keep UTC): quiet hours and digests are then exact. */
const T0 = Date.parse('2031-05-01T10:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const setClock = (minutes: number) => setClockOffset(at(minutes).getTime() - Date.now());

type Person = Client & { userId: number };
const deps = () => ({ mailer: t.app.deps.jobs.mailer, config: t.config });

/** The dispatch job's work for one organisation at a time: its checks, then its due messages. */
const run = (org: TestOrg, minutes: number) =>
  withTenant(t.database.db, org.orgId, async (tx) => {
    await checkDueWork(tx, org.orgId, at(minutes));
    return dispatchDue(tx, org.orgId, deps(), at(minutes));
  });

const emailOf = (org: TestOrg, userId: number) => emailOfUser(t, org.orgId, userId);
const mailsTo = (to: string) => withoutTenant(t.database.db, (tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(mailOutbox.id));
const bell = async (c: Client) => {
  const res = await c.get('/api/notifications');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { notifications: { id: number; kind: string; entityId: number; data: Record<string, unknown>; read: boolean }[]; unread: number };
};

async function addOrder(c: Client, body: Record<string, unknown> = {}) {
  const res = await c.post('/api/work-orders/add-work-order', { title: 'Replace pump seal', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.workOrder as { id: number; updatedAt: string };
}

async function team() {
  const org = await createOrg(t);
  const manager = (await org.as('manager', { firstName: 'Mona', lastName: 'Manager' })) as Person;
  const tech = (await org.as('worker', { firstName: 'Tariq', lastName: 'Tech' })) as Person;
  const other = (await org.as('worker', { firstName: 'Omar', lastName: 'Other' })) as Person;
  return { org, manager, tech, other };
}

describe('notifications: events reach each channel once, and only people who may see the record', () => {
  it('assignment: the bell row, one e-mail after the coalescing window and one push; not the actor, not another worker', async () => {
    setClock(0);
    const { org, manager, tech, other } = await team();
    const order = await addOrder(manager, { assignees: [tech.userId] });
    const mine = await bell(tech);
    expect(mine.notifications).toMatchObject([
      { kind: 'assigned', entityId: order.id, data: { title: 'Replace pump seal', number: expect.stringMatching(/^WO-/) }, read: false },
    ]);
    expect(mine.unread).toBe(1);
    expect((await bell(other)).notifications).toEqual([]);
    expect(await notificationsOf(t, org, other.userId)).toEqual([]);
    expect((await bell(manager)).notifications).toEqual([]);

    // Nothing leaves before the coalescing window ends.
    await run(org, 1);
    const techEmail = await emailOf(org, tech.userId);
    expect(await mailsTo(techEmail)).toHaveLength(0);
    await run(org, 6);
    const mails = await mailsTo(techEmail);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain('You were assigned');
    expect(mails[0].text).toContain(`/dashboard/work-orders?open=${order.id}`);
    expect(mails[0].html).toContain('<a href=');
    expect(mails[0].headers).toMatchObject({
      'List-Unsubscribe': expect.stringContaining('/api/notifications/unsubscribe?token='),
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    const sent = await deliveriesOf(t, org, tech.userId);
    expect(sent.map((d) => [d.channel, d.sentAt !== null, d.skipped])).toEqual([
      ['email', true, null],
      ['push', true, null],
    ]);
    // A second run sends nothing again.
    await run(org, 12);
    expect(await mailsTo(techEmail)).toHaveLength(1);
    expect(await deliveriesOf(t, org, other.userId)).toEqual([]);

    // Reading: one, then all.
    const read = await tech.post('/api/notifications/read', { ids: [mine.notifications[0].id] });
    expect(read.body).toEqual({ unread: 0 });
    expect((await bell(tech)).notifications[0].read).toBe(true);
  });

  it('reassignment tells the new assignee; the one taken off no longer sees the old entry in the bell, nor gets its e-mail', async () => {
    setClock(0);
    const { org, manager, tech, other } = await team();
    const order = await addOrder(manager, { assignees: [tech.userId] });
    const res = await manager.put(`/api/work-orders/update-work-order/${order.id}`, {
      title: 'Replace pump seal',
      assignees: [other.userId],
      updatedAt: order.updatedAt,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await bell(other)).notifications).toMatchObject([{ kind: 'assigned', entityId: order.id }]);
    expect((await bell(tech)).notifications).toEqual([]);
    // The e-mail queued for the one taken off is not sent when its time comes: they may no longer see the order.
    await run(org, 6);
    expect(await mailsTo(await emailOf(org, tech.userId))).toEqual([]);
    expect((await deliveriesOf(t, org, tech.userId)).filter((d) => d.channel === 'email')).toMatchObject([{ skipped: 'not wanted or not visible' }]);
    expect(await mailsTo(await emailOf(org, other.userId))).toHaveLength(1);
  });

  it('status changes of work I created or follow coalesce into one e-mail; a worker cannot follow work they may not see', async () => {
    setClock(0);
    const { org, manager, tech, other } = await team();
    const order = await addOrder(manager, { assignees: [tech.userId] });
    const admin = org.admin;
    expect((await admin.put(`/api/notifications/work-orders/${order.id}/follow`)).body).toEqual({ following: true });
    expect((await admin.get(`/api/notifications/work-orders/${order.id}/follow`)).body).toEqual({ following: true });
    expect((await other.put(`/api/notifications/work-orders/${order.id}/follow`)).status).toBe(404);
    expect((await tech.put(`/api/notifications/work-orders/${order.id}/follow`)).status).toBe(200);

    setClock(1);
    expect((await tech.put(`/api/work-orders/update-status/${order.id}`, { status: 'in-progress' })).status).toBe(200);
    setClock(2);
    expect((await tech.put(`/api/work-orders/update-status/${order.id}`, { status: 'completed' })).status).toBe(200);
    // The creator and the follower each get two in the bell; the technician who did it none.
    for (const c of [manager, admin])
      expect((await bell(c)).notifications.map((n) => [n.kind, n.data.to])).toEqual([
        ['status-changed', 'completed'],
        ['status-changed', 'in-progress'],
      ]);
    expect((await bell(tech)).notifications.map((n) => n.kind)).toEqual(['assigned']);

    await run(org, 10);
    const mails = await mailsTo(await emailOf(org, manager.userId));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain('2 updates on');
    expect(mails[0].text).toContain('status changed from assigned to in progress');
    expect(mails[0].text).toContain('status changed from in progress to completed');
    expect(await mailsTo(org.email)).toHaveLength(1);

    expect((await admin.del(`/api/notifications/work-orders/${order.id}/follow`)).body).toEqual({ following: false });
  });

  it('a mention reaches the person named when they may see the record, with the picker offering only them', async () => {
    setClock(0);
    const { org, manager, tech, other } = await team();
    const order = await addOrder(manager, { assignees: [tech.userId] });
    const picker = await manager.get(`/api/notifications/mention-candidates?entityType=work-order&entityId=${order.id}&q=t`);
    expect(picker.status).toBe(200);
    expect(picker.body.users.map((u: { handle: string }) => u.handle)).toContain('TariqTech');
    expect(picker.body.users.map((u: { handle: string }) => u.handle)).not.toContain('OmarOther');
    expect((await other.get(`/api/notifications/mention-candidates?entityType=work-order&entityId=${order.id}`)).status).toBe(404);

    const note = await manager.post(`/api/activities/work-order/${order.id}/notes`, { note: 'Please check the seal @TariqTech and @OmarOther' });
    expect(note.status).toBe(201);
    expect((await bell(tech)).notifications.map((n) => n.kind)).toEqual(['mention', 'assigned']);
    expect((await bell(tech)).notifications[0].data).toMatchObject({ actorName: 'Mona Manager', excerpt: expect.stringContaining('check the seal') });
    expect((await bell(other)).notifications).toEqual([]);
    // Not hidden at reading: never written for someone who may not see the record.
    expect(await notificationsOf(t, org, other.userId)).toEqual([]);
    await run(org, 10);
    // Assignment and mention of one record: one message.
    const mails = await mailsTo(await emailOf(org, tech.userId));
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('Mona Manager');
  });

  it('a new maintenance request waits for the managers; a purchase order sent for approval too; workers get neither', async () => {
    setClock(0);
    const { org, manager, tech } = await team();
    const refs = await catalogue(t, org.orgId, 'N');
    const added = await tech.post('/api/maintenance-requests/add-maintenance-request', correctiveRequest(refs));
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect((await bell(manager)).notifications).toMatchObject([{ kind: 'request-approval', entityId: added.body.maintenanceRequest.id }]);
    expect((await bell(org.admin)).notifications.map((n) => n.kind)).toEqual(['request-approval']);
    expect((await bell(tech)).notifications).toEqual([]);

    const r = await commercialRows(t, org.orgId, 'N');
    const po = await org.admin.post('/api/purchase-orders/add-purchase-order', {
      overview: { vendor: r.vendor.id, requester: 1, purchaseOrderDate: inDays(0), expirationDate: inDays(14), status: 'sendForApproval' },
      serviceDetails: [{ serviceId: r.service.id, quantity: 1, unitPrice: 200, discount: 0, taxId: r.purchase5.id }],
      partDetails: [],
    });
    expect(po.status, JSON.stringify(po.body)).toBe(201);
    expect((await bell(manager)).notifications.map((n) => [n.kind, n.data.number])).toEqual([
      ['purchase-order-approval', expect.stringMatching(/^PO-/)],
      ['request-approval', expect.stringMatching(/^MR-/)],
    ]);
    // The admin sent it: not told of their own act.
    expect((await bell(org.admin)).notifications.map((n) => n.kind)).toEqual(['request-approval']);
    expect((await bell(tech)).notifications).toEqual([]);
  });

  it('low stock at a storeroom reaches the managers (in the daily digest by default) once, when the level crosses the reorder point', async () => {
    setClock(0);
    const { org, manager, tech } = await team();
    const m = await masterRows(t, org.orgId, 'L');
    const partId = (await addStockablePart(org, m, { quantityOnHand: 10 })).id;
    const main = (await org.admin.get('/api/stock/get-locations')).body.locations[0].id;
    expect((await org.admin.put('/api/stock/update-stock-level', { partId, locationId: main, reorderPoint: 5, reorderQuantity: 10 })).status).toBe(200);
    expect((await tech.post('/api/stock/count-stock', { partId, locationId: main, countedQuantity: 6 })).status).toBe(200);
    expect((await bell(manager)).notifications).toEqual([]);
    expect((await tech.post('/api/stock/count-stock', { partId, locationId: main, countedQuantity: 3 })).status).toBe(200);
    expect((await tech.post('/api/stock/count-stock', { partId, locationId: main, countedQuantity: 2 })).status).toBe(200);
    expect((await bell(manager)).notifications).toMatchObject([
      { kind: 'low-stock', data: { title: 'Seal kit', location: 'Main store', quantity: 3, reorderPoint: 5 } },
    ]);
    expect((await bell(tech)).notifications).toEqual([]);
    // A digest kind: nothing until the digest time (07:00 the next day, the organisation's clock).
    const email = await emailOf(org, manager.userId);
    await run(org, 60);
    expect(await mailsTo(email)).toHaveLength(0);
    await run(org, 21 * 60 + 1);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain('Your daily digest (1)');
  });
});

describe('scheduled checks, digests and quiet hours with a moved clock', () => {
  it('due soon within the lead time, then overdue, each once per due date', async () => {
    setClock(0);
    const { org, manager, tech } = await team();
    expect((await manager.put('/api/notifications/organization-settings', { dueSoonHours: 4, digestTime: '07:00' })).status).toBe(200);
    expect((await tech.put('/api/notifications/organization-settings', { dueSoonHours: 4, digestTime: '07:00' })).status).toBe(403);
    const order = await addOrder(manager, { assignees: [tech.userId], dueDate: at(6 * 60).toISOString() });
    await run(org, 60);
    expect((await bell(tech)).notifications.map((n) => n.kind)).toEqual(['assigned']);
    await run(org, 2 * 60 + 5);
    await run(org, 2 * 60 + 30);
    expect((await bell(tech)).notifications.map((n) => n.kind)).toEqual(['due-soon', 'assigned']);
    await run(org, 6 * 60 + 1);
    await run(org, 6 * 60 + 20);
    expect((await bell(tech)).notifications.map((n) => n.kind)).toEqual(['overdue', 'due-soon', 'assigned']);
    // Overdue also reaches the one who created it.
    expect((await bell(manager)).notifications).toMatchObject([{ kind: 'overdue', entityId: order.id }]);
    // E-mail: assignment (one), overdue (one); due soon is in-app and push only for a worker by default.
    expect((await mailsTo(await emailOf(org, tech.userId))).map((m) => m.subject.split(': ')[1])).toEqual([
      expect.stringContaining('You were assigned'),
      expect.stringContaining('is overdue'),
    ]);
  });

  it('the job itself runs the checks and sends over every organisation', async () => {
    setClock(0);
    const { org, manager, tech } = await team();
    await addOrder(manager, { assignees: [tech.userId] });
    await runNotifications(t.database, deps(), undefined, at(6));
    expect(await mailsTo(await emailOf(org, tech.userId))).toHaveLength(1);
  });

  it('a digest gathers the chosen kinds into one e-mail at the digest time', async () => {
    setClock(0);
    const { org, manager, tech } = await team();
    const prefs = (await tech.get('/api/notifications/preferences')).body;
    expect(prefs.kinds).toEqual(['assigned', 'due-soon', 'overdue', 'status-changed', 'mention', 'repeat-failure']);
    prefs.preferences.kinds.assigned.digest = true;
    expect((await tech.put('/api/notifications/preferences', prefs.preferences)).status).toBe(200);
    await addOrder(manager, { assignees: [tech.userId], title: 'First' });
    await addOrder(manager, { assignees: [tech.userId], title: 'Second' });
    const email = await emailOf(org, tech.userId);
    await run(org, 30);
    expect(await mailsTo(email)).toHaveLength(0);
    // Push is not a digest channel: both pushes left.
    expect((await deliveriesOf(t, org, tech.userId)).filter((d) => d.channel === 'push' && d.sentAt)).toHaveLength(2);
    await run(org, 21 * 60 + 1);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain('Your daily digest (2)');
    expect(mails[0].text).toContain('First');
    expect(mails[0].text).toContain('Second');
  });

  it('quiet hours hold e-mail until they end and drop push; Arabic mail is right to left', async () => {
    // 23:00 on the organisation's clock (UTC).
    setClock(13 * 60);
    const { org, manager, tech } = await team();
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .update(users)
        .set({ language: 'ar' })
        .where(and(eq(users.orgId, org.orgId), eq(users.id, tech.userId))),
    );
    const prefs = (await tech.get('/api/notifications/preferences')).body.preferences;
    const bad = await tech.put('/api/notifications/preferences', { ...prefs, quietStart: '22:00', quietEnd: null });
    expect(bad.status).toBe(400);
    expect((await tech.put('/api/notifications/preferences', { ...prefs, quietStart: '22:00', quietEnd: '06:30' })).status).toBe(200);
    await addOrder(manager, { assignees: [tech.userId] });
    const email = await emailOf(org, tech.userId);
    const during = await run(org, 13 * 60 + 10);
    expect(during).toMatchObject({ emails: 0, held: 1 });
    expect(await mailsTo(email)).toHaveLength(0);
    const held = await deliveriesOf(t, org, tech.userId);
    expect(held.find((d) => d.channel === 'email')!.dueAt.toISOString()).toBe('2031-05-02T06:30:00.000Z');
    expect(held.find((d) => d.channel === 'push')).toMatchObject({ skipped: 'quiet hours' });
    await run(org, 20 * 60 + 31);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain('أُسند إليك');
    expect(mails[0].html).toContain('dir="rtl"');
  });

  it('a channel turned off sends nothing on it; the bell row stays when in-app is on', async () => {
    setClock(0);
    const { org, manager, tech } = await team();
    const prefs = (await tech.get('/api/notifications/preferences')).body.preferences;
    prefs.kinds.assigned = { inApp: true, email: false, push: false, digest: false };
    await tech.put('/api/notifications/preferences', prefs);
    await addOrder(manager, { assignees: [tech.userId] });
    expect((await bell(tech)).notifications).toHaveLength(1);
    expect(await deliveriesOf(t, org, tech.userId)).toEqual([]);
  });
});

describe('the unsubscribe link', () => {
  it('valid: the page, then one click turns that kind of e-mail off; tampered or on another organisation: 404', async () => {
    setClock(0);
    const { org, manager, tech } = await team();
    await addOrder(manager, { assignees: [tech.userId] });
    await run(org, 6);
    const [mail] = await mailsTo(await emailOf(org, tech.userId));
    const link = /https?:\/\/\S+\/api\/notifications\/unsubscribe\?token=(\S+)/.exec(mail.text)!;
    const token = link[1];
    expect(token).toBe(unsubscribeToken(t.config.jwtSecret, org.orgId, tech.userId, 'assigned'));

    const page = await org.anonymous.get(`/api/notifications/unsubscribe?token=${token}`);
    expect(page.status).toBe(200);
    expect(String(page.headers['content-type'])).toContain('text/html');
    // Showing the page changes nothing.
    expect((await tech.get('/api/notifications/preferences')).body.preferences.kinds.assigned.email).toBe(true);

    const tampered = token.slice(0, -3) + (token.endsWith('AAA') ? 'BBB' : 'AAA');
    expect((await org.anonymous.post(`/api/notifications/unsubscribe?token=${tampered}`)).status).toBe(404);
    const forged = Buffer.from(`${org.orgId}.${manager.userId}.assigned`).toString('base64url') + '.' + token.split('.')[1];
    expect((await org.anonymous.post(`/api/notifications/unsubscribe?token=${forged}`)).status).toBe(404);
    // Another organisation whose member has the same id: the token is not theirs.
    const elsewhere = await createOrg(t, 'Elsewhere');
    let twin: Person | undefined;
    while (!twin || twin.userId < tech.userId) twin = (await elsewhere.as('worker')) as Person;
    expect(twin.userId).toBe(tech.userId);
    expect((await elsewhere.anonymous.post(`/api/notifications/unsubscribe?token=${token}`)).status).toBe(404);
    expect((await twin.get('/api/notifications/preferences')).body.preferences.kinds.assigned.email).toBe(true);
    expect((await tech.get('/api/notifications/preferences')).body.preferences.kinds.assigned.email).toBe(true);

    const oneClick = await org.anonymous.post(`/api/notifications/unsubscribe?token=${token}`, 'List-Unsubscribe=One-Click', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(oneClick.status).toBe(200);
    const after = (await tech.get('/api/notifications/preferences')).body.preferences.kinds;
    expect(after.assigned).toMatchObject({ email: false, inApp: true, push: true });
    expect(after.mention.email).toBe(true);
    await addOrder(manager, { assignees: [tech.userId] });
    await run(org, 20);
    expect(await mailsTo(await emailOf(org, tech.userId))).toHaveLength(1);
  });
});

describe('isolation', () => {
  it('another organisation gets 404 for a work order to follow or mention on, and changes nothing; my bell is mine', async () => {
    setClock(0);
    const a = await team();
    const b = await createOrg(t, 'Beta');
    const order = await addOrder(a.manager, { assignees: [a.tech.userId] });
    expect((await b.admin.put(`/api/notifications/work-orders/${order.id}/follow`)).status).toBe(404);
    expect((await b.admin.get(`/api/notifications/work-orders/${order.id}/follow`)).status).toBe(404);
    expect((await b.admin.get(`/api/notifications/mention-candidates?entityType=work-order&entityId=${order.id}`)).status).toBe(404);
    const mine = await bell(a.tech);
    expect((await b.admin.post('/api/notifications/read', { ids: mine.notifications.map((n) => n.id) })).status).toBe(200);
    expect((await bell(a.tech)).unread).toBe(1);
    expect((await bell(b.admin)).notifications).toEqual([]);
    const rows = await orgRows(t.database.db, a.org.orgId, notifications, inArray(notifications.userId, [a.tech.userId]));
    expect(rows.every((r) => r.readAt === null)).toBe(true);
  });
});
