import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createOrg, createTestApp, type TestApp } from '../../server/test/harness';
import { withTenant } from '../../server/db/client';
import { users } from '../../server/db/schema';
import { DEFAULT_NOTIFICATION_SETTINGS } from './activity.schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('notification settings and the bell', () => {
  it('start with everything on, and each user keeps their own', async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker');
    expect((await worker.get('/api/activities/notification-settings')).body).toEqual({ notificationSettings: DEFAULT_NOTIFICATION_SETTINGS });

    const quiet = { ...DEFAULT_NOTIFICATION_SETTINGS, people: false, ownActions: false };
    const saved = await worker.put('/api/activities/notification-settings', quiet);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ notificationSettings: quiet });
    expect((await worker.get('/api/activities/notification-settings')).body.notificationSettings).toEqual(quiet);
    // The admin's settings are untouched.
    expect((await org.admin.get('/api/activities/notification-settings')).body.notificationSettings).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
  });

  it('filter the bell by topic and by who acted', async () => {
    const org = await createOrg(t);
    const manager = await org.as('manager');
    expect((await org.admin.post('/api/teams/add-team', { name: 'Night shift', members: [{ workerId: 1 }] })).status).toBe(201);
    expect((await manager.post('/api/work-orders/add-work-order', { title: 'Pump seal' })).status).toBe(201);
    const bell = async () => (await manager.get('/api/activities/recent')).body.activities.map((a: { entityType: string }) => a.entityType);

    expect(await bell()).toEqual(expect.arrayContaining(['team', 'work-order']));
    await manager.put('/api/activities/notification-settings', { ...DEFAULT_NOTIFICATION_SETTINGS, people: false });
    expect(await bell()).not.toContain('team');
    expect(await bell()).toContain('work-order');
    await manager.put('/api/activities/notification-settings', { ...DEFAULT_NOTIFICATION_SETTINGS, ownActions: false });
    expect(await bell()).toEqual(['team']); // the work order was the manager's own action
  });

  it('turn on a topic the stored settings do not name yet, on the settings screen and in the bell', async () => {
    const org = await createOrg(t);
    expect((await org.admin.post('/api/teams/add-team', { name: 'Day shift', members: [{ workerId: 1 }] })).status).toBe(201);
    expect((await org.admin.post('/api/work-orders/add-work-order', { title: 'Belt check' })).status).toBe(201);
    // Settings saved before the other topics existed: only "people", off.
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx.update(users).set({ notificationSettings: { people: false } }).where(and(eq(users.orgId, org.orgId), eq(users.id, 1))),
    );
    expect((await org.admin.get('/api/activities/notification-settings')).body.notificationSettings).toEqual({ ...DEFAULT_NOTIFICATION_SETTINGS, people: false });
    const bell = (await org.admin.get('/api/activities/recent')).body.activities.map((a: { entityType: string }) => a.entityType);
    expect(bell).toContain('work-order');
    expect(bell).not.toContain('team');
  });

  it('refuse a body that is not exactly the settings', async () => {
    const org = await createOrg(t);
    const bad = await org.admin.put('/api/activities/notification-settings', { ...DEFAULT_NOTIFICATION_SETTINGS, maintenance: 'yes' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Choose on or off');
    const extra = await org.admin.put('/api/activities/notification-settings', { ...DEFAULT_NOTIFICATION_SETTINGS, userId: 1 });
    expect(extra.status).toBe(400);
    const missing = await org.admin.put('/api/activities/notification-settings', { maintenance: false });
    expect(missing.status).toBe(400);
    expect((await org.anonymous.get('/api/activities/notification-settings')).status).toBe(401);
  });

  it("never reach another organisation's user with the same id", async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    await a.admin.put('/api/activities/notification-settings', { ...DEFAULT_NOTIFICATION_SETTINGS, catalog: false });
    // Both admins are user 1 of their organisation: b's admin is unaffected.
    expect((await b.admin.get('/api/activities/notification-settings')).body.notificationSettings).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
  });
});
