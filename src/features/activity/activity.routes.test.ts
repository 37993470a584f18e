import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createOrg, useTestApp } from '../../server/test/harness';
import { withTenant } from '../../server/db/client';
import { users } from '../../server/db/schema';
import { DEFAULT_NOTIFICATION_SETTINGS } from './activity.schema';

const t = useTestApp();

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
      tx
        .update(users)
        .set({ notificationSettings: { people: false } })
        .where(and(eq(users.orgId, org.orgId), eq(users.id, 1))),
    );
    expect((await org.admin.get('/api/activities/notification-settings')).body.notificationSettings).toEqual({
      ...DEFAULT_NOTIFICATION_SETTINGS,
      people: false,
    });
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

describe('history, notes and the bell follow the record (decision 024)', () => {
  type Entry = { entityType: string; entityId: number; note: string | null };
  const bellOf = async (client: { get(url: string): Promise<{ body: { activities: Entry[] } }> }) =>
    (await client.get('/api/activities/recent')).body.activities.filter((a) => a.entityType === 'work-order').map((a) => a.entityId);

  it('a worker gets 404 for the history and notes of a work order not assigned to them, and none of its bell entries; a manager sees all', async () => {
    const org = await createOrg(t);
    const manager = await org.as('manager');
    const worker = await org.as('worker');
    const other = await org.as('worker');
    const mine = await manager.post('/api/work-orders/add-work-order', { title: 'Mine', assignees: [worker.userId] });
    const theirs = await manager.post('/api/work-orders/add-work-order', { title: 'Theirs', assignees: [other.userId] });
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    expect(theirs.status).toBe(201);
    const [mineId, theirsId] = [mine.body.workOrder.id, theirs.body.workOrder.id];
    expect((await manager.post(`/api/activities/work-order/${theirsId}/notes`, { note: 'secret valve code 1234' })).status).toBe(201);
    // The work order itself is 404 for the worker: so are its history and notes, and posting on it changes nothing.
    expect((await worker.get(`/api/work-orders/get-work-order/${theirsId}`)).status).toBe(404);
    const history = await worker.get(`/api/activities/work-order/${theirsId}`);
    expect(history.status).toBe(404);
    expect(history.body.error).toBe('Work order not found');
    expect((await worker.post(`/api/activities/work-order/${theirsId}/notes`, { note: 'peek' })).status).toBe(404);
    expect(JSON.stringify((await manager.get(`/api/activities/work-order/${theirsId}`)).body)).not.toContain('peek');
    // Their own order: history and notes as usual.
    expect((await worker.get(`/api/activities/work-order/${mineId}`)).status).toBe(200);
    expect((await worker.post(`/api/activities/work-order/${mineId}/notes`, { note: 'done' })).status).toBe(201);
    // The bell: only their order's entries, never the other's note.
    const workerBell = await worker.get('/api/activities/recent');
    expect(JSON.stringify(workerBell.body)).not.toContain('secret valve');
    expect(await bellOf(worker)).toContain(mineId);
    expect(await bellOf(worker)).not.toContain(theirsId);
    expect(await bellOf(other)).toContain(theirsId);
    expect(await bellOf(other)).not.toContain(mineId);
    // Managers and admins see everything.
    for (const boss of [manager, org.admin]) {
      expect((await boss.get(`/api/activities/work-order/${theirsId}`)).status).toBe(200);
      expect(await bellOf(boss)).toEqual(expect.arrayContaining([mineId, theirsId]));
    }
    // Unassigned from the order: its history goes dark for the worker at once.
    expect((await manager.put(`/api/work-orders/update-work-order/${mineId}`, { title: 'Mine', assignees: [other.userId] })).status).toBe(200);
    expect((await worker.get(`/api/activities/work-order/${mineId}`)).status).toBe(404);
    expect(await bellOf(worker)).toEqual([]);
  });

  it('a worker reads and writes the history of the record types every member reads (decision 012)', async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker');
    expect((await org.admin.post('/api/teams/add-team', { name: 'Night shift', members: [{ workerId: 1 }] })).status).toBe(201);
    expect((await worker.get('/api/activities/team/1')).status).toBe(200);
    expect((await worker.post('/api/activities/team/1/notes', { note: 'seen it' })).status).toBe(201);
    expect((await worker.get('/api/activities/recent')).body.activities.map((a: Entry) => a.entityType)).toContain('team');
  });

  it('another organisation gets 404 on a record of the same id, and nothing of it in its bell', async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    expect((await a.admin.post('/api/work-orders/add-work-order', { title: 'A only' })).status).toBe(201);
    await a.admin.post('/api/activities/work-order/1/notes', { note: 'a-private' });
    expect((await b.admin.get('/api/activities/work-order/1')).status).toBe(404);
    expect((await b.admin.post('/api/activities/work-order/1/notes', { note: 'x' })).status).toBe(404);
    expect(JSON.stringify((await b.admin.get('/api/activities/recent')).body)).not.toContain('a-private');
  });
});
