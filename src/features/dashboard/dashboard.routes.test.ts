import { afterEach, describe, expect, it } from 'vitest';
import { withTenant } from '../../server/db/client';
import { maintenanceRequests, parts, pmOccurrences, pmPlans, productCategories, uomCategories, uoms } from '../../server/db/schema';
import { setClockOffset } from '../../server/clock';
import { createOrg, useTestApp, type Client, type TestOrg } from '../../server/test/harness';

/** Activity settings: every kind in the bell, the person's own actions too. */
const EVERY_KIND_AND_OWN = { maintenance: true, catalog: true, purchasing: true, people: true, settings: true, ownActions: true };

const t = useTestApp();
afterEach(() => setClockOffset(0));

const HOUR = 3_600_000;
// 2031-03-10 22:30 UTC is already 11 March in Riyadh (UTC+3): the reader's zone decides "today".
const NOW = Date.parse('2031-03-10T22:30:00Z');
const at = (hours: number) => new Date(NOW + hours * HOUR).toISOString();

async function addOrder(c: Client, body: Record<string, unknown> = {}) {
  const res = await c.post('/api/work-orders/add-work-order', { title: 'Replace pump seal', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.workOrder as { id: number };
}

/** A maintenance request, a PM plan's occurrence and parts, written directly (their screens are tested elsewhere). */
async function seed(org: TestOrg, pmOrderIds: number[]) {
  await withTenant(t.database.db, org.orgId, async (tx) => {
    const orgId = org.orgId;
    const request = {
      orgId,
      title: 'Leak',
      problemDescription: 'Leak',
      maintenanceType: 'corrective' as const,
      requester: 'employee' as const,
      priority: 'medium' as const,
      riskLevel: 'low' as const,
      dateOfRequest: new Date(NOW),
    };
    for (const state of ['new', 'approved', 'in-progress', 'completed', 'rejected', 'cancelled'] as const)
      await tx.insert(maintenanceRequests).values({ ...request, state });
    const [plan] = await tx
      .insert(pmPlans)
      .values({ orgId, name: 'Monthly lube', title: 'Lube', frequency: 'monthly', startDate: '2031-01-01', activeFrom: '2031-01-01' })
      .returning();
    for (const [i, workOrderId] of pmOrderIds.entries())
      await tx.insert(pmOccurrences).values({ orgId, planId: plan.id, dueDate: `2031-03-${10 + i}`, status: 'created', workOrderId });
    const [pc] = await tx.insert(productCategories).values({ orgId, name: 'Spares' }).returning();
    const [uc] = await tx.insert(uomCategories).values({ orgId, name: 'Unit' }).returning();
    const [uom] = await tx.insert(uoms).values({ orgId, name: 'Each', categoryId: uc.id, type: 'reference' }).returning();
    const base = { orgId, categoryId: pc.id, unitOfMeasureId: uom.id, purchaseUnitOfMeasureId: uom.id, salesPrice: 1 };
    await tx.insert(parts).values([
      { ...base, name: 'Low', type: 'stockable', quantityOnHand: 1, minimumQuantity: 5 },
      { ...base, name: 'At minimum', type: 'stockable', quantityOnHand: 5, minimumQuantity: 5 },
      { ...base, name: 'Consumable', type: 'consumable', quantityOnHand: 0, minimumQuantity: 5 },
    ]);
  });
}

describe('dashboard: what needs attention', () => {
  it('counts overdue, due today, open requests, PM due this week and parts below minimum, as the lists filter them', async () => {
    setClockOffset(NOW - Date.now());
    const org = await createOrg(t);
    const worker = await org.as('worker');
    await addOrder(org.admin, { dueDate: at(-48) }); // overdue
    await addOrder(org.admin, { dueDate: at(-0.5), assignees: [worker.userId] }); // overdue, the worker's
    await addOrder(org.admin, { dueDate: at(-1), status: 'completed' }); // closed: not overdue
    await addOrder(org.admin, { dueDate: at(1) }); // later today in UTC (23:30); tomorrow in Riyadh is 01:30, still 11 March
    await addOrder(org.admin, { dueDate: at(4), assignees: [worker.userId] }); // 11 March 02:30 UTC: tomorrow in UTC, today in Riyadh
    const pm1 = await addOrder(org.admin, { dueDate: at(30) });
    const pm2 = await addOrder(org.admin, { dueDate: at(24 * 9) }); // PM, beyond the week
    const pm3 = await addOrder(org.admin, { dueDate: at(40), status: 'cancelled' }); // PM, closed
    await addOrder(org.admin, { dueDate: at(50) }); // not PM
    await seed(org, [pm1.id, pm2.id, pm3.id]);
    const other = await createOrg(t);
    await addOrder(other.admin, { dueDate: at(-5) });
    await seed(other, []);

    const utc = await org.admin.get('/api/dashboard/get-attention');
    expect(utc.status, JSON.stringify(utc.body)).toBe(200);
    expect(utc.body.attention).toEqual({ overdue: 2, dueToday: 1, openRequests: 3, pmDueThisWeek: 1, partsBelowMinimum: 1 });
    const riyadh = await org.admin.get('/api/dashboard/get-attention?timeZone=Asia/Riyadh');
    expect(riyadh.body.attention.dueToday).toBe(2);

    // Each figure is the count of the list it links to.
    const total = async (c: Client, path: string) => (await c.get(path)).body.pagination.totalRecords;
    expect(await total(org.admin, '/api/work-orders/get-work-orders?due=overdue')).toBe(2);
    expect(await total(org.admin, '/api/work-orders/get-work-orders?due=today&timeZone=Asia/Riyadh')).toBe(2);
    expect(await total(org.admin, '/api/work-orders/get-work-orders?due=week&pm=true')).toBe(1);
    expect(await total(org.admin, '/api/maintenance-requests/get-maintenance-requests?status=new,approved,in-progress')).toBe(3);
    expect(await total(org.admin, '/api/parts/get-parts?lowStock=true')).toBe(1);

    // A worker's work-order figures are their own orders.
    expect((await worker.get('/api/dashboard/get-attention?timeZone=Asia/Riyadh')).body.attention).toEqual({
      overdue: 1,
      dueToday: 1,
      openRequests: 3,
      pmDueThisWeek: 0,
      partsBelowMinimum: 1,
    });
    expect((await org.admin.get('/api/dashboard/get-attention?timeZone=Mars/Olympus')).status).toBe(400);
    expect((await org.anonymous.get('/api/dashboard/get-attention')).status).toBe(401);
  });

  it('the quick views: mine, unassigned, overdue, due this week', async () => {
    setClockOffset(NOW - Date.now());
    const org = await createOrg(t);
    const manager = await org.as('manager');
    const worker = await org.as('worker');
    const a = await addOrder(org.admin, { dueDate: at(-3), assignees: [manager.userId] });
    const b = await addOrder(org.admin, { dueDate: at(24 * 3) });
    const c = await addOrder(org.admin, { dueDate: at(24 * 8), assignees: [worker.userId] });
    const ids = async (cl: Client, q: string) => (await cl.get(`/api/work-orders/get-work-orders?${q}`)).body.workOrders.map((w: { id: number }) => w.id);
    expect(await ids(manager, 'assigned=me')).toEqual([a.id]);
    expect(await ids(manager, 'assigned=none')).toEqual([b.id]);
    expect(await ids(manager, 'due=week')).toEqual([b.id]);
    expect(await ids(manager, 'due=overdue&assigned=me')).toEqual([a.id]);
    expect(await ids(worker, 'assigned=none')).toEqual([]);
    expect(await ids(worker, 'assigned=me')).toEqual([c.id]);
    expect((await manager.get('/api/work-orders/get-work-orders?due=someday')).status).toBe(400);
  });
});

describe('dashboard: latest activity', () => {
  it('merges repeats and names the records', async () => {
    const org = await createOrg(t);
    const order = await addOrder(org.admin, { title: 'Replace pump seal' });
    for (const title of ['Seal 1', 'Seal 2', 'Seal 3']) await org.admin.put(`/api/work-orders/update-work-order/${order.id}`, { title });
    const worker = await org.as('worker', { firstName: 'Amal', lastName: 'Haddad' });
    await org.admin.put(`/api/user/updateUser/${worker.userId}`, {
      firstName: 'Amal',
      lastName: 'Haddad',
      email: `amal@${org.subdomain}.example.com`,
      role: 'worker',
    });
    // The admin's own actions are in their bell only when asked for.
    await org.admin.put('/api/activities/notification-settings', EVERY_KIND_AND_OWN);
    const res = await org.admin.get('/api/dashboard/get-latest-activity');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const lines = res.body.activities as { entityType: string; entityId: number; action: string; name: string | null; repeats: number }[];
    const updates = lines.filter((l) => l.entityType === 'work-order' && l.action === 'updated');
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ entityId: order.id, repeats: 3, name: 'Seal 3' });
    expect(lines.find((l) => l.entityType === 'work-order' && l.action === 'created')).toMatchObject({ repeats: 1, name: 'Seal 3' });

    // Another organisation sees none of it.
    const other = await createOrg(t);
    await other.admin.put('/api/activities/notification-settings', EVERY_KIND_AND_OWN);
    expect(
      (await other.admin.get('/api/dashboard/get-latest-activity')).body.activities.filter((l: { entityType: string }) => l.entityType === 'work-order'),
    ).toEqual([]);
  });
});
