import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { withTenant } from '../../server/db/client';
import {
  assetCategories,
  assets,
  parts,
  pmOccurrences,
  pmPlans,
  productCategories,
  teamMembers,
  teams,
  timeTrackingReasons,
  uomCategories,
  uoms,
  userWorkStations,
  users,
  workOrderAssignees,
  workOrderClosures,
  workOrderLabors,
  workOrderParts,
  workOrders,
  workStations,
} from '../../server/db/schema';
import { createOrg, createTestApp, type TestApp, type TestOrg } from '../../server/test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const B = '/api/analytics';
const MARCH = 'range=custom&from=2026-03-01&to=2026-03-31';
const at = (iso: string) => new Date(iso);
const DAY = 86_400_000;

/**
 * A small organisation whose figures for March 2026 are worked out by hand in the tests below (the previous
 * period is 29 Jan to 28 Feb). Rows are inserted directly with their historical times; closures come from the
 * trigger (an order inserted closed is closed at its updated_at).
 */
async function smallOrg(org: TestOrg) {
  const w1 = await org.as('worker', { firstName: 'Wafa', lastName: 'One' });
  const w2 = await org.as('worker', { firstName: 'Wim', lastName: 'Two' });
  const orgId = org.orgId;
  const now = Date.now();
  return withTenant(t.database.db, orgId, async (tx) => {
    await tx.update(users).set({ hourlyRate: 2000 }).where(and(eq(users.orgId, orgId), eq(users.id, w1.userId)));
    const [pumps] = await tx.insert(assetCategories).values({ orgId, name: 'Pumps', code: 'PMP' }).returning();
    const [presses] = await tx.insert(assetCategories).values({ orgId, name: 'Presses', code: 'PRS' }).returning();
    const [p1] = await tx.insert(assets).values({ orgId, name: 'Pump P1', date: '2024-01-01', assetCategoryId: pumps.id }).returning();
    const [p2] = await tx.insert(assets).values({ orgId, name: 'Pump P2', date: '2024-01-01', assetCategoryId: pumps.id }).returning();
    const [x1] = await tx.insert(assets).values({ orgId, name: 'Press X1', date: '2024-01-01', assetCategoryId: presses.id }).returning();
    const [team] = await tx.insert(teams).values({ orgId, name: 'Mechanics' }).returning();
    await tx.insert(teamMembers).values({ orgId, teamId: team.id, workerId: w1.userId });
    const [station] = await tx.insert(workStations).values({ orgId, code: 'S1', name: 'Hall 1', city: 'Doha', teamId: team.id }).returning();
    await tx.insert(userWorkStations).values({ orgId, userId: w1.userId, workStationId: station.id });
    const [av] = await tx.insert(timeTrackingReasons).values({ orgId, name: 'Breakdown', type: 'availability', isBlockingReason: true }).returning();
    const [q] = await tx.insert(timeTrackingReasons).values({ orgId, name: 'Rework', type: 'quality' }).returning();
    const [pr] = await tx.insert(timeTrackingReasons).values({ orgId, name: 'Inspection', type: 'productivity' }).returning();
    const [uc] = await tx.insert(uomCategories).values({ orgId, name: 'Unit' }).returning();
    const [uom] = await tx.insert(uoms).values({ orgId, name: 'Piece', categoryId: uc.id, type: 'reference' }).returning();
    const [pc] = await tx.insert(productCategories).values({ orgId, name: 'Spares' }).returning();
    const [seal] = await tx.insert(parts).values({ orgId, name: 'Seal', type: 'consumable', categoryId: pc.id, salesPrice: 12.5, unitOfMeasureId: uom.id, purchaseUnitOfMeasureId: uom.id }).returning();
    const [plan] = await tx
      .insert(pmPlans)
      .values({ orgId, name: 'Weekly P2', title: 'Grease P2', frequency: 'weekly', startDate: '2026-03-01', activeFrom: '2026-03-01', teamId: team.id, workStationId: station.id })
      .returning();

    const wo = async (title: string, v: { assetId?: number; created: string; status?: 'assigned' | 'completed' | 'cancelled'; closed?: string; due?: string; assignee?: number }) => {
      const [row] = await tx
        .insert(workOrders)
        .values({ orgId, title, assetId: v.assetId, status: v.status ?? 'assigned', createdAt: at(v.created), updatedAt: at(v.closed ?? v.created), dueDate: v.due ? at(v.due) : undefined })
        .returning();
      if (v.assignee) await tx.insert(workOrderAssignees).values({ orgId, workOrderId: row.id, userId: v.assignee });
      return row;
    };
    const a = await wo('A', { assetId: p1.id, created: '2026-03-02T08:00:00Z', status: 'completed', closed: '2026-03-02T12:00:00Z', due: '2026-03-02T23:00:00Z', assignee: w1.userId });
    const b = await wo('B', { assetId: p1.id, created: '2026-03-05T12:00:00Z', status: 'completed', closed: '2026-03-06T12:00:00Z', assignee: w2.userId });
    const c = await wo('C', { assetId: p1.id, created: '2026-03-10T00:00:00Z', due: '2026-03-12T00:00:00Z', assignee: w1.userId });
    const d = await wo('D', { assetId: x1.id, created: '2026-03-03T00:00:00Z', status: 'completed', closed: '2026-03-03T10:00:00Z' });
    const e = await wo('E', { assetId: p2.id, created: '2026-03-04T00:00:00Z', status: 'completed', closed: '2026-03-04T02:00:00Z' });
    const f = await wo('F', { assetId: x1.id, created: '2026-02-10T00:00:00Z', status: 'completed', closed: '2026-02-10T06:00:00Z' });
    await wo('G', { assetId: p1.id, created: '2026-03-08T00:00:00Z', status: 'cancelled', closed: '2026-03-09T00:00:00Z' });
    const ago = (days: number) => new Date(now - days * DAY).toISOString();
    await wo('H1', { created: ago(3) });
    await wo('H2', { created: ago(20), due: ago(1) });
    await wo('H3', { created: ago(60) });
    await wo('H4', { created: ago(200) });
    await tx.insert(pmOccurrences).values({ orgId, planId: plan.id, assetId: p2.id, dueDate: '2026-03-04', status: 'created', workOrderId: e.id });

    const labor = (workOrderId: number, workerId: number, reasonId: number, start: string, end: string) =>
      tx.insert(workOrderLabors).values({ orgId, workOrderId, workerId, reasonId, startDate: at(start), endDate: at(end) });
    await labor(a.id, w1.userId, av.id, '2026-03-02T08:00:00Z', '2026-03-02T10:00:00Z');
    await labor(b.id, w2.userId, q.id, '2026-03-05T13:00:00Z', '2026-03-05T16:30:00Z');
    await labor(e.id, w1.userId, pr.id, '2026-03-04T00:00:00Z', '2026-03-04T01:30:00Z');
    await labor(d.id, w1.userId, av.id, '2026-03-03T01:00:00Z', '2026-03-03T01:45:00Z');
    await labor(f.id, w1.userId, av.id, '2026-02-10T01:00:00Z', '2026-02-10T02:00:00Z');
    // This week's hour (Monday 01:00 UTC), for the technician view.
    const today = new Date(now);
    const monday = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - ((today.getUTCDay() + 6) % 7) * DAY;
    await labor(c.id, w1.userId, q.id, new Date(monday + 3_600_000).toISOString(), new Date(monday + 7_200_000).toISOString());
    await tx.insert(workOrderParts).values({ orgId, workOrderId: a.id, partId: seal.id, quantity: 2, createdAt: at('2026-03-02T09:00:00Z') });
    return { w1, w2, p1, p2, x1, pumps, presses, team, station, av, q, pr, a, c };
  });
}

describe('analytics API', () => {
  let org: TestOrg;
  let s: Awaited<ReturnType<typeof smallOrg>>;
  beforeAll(async () => {
    org = await createOrg(t);
    s = await smallOrg(org);
  });

  it('backlog: open now by age and overdue, and open at the end of each day of the range', async () => {
    const r = await org.admin.get(`${B}/get-backlog?${MARCH}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ range: { from: '2026-03-01', to: '2026-03-31' }, openNow: 5, overdueNow: 2, openAtEnd: { current: 1, previous: 0 } });
    expect(r.body.ageBuckets).toEqual([
      { bucket: '0-7', count: 1 },
      { bucket: '8-30', count: 1 },
      { bucket: '31-90', count: 1 },
      { bucket: '>90', count: 2 },
    ]);
    const open = Object.fromEntries(r.body.overTime.map((p: { day: string; open: number }) => [p.day.slice(8), p.open]));
    expect(r.body.overTime).toHaveLength(31);
    expect([open['01'], open['02'], open['04'], open['05'], open['06'], open['07'], open['08'], open['09'], open['10'], open['31']]).toEqual([0, 0, 0, 1, 0, 0, 1, 0, 1, 1]);
  });

  it('throughput: created and completed per ISO week, against the period before; filtered by asset', async () => {
    const r = await org.admin.get(`${B}/get-throughput?${MARCH}`);
    expect(r.status).toBe(200);
    expect(r.body.weeks).toEqual([
      { week: '2026-02-23', created: 0, completed: 0 },
      { week: '2026-03-02', created: 5, completed: 4 },
      { week: '2026-03-09', created: 1, completed: 0 },
      { week: '2026-03-16', created: 0, completed: 0 },
      { week: '2026-03-23', created: 0, completed: 0 },
      { week: '2026-03-30', created: 0, completed: 0 },
    ]);
    expect(r.body).toMatchObject({ created: { current: 6, previous: 1 }, completed: { current: 4, previous: 1 } });
    const p1 = await org.admin.get(`${B}/get-throughput?${MARCH}&assetId=${s.p1.id}`);
    expect(p1.body).toMatchObject({ created: { current: 4, previous: 0 }, completed: { current: 2, previous: 0 } });
  });

  it('MTTR of reactive work (mean, median; by asset category and team) and the assets with the shortest MTBF', async () => {
    const r = await org.admin.get(`${B}/get-repair-times?${MARCH}`);
    expect(r.status).toBe(200);
    expect(r.body.mttr.overall).toEqual({ count: 3, meanHours: 12.67, medianHours: 10 });
    expect(r.body.mttr.previous).toEqual({ count: 1, meanHours: 6, medianHours: 6 });
    expect(r.body.mttr.byAssetCategory).toEqual([
      { assetCategoryId: s.pumps.id, name: 'Pumps', count: 2, meanHours: 14, medianHours: 14 },
      { assetCategoryId: s.presses.id, name: 'Presses', count: 1, meanHours: 10, medianHours: 10 },
    ]);
    expect(r.body.mttr.byTeam).toEqual([{ teamId: s.team.id, name: 'Mechanics', count: 1, meanHours: 4, medianHours: 4 }]);
    expect(r.body.mtbf.worst).toEqual([{ assetId: s.p1.id, name: 'Pump P1', failures: 3, intervals: 2, mtbfHours: 78 }]);
    const team = await org.admin.get(`${B}/get-repair-times?${MARCH}&teamId=${s.team.id}`);
    expect(team.body.mttr.overall).toEqual({ count: 1, meanHours: 4, medianHours: 4 });
  });

  it('downtime: hours by reason category, per asset (availability loss) and work station; filtered by the person', async () => {
    const r = await org.admin.get(`${B}/get-downtime?${MARCH}`);
    expect(r.status).toBe(200);
    expect(r.body.byCategory).toEqual([
      { category: 'availability', blocking: true, hours: 2.75 },
      { category: 'productivity', blocking: false, hours: 1.5 },
      { category: 'quality', blocking: false, hours: 3.5 },
    ]);
    expect(r.body.byAsset).toEqual([
      { assetId: s.p1.id, name: 'Pump P1', availability: 2, performance: 0, quality: 3.5, productivity: 0, availabilityLoss: 0.0027 },
      { assetId: s.x1.id, name: 'Press X1', availability: 0.75, performance: 0, quality: 0, productivity: 0, availabilityLoss: 0.001 },
      { assetId: s.p2.id, name: 'Pump P2', availability: 0, performance: 0, quality: 0, productivity: 1.5, availabilityLoss: 0 },
    ]);
    expect(r.body.byWorkStation).toEqual([
      { workStationId: s.station.id, name: 'Hall 1', availability: 2, performance: 0, quality: 0, productivity: 1.5 },
      { workStationId: null, name: null, availability: 0.75, performance: 0, quality: 3.5, productivity: 0 },
    ]);
    expect(r.body.availabilityHours).toEqual({ current: 2.75, previous: 1 });
    const w2 = await org.admin.get(`${B}/get-downtime?${MARCH}&assigneeId=${s.w2.userId}`);
    expect(w2.body.byCategory).toEqual([{ category: 'quality', blocking: false, hours: 3.5 }]);
  });

  it('planned vs reactive share of orders and hours, and PM compliance from the plans', async () => {
    const r = await org.admin.get(`${B}/get-planned-share?${MARCH}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ plannedOrders: 1, reactiveOrders: 5, maintenanceOrders: 0, plannedHours: 1.5, reactiveHours: 6.25 });
    expect(r.body.plannedOrderShare).toEqual({ current: 1 / 6, previous: 0 });
    expect(r.body.plannedHourShare).toEqual({ current: 1.5 / 7.75, previous: 0 });
    const c = await org.admin.get(`${B}/get-pm-compliance?${MARCH}`);
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ source: 'plans', due: 1, onTime: 1, late: 0, missed: 0, rate: { current: 1, previous: null } });
  });

  it('cost: labour hours x hourly rate plus parts at their price, per asset, work station and month', async () => {
    const r = await org.admin.get(`${B}/get-costs?${MARCH}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ currency: 'USD', laborCost: 8500, partsCost: 2500, unratedHours: 3.5, total: { current: 11000, previous: 2000 } });
    expect(r.body.byAsset).toEqual([
      { assetId: s.p1.id, name: 'Pump P1', labor: 4000, parts: 2500, total: 6500 },
      { assetId: s.p2.id, name: 'Pump P2', labor: 3000, parts: 0, total: 3000 },
      { assetId: s.x1.id, name: 'Press X1', labor: 1500, parts: 0, total: 1500 },
    ]);
    expect(r.body.byWorkStation).toEqual([
      { workStationId: s.station.id, name: 'Hall 1', labor: 7000, parts: 2500, total: 9500 },
      { workStationId: null, name: null, labor: 1500, parts: 0, total: 1500 },
    ]);
    expect(r.body.byMonth).toEqual([{ month: '2026-03', labor: 8500, parts: 2500, total: 11000 }]);
    const hall = await org.admin.get(`${B}/get-costs?${MARCH}&workStationId=${s.station.id}`);
    expect(hall.body.total.current).toBe(9500);
  });

  it('a worker sees only their own view: 403 on the organisation figures, their own work and hours', async () => {
    for (const path of ['get-backlog', 'get-throughput', 'get-repair-times', 'get-downtime', 'get-planned-share', 'get-pm-compliance', 'get-costs']) {
      expect((await s.w1.get(`${B}/${path}?${MARCH}`)).status, path).toBe(403);
    }
    const mine = await s.w1.get(`${B}/get-my-work?${MARCH}`);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ openCount: 1, completed: 1, completedWithDue: 1, completedOnTime: 1 });
    expect(mine.body.open).toEqual([{ id: s.c.id, title: 'C', status: 'assigned', priority: 'medium', dueDate: '2026-03-12T00:00:00.000Z', overdue: true }]);
    expect(mine.body.hoursThisWeek).toEqual([{ reasonId: s.q.id, name: 'Rework', category: 'quality', hours: 1 }]);
    const other = await s.w2.get(`${B}/get-my-work?${MARCH}`);
    expect(other.body).toMatchObject({ openCount: 0, completed: 1, completedWithDue: 0, completedOnTime: 0, hoursThisWeek: [] });
  });

  it('another organisation sees none of it', async () => {
    const other = await createOrg(t, 'Other');
    const tp = await other.admin.get(`${B}/get-throughput?${MARCH}`);
    expect(tp.body).toMatchObject({ created: { current: 0, previous: 0 }, completed: { current: 0, previous: 0 } });
    const rt = await other.admin.get(`${B}/get-repair-times?${MARCH}&assetId=${s.p1.id}`);
    expect(rt.body.mtbf.worst).toEqual([]);
    expect(rt.body.mttr.overall.count).toBe(0);
    const cost = await other.admin.get(`${B}/get-costs?${MARCH}`);
    expect(cost.body).toMatchObject({ laborCost: 0, partsCost: 0, byAsset: [], byMonth: [] });
    const backlog = await other.admin.get(`${B}/get-backlog?${MARCH}`);
    expect(backlog.body).toMatchObject({ openNow: 0, overdueNow: 0 });
  });

  it('a status change keeps the closure: completing records its time, reopening removes it', async () => {
    const [w] = await withTenant(t.database.db, org.orgId, (tx) => tx.insert(workOrders).values({ orgId: org.orgId, title: 'Live' }).returning());
    const closure = () => withTenant(t.database.db, org.orgId, (tx) => tx.select().from(workOrderClosures).where(and(eq(workOrderClosures.orgId, org.orgId), eq(workOrderClosures.workOrderId, w.id))));
    expect(await closure()).toEqual([]);
    expect((await org.admin.put(`/api/work-orders/update-status/${w.id}`, { status: 'completed' })).status).toBe(200);
    const [row] = await closure();
    expect(row.status).toBe('completed');
    expect(Math.abs(row.closedAt.getTime() - Date.now())).toBeLessThan(60_000);
    expect((await org.admin.put(`/api/work-orders/update-status/${w.id}`, { status: 'in-progress' })).status).toBe(200);
    expect(await closure()).toEqual([]);
  });

  it('the hourly rate: a manager sets and clears it (minor units), a worker cannot set their own; cost follows it', async () => {
    const base = { firstName: 'Wim', email: (await org.admin.get(`/api/user/getCompanyUsers?name=Wim`)).body.users[0].email, role: 'worker' };
    const set = await org.admin.put(`/api/user/updateUser/${s.w2.userId}`, { ...base, hourlyRate: 3000 });
    expect(set.status).toBe(200);
    expect(set.body.user.hourlyRate).toBe(3000);
    const cost = await org.admin.get(`${B}/get-costs?${MARCH}`);
    expect(cost.body).toMatchObject({ laborCost: 8500 + 3.5 * 3000, unratedHours: 0 });
    expect((await org.admin.put(`/api/user/updateUser/${s.w2.userId}`, { ...base, hourlyRate: -1 })).status).toBe(400);
    expect((await s.w2.put(`/api/user/updateUser/${s.w2.userId}`, { ...base, hourlyRate: 9999 })).status).toBe(403);
    const kept = await s.w2.put(`/api/user/updateUser/${s.w2.userId}`, { ...base, jobTitle: 'Fitter' });
    expect(kept.body.user.hourlyRate).toBe(3000);
    // Rates are for managers: the people list and the preloaded workers show a worker none of them.
    const rateOf = (users: { id: number; hourlyRate: number | null }[]) => users.find((u) => u.id === s.w2.userId)?.hourlyRate;
    expect(rateOf((await org.admin.get('/api/user/getCompanyUsers?pageSize=100')).body.users)).toBe(3000);
    expect(rateOf((await s.w1.get('/api/user/getCompanyUsers?pageSize=100')).body.users)).toBeNull();
    expect(rateOf((await s.w1.get('/api/user/get-app-data')).body.workers)).toBeNull();
    // Nor does the person's history (open to every member) carry the amounts.
    const history = await s.w1.get(`/api/activities/user/${s.w2.userId}`);
    expect(history.status).toBe(200);
    expect(JSON.stringify(history.body)).not.toContain('hourlyRate');
    const cleared = await org.admin.put(`/api/user/updateUser/${s.w2.userId}`, { ...base, hourlyRate: null });
    expect(cleared.body.user.hourlyRate).toBeNull();
  });

  it('drill-down: the work orders list takes an asset filter from the URL', async () => {
    const r = await org.admin.get(`/api/work-orders/get-work-orders?assetId=${s.p1.id}&pageSize=50`);
    expect(r.status).toBe(200);
    expect(r.body.workOrders.map((w: { title: string }) => w.title).sort()).toEqual(['A', 'B', 'C', 'G']);
    expect(r.body.pagination.totalRecords).toBe(4);
    const open = await org.admin.get(`/api/work-orders/get-work-orders?assetId=${s.p1.id}&status=assigned`);
    expect(open.body.workOrders.map((w: { title: string }) => w.title)).toEqual(['C']);
  });

  it('refuses a custom range without dates, a range backwards, and a bad filter', async () => {
    expect((await org.admin.get(`${B}/get-backlog?range=custom`)).status).toBe(400);
    expect((await org.admin.get(`${B}/get-backlog?range=custom&from=2026-03-31&to=2026-03-01`)).status).toBe(400);
    expect((await org.admin.get(`${B}/get-backlog?assetId=abc`)).status).toBe(400);
    expect((await org.admin.get(`${B}/get-backlog?range=year`)).status).toBe(200);
  });
  it("cost: a contractor's time and parts (through a share) count at the rates they reported", async () => {
    const own = await createOrg(t);
    const order = await own.admin.post('/api/work-orders/add-work-order', { title: 'Lift service', instructions: '<p>Annual check</p>' });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const shared = await own.admin.post('/api/shared-work-orders/create-share', { workOrderId: order.body.workOrder.id, contractorName: 'Lift Co', email: 'tech@lift.example.com' });
    expect(shared.status, JSON.stringify(shared.body)).toBe(201);
    const q = `?token=${encodeURIComponent(new URL(shared.body.link).searchParams.get('token')!)}`;
    const time = await own.anonymous.post(`/api/shared-work-orders/add-shared-labor${q}`, { startTime: '2026-03-02T08:00:00.000Z', endTime: '2026-03-02T10:00:00.000Z', hourlyRate: 50 });
    expect(time.status, JSON.stringify(time.body)).toBe(201);
    const part = await own.anonymous.post(`/api/shared-work-orders/add-shared-part${q}`, { name: 'Door sensor', quantity: 3, unitPrice: 4 });
    expect(part.status, JSON.stringify(part.body)).toBe(201);
    // The time counts by its start (in March), the parts by the day they were added (today).
    const r = await own.admin.get(`${B}/get-costs?range=custom&from=2026-03-01&to=${new Date().toISOString().slice(0, 10)}`);
    expect(r.status).toBe(200);
    // 2 h x 50.00 and 3 x 4.00, in cents.
    expect(r.body).toMatchObject({ laborCost: 10000, partsCost: 1200, unratedHours: 0, total: { current: 11200 } });
  });
});
