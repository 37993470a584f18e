import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { deliveriesOf, notificationsOf } from './test-fixtures';
import { withTenant } from '../../server/db/client';
import { portalCodes, users, workOrders } from '../../server/db/schema';
import { setClockOffset } from '../../server/clock';
import { createOrg, createTestApp, type Client, type TestApp } from '../../server/test/harness';
import { orgRows } from '../../server/test/sql';
import { catalogue } from '../maintenance-requests/test-fixtures';
import { inDays } from '../commercial-documents/test-fixtures';

let t: TestApp;
let png: Buffer;
beforeAll(async () => {
  t = await createTestApp();
  const { default: sharp } = await import('sharp');
  png = await sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .png()
    .toBuffer();
});
afterAll(() => t.close());
afterEach(() => setClockOffset(0));

type Person = Client & { userId: number };
async function people() {
  const org = await createOrg(t);
  const manager = (await org.as('manager', { firstName: 'Mona', lastName: 'Manager' })) as Person;
  const tech = (await org.as('worker', { firstName: 'Tariq', lastName: 'Tech' })) as Person;
  const crew = (await org.as('worker', { firstName: 'Cara', lastName: 'Crew' })) as Person;
  const other = (await org.as('worker', { firstName: 'Omar', lastName: 'Other' })) as Person;
  const refs = await catalogue(t, org.orgId, 'N');
  return { org, manager, tech, crew, other, refs };
}

describe('work made by the PM generator reaches its assignees, and the plan team by name (decision 082)', () => {
  it('a direct assignee is told "assigned", a team member "assigned to your team"; e-mail and push queued once; nobody else', async () => {
    const { org, manager, tech, crew, other, refs } = await people();
    const team = await org.admin.post('/api/teams/add-team', { name: 'Boiler crew', members: [{ workerId: crew.userId }] });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const plan = await manager.post('/api/pm-plans/add-plan', {
      name: 'Daily grease',
      assetIds: [refs.asset.id],
      title: 'Grease the bearings',
      frequency: 'daily',
      startDate: inDays(0),
      assignees: [tech.userId],
      teamId: team.body.team.id,
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    expect((await org.admin.post('/api/pm-plans/run-generator')).status).toBe(200);
    const made = await withTenant(t.database.db, org.orgId, (tx) => tx.select().from(workOrders).where(eq(workOrders.orgId, org.orgId)));
    expect(made.length).toBeGreaterThan(0);

    const techRows = await notificationsOf(t, org, tech.userId);
    expect(techRows).toHaveLength(made.length);
    expect(techRows[0]).toMatchObject({ kind: 'assigned', entityType: 'work-order', data: { title: 'Grease the bearings' } });
    expect(techRows[0].data.team).toBeUndefined();
    const crewRows = await notificationsOf(t, org, crew.userId);
    expect(crewRows).toHaveLength(made.length);
    expect(crewRows[0].data).toMatchObject({ team: 'Boiler crew' });
    expect(await notificationsOf(t, org, other.userId)).toEqual([]);
    expect(await notificationsOf(t, org, manager.userId)).toEqual([]);

    // The worker's defaults: e-mail (after the coalescing window) and push (on the next run), one each per order.
    const sent = await deliveriesOf(t, org, crew.userId);
    expect(sent.map((d) => d.channel).sort()).toEqual([...Array(made.length).fill('email'), ...Array(made.length).fill('push')]);
    // The bell speaks of the team.
    const bell = await crew.get('/api/notifications');
    expect(bell.body.notifications[0]).toMatchObject({ kind: 'assigned', data: { team: 'Boiler crew' } });

    // Running the generator again makes no new work, and tells nobody again.
    expect((await org.admin.post('/api/pm-plans/run-generator')).status).toBe(200);
    expect(await notificationsOf(t, org, crew.userId)).toHaveLength(made.length);
  });
});

describe('a request filed through the public portal waits for the managers', () => {
  it('managers and admins are told (kind request-approval, entity portal-request); workers are not', async () => {
    const { org, manager, tech, refs } = await people();
    const settings = { enabled: true, nameField: 'optional', emailField: 'optional', phoneField: 'hidden', notifyRequester: true, published: [] };
    expect((await org.admin.put('/api/portal/settings', { ...settings, welcome: 'Hello' })).status).toBe(200);
    const label = await org.admin.post('/api/portal/asset-labels', { assetIds: [refs.asset.id], layout: 'single-large' });
    expect(label.status).toBe(200);
    const [{ token }] = await withTenant(t.database.db, org.orgId, (tx) => tx.select().from(portalCodes).where(eq(portalCodes.orgId, org.orgId)));
    const res = await org.anonymous.upload('/api/portal/submit-request', [{ field: 'photos', name: 'leak.png', bytes: png, type: 'image/png' }], {
      code: token,
      description: 'Water on the floor by pump 1',
      urgency: 'high',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);

    const mine = await notificationsOf(t, org, manager.userId);
    expect(mine).toEqual([
      expect.objectContaining({
        kind: 'request-approval',
        entityType: 'portal-request',
        data: { title: 'Water on the floor by pump 1', number: res.body.number },
      }),
    ]);
    const [admin] = await orgRows(t.database.db, org.orgId, users, eq(users.email, org.email));
    expect(await notificationsOf(t, org, admin.id)).toHaveLength(1);
    expect(await notificationsOf(t, org, tech.userId)).toEqual([]);
    const bell = await manager.get('/api/notifications');
    expect(bell.body.notifications[0]).toMatchObject({ kind: 'request-approval', entityType: 'portal-request' });
    // A worker cannot read it through the bell's visibility rule either.
    expect((await tech.get('/api/notifications')).body.notifications).toEqual([]);
  });
});

describe('a repeat failure is a per-person notification', () => {
  it('reaches the order’s assignee and the other managers, not the one who closed it, not a worker off the order', async () => {
    const { org, manager, tech, other, refs } = await people();
    const problem = await org.admin.post('/api/failure-codes/add-failure-code', { kind: 'problem', code: 'LEAK', name: 'Leak' });
    expect(problem.status, JSON.stringify(problem.body)).toBe(201);
    const ids: number[] = [];
    for (const title of ['Leak 1', 'Leak 2']) {
      const made = await manager.post('/api/work-orders/add-work-order', { title, assetId: refs.asset.id, assignees: [tech.userId] });
      expect(made.status).toBe(201);
      ids.push(made.body.workOrder.id);
      const closed = await manager.put(`/api/work-orders/update-status/${made.body.workOrder.id}`, {
        status: 'completed',
        problemCodeId: problem.body.failureCode.id,
      });
      expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    }
    const repeat = <R extends { kind: string }>(rows: R[]) => rows.filter((r) => r.kind === 'repeat-failure');
    expect(repeat(await notificationsOf(t, org, tech.userId))).toEqual([
      expect.objectContaining({
        entityType: 'work-order',
        entityId: ids[1],
        data: expect.objectContaining({ problem: 'Leak', asset: refs.asset.name, previous: `WO-${String(ids[0]).padStart(4, '0')}`, withinDays: 30 }),
      }),
    ]);
    const [admin] = await orgRows(t.database.db, org.orgId, users, eq(users.email, org.email));
    expect(repeat(await notificationsOf(t, org, admin.id))).toHaveLength(1);
    expect(repeat(await notificationsOf(t, org, manager.userId))).toEqual([]);
    expect(repeat(await notificationsOf(t, org, other.userId))).toEqual([]);
    // Its channels are a kind of their own: the worker's defaults are the bell only; a manager's add e-mail.
    const prefs = await tech.get('/api/notifications/preferences');
    expect(prefs.body.kinds).toContain('repeat-failure');
    expect(prefs.body.preferences.kinds['repeat-failure']).toEqual({ inApp: true, email: false, push: false, digest: false });
    const carries = async (userId: number) => {
      const [row] = repeat(await notificationsOf(t, org, userId));
      return (await deliveriesOf(t, org, userId)).filter((d) => d.notificationIds.includes(row.id)).map((d) => d.channel);
    };
    expect(await carries(tech.userId)).toEqual([]);
    expect(await carries(admin.id)).toEqual(['email']);
  });
});
