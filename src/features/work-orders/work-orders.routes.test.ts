import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { withTenant } from '../../server/db/client';
import { assets, parts, timeTrackingReasons } from '../../server/db/schema';
import { createOrg, useTestApp, type Client, type TestOrg } from '../../server/test/harness';
import { sanitizeHtml } from '../../server/sanitize-html';
import { getStatistics } from './work-orders.service';
import type { AccessClaims } from '../auth/tokens';
import { setClockOffset } from '../../server/clock';
import { contractorLaborSchema } from '../work-order-shares/work-order-shares.schema';
import { laborInputSchema } from './work-orders.schema';
import { insertPartBasics, insertPumpsCategory } from '../../server/test/builders';

const t = useTestApp();

const BASE = '/api/work-orders';

/** Rows of other areas a work order points to, inserted directly (their services are built elsewhere). */
async function fixtures(org: TestOrg, tag = 'A') {
  return withTenant(t.database.db, org.orgId, async (tx) => {
    const orgId = org.orgId;
    const category = await insertPumpsCategory(tx, orgId, tag);
    const [asset] = await tx
      .insert(assets)
      .values({ orgId, name: `Boiler Feed Pump ${tag}`, date: '2024-01-15', assetCategoryId: category.id })
      .returning();
    const { productCategory: pc, each: uom } = await insertPartBasics(tx, orgId, tag);
    // Consumable: these tests are about the lines, not stock (a stockable part's line takes stock, decision 071).
    const base = { orgId, type: 'consumable' as const, categoryId: pc.id, unitOfMeasureId: uom.id, purchaseUnitOfMeasureId: uom.id };
    const [bearing] = await tx
      .insert(parts)
      .values({ ...base, name: `Bearing 6204 ${tag}`, salesPrice: 12.5 })
      .returning();
    const [grease] = await tx
      .insert(parts)
      .values({ ...base, name: `Grease cartridge ${tag}`, salesPrice: 7.25 })
      .returning();
    const [repair] = await tx
      .insert(timeTrackingReasons)
      .values({ orgId, name: `Repair ${tag}`, type: 'productivity' })
      .returning();
    const [waiting] = await tx
      .insert(timeTrackingReasons)
      .values({ orgId, name: `Waiting for parts ${tag}`, type: 'availability', isBlockingReason: true })
      .returning();
    return { asset, bearing, grease, repair, waiting };
  });
}

async function addOrder(c: Client, body: Record<string, unknown> = {}) {
  const res = await c.post(`${BASE}/add-work-order`, { title: 'Replace pump seal', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.workOrder as { id: number; workOrderId: string; status: string; [k: string]: unknown };
}

const issue = (res: { body: { issues?: { path: string; message: string }[] } }, path: string) => res.body.issues?.find((i) => i.path === path)?.message;

describe('work orders: add, get, update, status, delete', () => {
  it('adds an order with WO-0001, defaults, the refreshed list and the success message', async () => {
    const org = await createOrg(t);
    const { asset } = await fixtures(org);
    const worker = await org.as('worker', { firstName: 'Marcus', lastName: 'Lee' });
    const res = await org.admin.post(`${BASE}/add-work-order?page=1&pageSize=10`, {
      title: '  Replace pump seal  ',
      duration: '02:30',
      priority: 'high',
      startDate: '2030-05-01T08:00:00.000Z',
      endDate: '2030-05-01T10:30:00.000Z',
      dueDate: '2030-05-02T17:00:00.000Z',
      instructions: '<p>Isolate <strong>power</strong></p><script>alert(1)</script><img src=x onerror=alert(1)>',
      assetId: asset.id,
      assignees: [worker.userId],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe('Work order added successfully');
    const wo = res.body.workOrder;
    expect(wo).toMatchObject({
      id: 1,
      workOrderId: 'WO-0001',
      title: 'Replace pump seal',
      duration: '02:30',
      status: 'assigned',
      priority: 'high',
      startDate: '2030-05-01T08:00:00.000Z',
      endDate: '2030-05-01T10:30:00.000Z',
      dueDate: '2030-05-02T17:00:00.000Z',
      instructions: '<p>Isolate <strong>power</strong></p>',
      asset: { id: asset.id, name: 'Boiler Feed Pump A' },
      assignees: [{ id: worker.userId, firstName: 'Marcus', lastName: 'Lee' }],
    });
    expect(typeof wo.createdAt).toBe('string');
    expect(res.body.workOrders).toHaveLength(1);
    expect(res.body.pagination).toEqual({ totalRecords: 1, currentPage: 1, totalPages: 1 });

    const second = await addOrder(org.admin, { title: 'Grease conveyor bearings' });
    expect(second).toMatchObject({ workOrderId: 'WO-0002', status: 'assigned', priority: 'medium', duration: null, asset: null, assignees: [] });
    // Several assignees come by first name, in the list as in the order, each order with its own.
    const anna = await org.as('worker', { firstName: 'Anna', lastName: 'Berg' });
    const third = await addOrder(org.admin, { title: 'Two people', assignees: [worker.userId, anna.userId] });
    const pair = [
      { id: anna.userId, firstName: 'Anna', lastName: 'Berg' },
      { id: worker.userId, firstName: 'Marcus', lastName: 'Lee' },
    ];
    expect(third.assignees).toEqual(pair);
    const listed = (await org.admin.get(`${BASE}/get-work-orders`)).body.workOrders.map((w: { assignees: unknown }) => w.assignees);
    expect(listed).toEqual([pair, [], [{ id: worker.userId, firstName: 'Marcus', lastName: 'Lee' }]]);
    await org.admin.del(`${BASE}/delete-work-order/3`);

    const got = await org.admin.get(`${BASE}/get-work-order/1`);
    expect(got.status).toBe(200);
    expect(got.body.workOrder).toEqual(wo);
    expect((await org.admin.get(`${BASE}/get-work-order/999`)).status).toBe(404);
    expect((await org.admin.get(`${BASE}/get-work-order/abc`)).status).toBe(400);
  });

  it('validates with the spec messages', async () => {
    const org = await createOrg(t);
    for (const body of [{}, { title: '' }, { title: '   ' }]) {
      const res = await org.admin.post(`${BASE}/add-work-order`, body);
      expect(res.status).toBe(400);
      expect(issue(res, 'title')).toBe('Work Order Title is required');
    }
    const bad = await org.admin.post(`${BASE}/add-work-order`, {
      title: 'X',
      duration: '2h',
      priority: 'extreme',
      status: 'done',
      dueDate: 'soon',
      assetId: 'x',
    });
    expect(bad.status).toBe(400);
    expect(issue(bad, 'duration')).toBe('Duration must be in HH:MM format');
    expect(issue(bad, 'priority')).toBe('Priority must be one of lowest, low, medium, high, critical');
    expect(issue(bad, 'status')).toBe('Status must be one of assigned, in-progress, completed, cancelled');
    expect(issue(bad, 'dueDate')).toBe('Due date must be a valid date');
    expect(issue(bad, 'assetId')).toBe('Asset is invalid');
    const order = await org.admin.post(`${BASE}/add-work-order`, { title: 'X', startDate: '2030-01-02T00:00:00Z', endDate: '2030-01-01T00:00:00Z' });
    expect(issue(order, 'endDate')).toBe('End time must be after start time');
    const extra = await org.admin.post(`${BASE}/add-work-order`, { title: 'X', orgId: 5 });
    expect(extra.status).toBe(400);
    const empties = await org.admin.post(`${BASE}/add-work-order`, {
      title: 'Optional fields empty',
      duration: '',
      priority: '',
      dueDate: '',
      startDate: null,
      instructions: '',
      assetId: null,
      assignees: [],
    });
    expect(empties.status, JSON.stringify(empties.body)).toBe(201);
  });

  it('accepts the spec’s other spellings and stores the canonical values', async () => {
    const org = await createOrg(t);
    expect((await addOrder(org.admin, { status: 'pending' })).status).toBe('assigned');
    expect((await addOrder(org.admin, { status: 'finished' })).status).toBe('completed');
    expect((await addOrder(org.admin, { priority: 'urgent' })).priority).toBe('critical');
    const wo = await addOrder(org.admin);
    for (const [sent, stored] of [
      ['in-progress', 'in-progress'],
      ['finished', 'completed'],
      ['pending', 'assigned'],
      ['cancelled', 'cancelled'],
      ['completed', 'completed'],
    ]) {
      const res = await org.admin.put(`${BASE}/update-status/${wo.id}`, { status: sent });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.order.status).toBe(stored);
      expect(res.body.message).toBe('Work order status updated successfully');
    }
    const bad = await org.admin.put(`${BASE}/update-status/${wo.id}`, { status: 'paused' });
    expect(bad.status).toBe(400);
    expect((await org.admin.put(`${BASE}/update-status/999`, { status: 'assigned' })).status).toBe(404);
    const list = await org.admin.get(`${BASE}/get-work-orders?status=pending`);
    expect(list.body.workOrders.map((w: { status: string }) => w.status)).toEqual(['assigned', 'assigned']);
  });

  it('updates an order, records the history, and deletes it with its labour and parts (managers)', async () => {
    const org = await createOrg(t);
    const { asset, bearing, repair } = await fixtures(org);
    const wo = await addOrder(org.admin, { priority: 'low' });
    const upd = await org.admin.put(`${BASE}/update-work-order/${wo.id}`, {
      title: 'Replace pump seal and gasket',
      priority: 'high',
      assetId: asset.id,
      duration: '01:15',
    });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body.message).toBe('Work order updated successfully');
    expect(upd.body.workOrder).toMatchObject({
      id: wo.id,
      title: 'Replace pump seal and gasket',
      priority: 'high',
      asset: { id: asset.id },
      duration: '01:15',
      status: 'assigned',
    });
    const empty = await org.admin.put(`${BASE}/update-work-order/${wo.id}`, { title: '' });
    expect(issue(empty, 'title')).toBe('Work Order Title is required');
    expect((await org.admin.put(`${BASE}/update-work-order/999`, { title: 'x' })).status).toBe(404);

    await org.admin.put(`${BASE}/update-status/${wo.id}`, { status: 'in-progress' });
    const history = await org.admin.get(`/api/activities/work-order/${wo.id}`);
    expect(history.status).toBe(200);
    const actions = history.body.activities.map((a: { action: string }) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['created', 'updated', 'status']));
    const updated = history.body.activities.find((a: { action: string }) => a.action === 'updated');
    expect(updated.changes.title).toEqual({ from: 'Replace pump seal', to: 'Replace pump seal and gasket' });

    await org.admin.post(`${BASE}/add-labor/${wo.id}`, { startTime: '2026-01-01T08:00:00Z', endTime: '2026-01-01T09:00:00Z', reason: repair.id });
    await org.admin.post(`${BASE}/add-parts/${wo.id}`, { parts: [bearing.id] });
    const manager = await org.as('manager');
    const keep = await addOrder(org.admin, { title: 'Keep me' });
    const del = await manager.del(`${BASE}/delete-work-order/${wo.id}?page=1&pageSize=10`);
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body.message).toBe('Work order deleted successfully');
    expect(del.body.workOrders.map((w: { id: number }) => w.id)).toEqual([keep.id]);
    expect(del.body.pagination).toEqual({ totalRecords: 1, currentPage: 1, totalPages: 1 });
    expect((await org.admin.get(`${BASE}/get-work-order/${wo.id}`)).status).toBe(404);
    expect((await org.admin.del(`${BASE}/delete-work-order/${wo.id}`)).status).toBe(404);
  });

  it('refuses another organisation’s asset, assignee, part and reason ids in bodies', async () => {
    const a = await createOrg(t, 'A');
    const b = await createOrg(t, 'B');
    await fixtures(a, 'A');
    const fb = await fixtures(b, 'B');
    // Ids in B that do not exist in A (A has fewer rows): B's second rows.
    const bWorker = await b.as('worker');
    const asset = await a.admin.post(`${BASE}/add-work-order`, { title: 'X', assetId: fb.asset.id + 1 });
    expect(asset.status).toBe(400);
    expect(issue(asset, 'assetId')).toBe('Asset not found');
    const person = await a.admin.post(`${BASE}/add-work-order`, { title: 'X', assignees: [bWorker.userId] });
    expect(person.status).toBe(400);
    expect(issue(person, 'assignees')).toBe('Assignee not found');
    const wo = await addOrder(a.admin);
    const part = await a.admin.post(`${BASE}/add-parts/${wo.id}`, { parts: [fb.grease.id + 5] });
    expect(part.status).toBe(400);
    expect(issue(part, 'parts')).toBe('Part not found');
    const reason = await a.admin.post(`${BASE}/add-labor/${wo.id}`, {
      startTime: '2026-01-01T08:00:00Z',
      endTime: '2026-01-01T09:00:00Z',
      reason: fb.waiting.id + 5,
    });
    expect(reason.status).toBe(400);
    expect(issue(reason, 'reason')).toBe('Reason is required');
    expect((await a.admin.get(`${BASE}/get-work-orders`)).body.pagination.totalRecords).toBe(1);
  });
});

describe('work orders: list, filters, pagination, statistics', () => {
  it('pages, filters by status (repeated or comma separated) and title, and counts exactly', async () => {
    const org = await createOrg(t);
    for (let i = 1; i <= 23; i++) {
      await addOrder(org.admin, {
        title: i % 5 === 0 ? `Inspect HVAC unit ${i}` : `Lubricate conveyor ${i}`,
        status: i % 3 === 0 ? 'completed' : i % 3 === 1 ? 'assigned' : 'in-progress',
      });
    }
    const p1 = await org.admin.get(`${BASE}/get-work-orders`);
    expect(p1.status).toBe(200);
    expect(p1.body.workOrders).toHaveLength(10);
    expect(p1.body.workOrders[0].workOrderId).toBe('WO-0023');
    expect(p1.body.pagination).toEqual({ totalRecords: 23, currentPage: 1, totalPages: 3 });
    const p3 = await org.admin.get(`${BASE}/get-work-orders?page=3&pageSize=10`);
    expect(p3.body.workOrders.map((w: { id: number }) => w.id)).toEqual([3, 2, 1]);
    expect(p3.body.pagination).toEqual({ totalRecords: 23, currentPage: 3, totalPages: 3 });
    const p25 = await org.admin.get(`${BASE}/get-work-orders?pageSize=25`);
    expect(p25.body.pagination).toEqual({ totalRecords: 23, currentPage: 1, totalPages: 1 });
    const beyond = await org.admin.get(`${BASE}/get-work-orders?page=9`);
    expect(beyond.body.workOrders).toEqual([]);
    expect(beyond.body.pagination).toEqual({ totalRecords: 23, currentPage: 9, totalPages: 3 });
    const beyondStatus = await org.admin.get(`${BASE}/get-work-orders?status=completed&page=9`);
    expect(beyondStatus.body.pagination).toEqual({ totalRecords: 7, currentPage: 9, totalPages: 1 });
    expect((await org.admin.get(`${BASE}/get-work-orders?pageSize=7`)).status).toBe(400);
    expect((await org.admin.get(`${BASE}/get-work-orders?page=0`)).status).toBe(400);
    expect((await org.admin.get(`${BASE}/get-work-orders?status=paused`)).status).toBe(400);

    const completed = await org.admin.get(`${BASE}/get-work-orders?status=completed&pageSize=25`);
    expect(completed.body.pagination.totalRecords).toBe(7);
    expect(completed.body.workOrders.every((w: { status: string }) => w.status === 'completed')).toBe(true);
    const two = await org.admin.get(`${BASE}/get-work-orders?status=completed&status=assigned&pageSize=25`);
    const comma = await org.admin.get(`${BASE}/get-work-orders?status=completed,assigned&pageSize=25`);
    expect(two.body.pagination.totalRecords).toBe(15);
    expect(comma.body).toEqual(two.body);
    const title = await org.admin.get(`${BASE}/get-work-orders?title=hvac`);
    expect(title.body.workOrders.map((w: { id: number }) => w.id)).toEqual([20, 15, 10, 5]);
    expect(title.body.pagination).toEqual({ totalRecords: 4, currentPage: 1, totalPages: 1 });
    const both = await org.admin.get(`${BASE}/get-work-orders?title=HVAC&status=completed`);
    expect(both.body.workOrders.map((w: { id: number }) => w.id)).toEqual([15]);
    expect(both.body.pagination.totalRecords).toBe(1);
    expect((await org.admin.get(`${BASE}/get-work-orders?title=%25`)).body.pagination.totalRecords).toBe(0);
    // A title search's total: counted when the page is full, read off a partial page, counted again past the end.
    for (const page of [1, 2, 5]) {
      const res = await org.admin.get(`${BASE}/get-work-orders?title=conveyor&page=${page}`);
      expect(res.body.pagination).toEqual({ totalRecords: 19, currentPage: page, totalPages: 2 });
      expect(res.body.workOrders).toHaveLength(page === 1 ? 10 : page === 2 ? 9 : 0);
    }

    // The totals follow status changes and deletions.
    await org.admin.put(`${BASE}/update-status/1`, { status: 'completed' });
    await org.admin.put(`${BASE}/update-work-order/2`, { title: 'Lubricate conveyor 2', status: 'completed' });
    await org.admin.del(`${BASE}/delete-work-order/3`);
    const after = await org.admin.get(`${BASE}/get-work-orders?status=completed`);
    expect(after.body.pagination.totalRecords).toBe(8);
    expect((await org.admin.get(`${BASE}/get-work-orders`)).body.pagination.totalRecords).toBe(22);
  });

  // 10,500 inserted orders, each through the per-organisation id trigger: a minute on a busy PGlite.
  it('counts every total exactly, ten thousand matches included (decision 086)', { timeout: 120_000 }, async () => {
    const org = await createOrg(t);
    const insert = (n: number, title: string, status: string) =>
      withTenant(t.database.db, org.orgId, (tx) =>
        tx.execute(sql`insert into work_orders (org_id, title, status) select ${org.orgId}, ${title} || ' ' || g, ${status} from generate_series(1, ${n}) g`),
      );
    const total = async (query: string) => (await org.admin.get(`${BASE}/get-work-orders?${query}`)).body.pagination.totalRecords;
    await insert(1_200, 'Replace seal', 'assigned');
    await insert(300, 'Inspect valve', 'completed');
    expect(await total('title=seal')).toBe(1_200);
    expect(await total('title=seal&page=2')).toBe(1_200);
    expect(await total('title=inspect&status=completed')).toBe(300);
    expect(await total('title=inspect&status=assigned')).toBe(0);

    await insert(9_000, 'Lubricate chain', 'assigned');
    await t.database.db.execute(sql`analyze work_orders`);
    // 10,500 orders: a rare match and a common one, both exact.
    expect(await total('title=inspect')).toBe(300);
    expect(await total('title=inspect&page=9')).toBe(300);
    expect(await total('title=seal')).toBe(1_200);
    expect(await total('title=lubricate')).toBe(9_000);
    expect(await total('title=lubricate&page=3')).toBe(9_000);
    expect(await total('status=assigned')).toBe(10_200);
  });

  it('computes the three cards for the organisation', async () => {
    const org = await createOrg(t);
    const day = 86_400_000;
    const inDays = (d: number) => new Date(Date.now() + d * day).toISOString();
    await addOrder(org.admin, { priority: 'high', dueDate: inDays(2) }); // pending, high, due soon
    await addOrder(org.admin, { priority: 'high' }); // pending, high
    await addOrder(org.admin, { priority: 'high', status: 'in-progress', dueDate: inDays(6.5) }); // due soon, not pending
    await addOrder(org.admin, { priority: 'low', dueDate: inDays(10) }); // pending, not due soon
    await addOrder(org.admin, { priority: 'critical', dueDate: inDays(-1) }); // pending, overdue
    await addOrder(org.admin, { priority: 'high', status: 'completed', dueDate: inDays(1) }); // closed
    await addOrder(org.admin, { priority: 'medium', status: 'cancelled', dueDate: inDays(3) }); // closed
    const other = await createOrg(t);
    await addOrder(other.admin, { priority: 'high', dueDate: inDays(1) });
    const res = await org.admin.get(`${BASE}/get-statistics`);
    expect(res.status).toBe(200);
    expect(res.body.statistics).toEqual({ totalPending: 4, dueNext7Days: 2, highPriorityPending: 2 });
    expect(res.body.totalPending).toBe(4);
    const worker = await org.as('worker');
    expect((await worker.get(`${BASE}/get-statistics`)).body.statistics).toEqual({ totalPending: 0, dueNext7Days: 0, highPriorityPending: 0 });
    // The cards follow a priority change, a status change and a delete.
    await org.admin.put(`${BASE}/update-work-order/4`, { title: 'Raised', priority: 'high' });
    await org.admin.put(`${BASE}/update-status/1`, { status: 'completed' });
    await org.admin.del(`${BASE}/delete-work-order/2`);
    expect((await org.admin.get(`${BASE}/get-statistics`)).body.statistics).toEqual({ totalPending: 2, dueNext7Days: 1, highPriorityPending: 1 });
  });
});

describe("work orders: 'Due in Next 7 Days'", () => {
  it('counts exactly at every edge of the window, through edits, status changes and deletes, per organisation', async () => {
    const org = await createOrg(t);
    const other = await createOrg(t);
    const hour = 3_600_000;
    // Mid-day, so the window has a part day at each end and six whole days between.
    const now = new Date(Date.UTC(2031, 2, 10, 15, 30));
    const at = (hours: number) => new Date(now.getTime() + hours * hour).toISOString();
    // Just before, at and after each edge: the window's start, the first whole day, the last part day, its end.
    const edges = [-0.01, 0, 0.01, 8.49, 8.5, 8.51, 24, 100, 152.49, 152.5, 152.51, 167.99, 168, 168.01, 200];
    for (const h of edges) await addOrder(org.admin, { dueDate: at(h) });
    await addOrder(org.admin, { dueDate: at(30), status: 'in-progress' });
    await addOrder(org.admin, { dueDate: at(31), status: 'completed' });
    await addOrder(org.admin, { dueDate: at(32), status: 'cancelled' });
    await addOrder(org.admin); // no due date
    await addOrder(other.admin, { dueDate: at(50) });
    const manager = { orgId: org.orgId, userId: 1, role: 'admin' as const } as AccessClaims;
    const cards = () => withTenant(t.database.db, org.orgId, (tx) => getStatistics(tx, org.orgId, manager, now), { readOnly: true });
    // The same window counted row by row, for comparison.
    const direct = async () =>
      (await org.admin.get(`${BASE}/get-work-orders?page=1&pageSize=100`)).body.workOrders.filter(
        (o: { dueDate: string | null; status: string }) =>
          o.dueDate &&
          ['assigned', 'in-progress'].includes(o.status) &&
          new Date(o.dueDate) >= now &&
          new Date(o.dueDate).getTime() < now.getTime() + 168 * hour,
      ).length;
    expect((await cards()).dueNext7Days).toBe(12); // the eleven edges from 0 to 167.99 h, and the one in progress
    expect((await cards()).dueNext7Days).toBe(await direct());
    // Moved out of the window, into it, closed, reopened, deleted: the card follows.
    await org.admin.put(`${BASE}/update-work-order/8`, { title: 'Moved', dueDate: at(300) }); // 100 h -> out
    await org.admin.put(`${BASE}/update-work-order/15`, { title: 'Moved', dueDate: at(60) }); // 200 h -> in
    await org.admin.put(`${BASE}/update-status/7`, { status: 'completed' }); // 24 h -> closed
    await org.admin.put(`${BASE}/update-status/18`, { status: 'assigned' }); // cancelled at 32 h -> open again
    await org.admin.del(`${BASE}/delete-work-order/16`); // in progress at 30 h
    expect((await cards()).dueNext7Days).toBe(await direct());
    expect((await cards()).dueNext7Days).toBe(11);
    // At midnight: still exact.
    const midnight = new Date(Date.UTC(2031, 2, 11));
    const atMidnight = await withTenant(t.database.db, org.orgId, (tx) => getStatistics(tx, org.orgId, manager, midnight), { readOnly: true });
    expect(atMidnight.dueNext7Days).toBe(10); // 8.5 h to 168.01 h (the window now ends at 176.5 h), with 60 h and the reopened 32 h
  });
});

describe('work orders: labour', () => {
  it('logs, lists and deletes labour with the spec messages', async () => {
    const org = await createOrg(t);
    const { repair, waiting } = await fixtures(org);
    const wo = await addOrder(org.admin);
    const empty = await org.admin.get(`${BASE}/get-labors/${wo.id}`);
    expect(empty.status).toBe(200);
    expect(empty.body.labors).toEqual([]);

    const before = await org.admin.post(`${BASE}/add-labor/${wo.id}`, {
      startTime: '2026-01-01T10:00:00Z',
      endTime: '2026-01-01T09:00:00Z',
      reason: repair.id,
    });
    expect(before.status).toBe(400);
    expect(issue(before, 'endTime')).toBe('startTime must be before endTime');
    const same = await org.admin.post(`${BASE}/add-labor/${wo.id}`, { startTime: '2026-01-01T10:00:00Z', endTime: '2026-01-01T10:00:00Z', reason: repair.id });
    expect(issue(same, 'endTime')).toBe('startTime must be before endTime');
    for (const reason of [undefined, 0, -1, '', 'abc', 1.5]) {
      const res = await org.admin.post(`${BASE}/add-labor/${wo.id}`, {
        startTime: '2026-01-01T08:00:00Z',
        endTime: '2026-01-01T09:00:00Z',
        ...(reason === undefined ? {} : { reason }),
      });
      expect(res.status).toBe(400);
      expect(issue(res, 'reason')).toBe('Reason is required');
    }
    const missing = await org.admin.post(`${BASE}/add-labor/${wo.id}`, { reason: repair.id });
    expect(issue(missing, 'startTime')).toBe('Start time is required');
    expect(issue(missing, 'endTime')).toBe('End time is required');

    const ok = await org.admin.post(`${BASE}/add-labor/${wo.id}`, {
      startTime: '2026-01-01T08:00:00Z',
      endTime: '2026-01-01T10:30:00Z',
      reason: String(repair.id),
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.message).toBe('Work order labor added successfully');
    expect(ok.body.labor).toMatchObject({
      id: 1,
      workOrderId: wo.id,
      Worker: { firstName: expect.any(String), lastName: expect.any(String) },
      TimeTrackReason: { name: 'Repair A' },
      startDate: '2026-01-01T08:00:00.000Z',
      endDate: '2026-01-01T10:30:00.000Z',
    });
    expect(typeof ok.body.labor.createdAt).toBe('string');
    await org.admin.post(`${BASE}/add-labor/${wo.id}`, { startTime: '2026-01-01T11:00:00Z', endTime: '2026-01-01T11:45:00Z', reason: waiting.id });
    const list = await org.admin.get(`${BASE}/get-labors/${wo.id}`);
    expect(list.body.labors.map((l: { TimeTrackReason: { name: string } }) => l.TimeTrackReason.name)).toEqual(['Repair A', 'Waiting for parts A']);
    expect(list.body.workOrderLabors).toEqual(list.body.labors);

    const del = await org.admin.del(`${BASE}/delete-labor/${wo.id}/labor/1`);
    expect(del.status).toBe(200);
    expect(del.body.labors).toHaveLength(1);
    expect((await org.admin.del(`${BASE}/delete-labor/${wo.id}/labor/1`)).status).toBe(404);
    expect((await org.admin.get(`${BASE}/get-labors/999`)).status).toBe(404);
    expect(
      (await org.admin.post(`${BASE}/add-labor/999`, { startTime: '2026-01-01T08:00:00Z', endTime: '2026-01-01T09:00:00Z', reason: repair.id })).status,
    ).toBe(404);
  });

  it('lets a manager log time for a worker of the organisation', async () => {
    const org = await createOrg(t);
    const { repair } = await fixtures(org);
    const worker = await org.as('worker', { firstName: 'Sofia', lastName: 'Garcia' });
    const wo = await addOrder(org.admin);
    const res = await org.admin.post(`${BASE}/add-labor/${wo.id}`, {
      startTime: '2026-01-01T08:00:00Z',
      endTime: '2026-01-01T09:00:00Z',
      reason: repair.id,
      workerId: worker.userId,
    });
    expect(res.status).toBe(201);
    expect(res.body.labor.Worker).toMatchObject({ firstName: 'Sofia', lastName: 'Garcia' });
    const bad = await org.admin.post(`${BASE}/add-labor/${wo.id}`, {
      startTime: '2026-01-01T08:00:00Z',
      endTime: '2026-01-01T09:00:00Z',
      reason: repair.id,
      workerId: 999,
    });
    expect(bad.status).toBe(400);
  });
});

describe('work orders: parts', () => {
  it('attaches parts by id or with a quantity, once each, and deletes by part id', async () => {
    const org = await createOrg(t);
    const { bearing, grease } = await fixtures(org);
    const wo = await addOrder(org.admin);
    expect((await org.admin.get(`${BASE}/get-parts/${wo.id}`)).body).toEqual({ workOrderParts: [], partsReadiness: { status: 'none', shortages: [] } });
    const add = await org.admin.post(`${BASE}/add-parts/${wo.id}`, { parts: [bearing.id] });
    expect(add.status, JSON.stringify(add.body)).toBe(201);
    expect(add.body.workOrderParts).toEqual([
      {
        id: 1,
        workOrderId: wo.id,
        partId: bearing.id,
        Part: { id: bearing.id, name: 'Bearing 6204 A', salesPrice: 12.5 },
        quantity: 1,
        locationId: expect.any(Number),
        external: null,
      },
    ]);
    const more = await org.admin.post(`${BASE}/add-parts/${wo.id}`, { parts: [{ partId: grease.id, quantity: 3 }, { partId: bearing.id }] });
    expect(more.body.workOrderParts.map((p: { partId: number; quantity: number }) => [p.partId, p.quantity])).toEqual([
      [bearing.id, 2],
      [grease.id, 3],
    ]);
    for (const body of [{}, { parts: [] }, { parts: [0] }, { parts: [{ partId: bearing.id, quantity: 0 }] }, { parts: 'x' }]) {
      expect((await org.admin.post(`${BASE}/add-parts/${wo.id}`, body)).status).toBe(400);
    }
    const del = await org.admin.del(`${BASE}/delete-part/${wo.id}/part/${bearing.id}`);
    expect(del.status).toBe(200);
    expect(del.body.workOrderParts.map((p: { partId: number }) => p.partId)).toEqual([grease.id]);
    expect((await org.admin.del(`${BASE}/delete-part/${wo.id}/part/${bearing.id}`)).status).toBe(404);
    expect((await org.admin.get(`${BASE}/get-parts/999`)).status).toBe(404);
  });
});

describe('work orders: partial updates (issue 45)', () => {
  it('keeps the fields an update leaves out; an explicit null clears one', async () => {
    const org = await createOrg(t);
    const { asset } = await fixtures(org);
    const full = {
      title: 'Replace pump seal',
      priority: 'high',
      dueDate: '2026-05-01T12:00:00.000Z',
      startDate: '2026-04-01T08:00:00.000Z',
      assetId: asset.id,
      duration: '02:30',
      instructions: '<p>Drain first</p>',
    };
    const wo = await addOrder(org.admin, full);
    const kept = await org.admin.put(`${BASE}/update-work-order/${wo.id}`, { title: 'Replace the pump seal' });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body.workOrder).toMatchObject({ ...full, title: 'Replace the pump seal', endDate: null });
    // A left-out start keeps its value: an end before it is refused.
    const early = await org.admin.put(`${BASE}/update-work-order/${wo.id}`, { title: 'Replace the pump seal', endDate: '2026-03-01T08:00:00.000Z' });
    expect(early.status).toBe(400);
    expect(issue(early, 'endDate')).toBe('End time must be after start time');
    const cleared = await org.admin.put(`${BASE}/update-work-order/${wo.id}`, {
      title: 'Replace the pump seal',
      dueDate: null,
      assetId: null,
      duration: '',
      instructions: null,
    });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.workOrder).toMatchObject({
      priority: 'high',
      startDate: full.startDate,
      dueDate: null,
      assetId: null,
      duration: null,
      instructions: null,
    });
  });
});

describe('work orders: edits from an older copy (decision 057)', () => {
  it('each update route: a stale updatedAt is 409 with the current order and changes nothing, a malformed one 400, a missing one last writer wins', async () => {
    const org = await createOrg(t);
    const wo = await addOrder(org.admin, { dueDate: '2026-05-01T12:00:00.000Z' });
    const loaded = (await org.admin.get(`${BASE}/get-work-order/${wo.id}`)).body.workOrder;
    const first = await org.admin.put(`${BASE}/update-work-order/${wo.id}`, { title: 'First edit', updatedAt: loaded.updatedAt });
    expect(first.status).toBe(200);
    const routes: [string, Record<string, unknown>][] = [
      [`update-work-order/${wo.id}`, { title: 'Second edit' }],
      [`update-status/${wo.id}`, { status: 'in-progress' }],
      [`reschedule-work-order/${wo.id}`, { dueDate: '2027-06-01' }], // after the order's creation day (decision 064)
    ];
    for (const [path, body] of routes) {
      const stale = await org.admin.put(`${BASE}/${path}`, { ...body, updatedAt: loaded.updatedAt });
      expect(stale.status, path).toBe(409);
      expect(stale.body).toMatchObject({ error: 'This record was changed by someone else', current: { title: 'First edit', status: 'assigned' } });
      const odd = await org.admin.put(`${BASE}/${path}`, { ...body, updatedAt: 'yesterday' });
      expect(odd.status, path).toBe(400);
      expect(issue(odd, 'updatedAt')).toBe('Invalid updatedAt');
    }
    expect((await org.admin.get(`${BASE}/get-work-order/${wo.id}`)).body.workOrder).toMatchObject({
      title: 'First edit',
      status: 'assigned',
      dueDate: '2026-05-01T12:00:00.000Z',
    });
    // Left out (an API client following the spec's bodies): the edit is taken, last writer wins.
    for (const [path, body] of routes) expect((await org.admin.put(`${BASE}/${path}`, body)).status, path).toBe(200);
    expect((await org.admin.get(`${BASE}/get-work-order/${wo.id}`)).body.workOrder).toMatchObject({
      title: 'Second edit',
      status: 'in-progress',
      dueDate: '2027-06-01T12:00:00.000Z',
    });
  });
});

describe('work orders: bounded lines (issue 45)', () => {
  it('a time entry lasts at most 24 hours; a part line holds at most 100,000 and costs at most 10^10 minor units, however often it is added', async () => {
    const org = await createOrg(t);
    const { repair, bearing } = await fixtures(org);
    const wo = await addOrder(org.admin);
    const [gold] = await withTenant(t.database.db, org.orgId, async (tx) => {
      const [b] = await tx
        .select()
        .from(parts)
        .where(sql`${parts.orgId} = ${org.orgId} and ${parts.id} = ${bearing.id}`);
      return tx
        .insert(parts)
        .values({ ...b, id: undefined, name: 'Gold turbine', salesPrice: 1_000_000 })
        .returning();
    });
    const centuries = await org.admin.post(`${BASE}/add-labor/${wo.id}`, {
      startTime: '1900-01-01T00:00:00Z',
      endTime: '9999-12-31T23:59:00Z',
      reason: repair.id,
    });
    expect(centuries.status).toBe(400);
    expect(issue(centuries, 'endTime')).toBe('A time entry can be at most 24 hours');
    expect(
      (await org.admin.post(`${BASE}/add-labor/${wo.id}`, { startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-02T00:00:00Z', reason: repair.id })).status,
    ).toBe(201);

    // Ending in the future (past a phone's clock skew of 5 minutes) is refused, as a contractor's time is (issue 45).
    const at = (minutesFromNow: number) => new Date(Date.now() + minutesFromNow * 60_000).toISOString();
    const future = await org.admin.post(`${BASE}/add-labor/${wo.id}`, { startTime: at(-50), endTime: at(10), reason: repair.id });
    expect(future.status).toBe(400);
    expect(issue(future, 'endTime')).toBe('End time cannot be in the future');
    expect((await org.admin.post(`${BASE}/add-labor/${wo.id}`, { startTime: at(-58), endTime: at(2), reason: repair.id })).status).toBe(201);
    // The form says so with the same schema (the phone's checks too), and so does the contractor's.
    expect(laborInputSchema.safeParse({ startTime: at(-50), endTime: at(10), reason: repair.id }).error?.issues).toEqual([
      expect.objectContaining({ path: ['endTime'], message: 'End time cannot be in the future' }),
    ]);
    expect(contractorLaborSchema.safeParse({ startTime: at(-50), endTime: at(10), hourlyRate: 10 }).error?.issues).toEqual([
      expect.objectContaining({ path: ['endTime'], message: 'End time cannot be in the future' }),
    ]);
    // The server's clock decides in the end: an hour behind, an entry ending now ends in its future.
    setClockOffset(-3_600_000);
    try {
      const ahead = await org.admin.post(`${BASE}/add-labor/${wo.id}`, { startTime: at(-30), endTime: at(-1), reason: repair.id });
      expect(issue(ahead, 'endTime')).toBe('End time cannot be in the future');
    } finally {
      setClockOffset(0);
    }

    expect((await org.admin.post(`${BASE}/add-parts/${wo.id}`, { parts: [{ partId: bearing.id, quantity: 100_001 }] })).status).toBe(400);
    expect((await org.admin.post(`${BASE}/add-parts/${wo.id}`, { parts: [{ partId: bearing.id, quantity: 60_000 }] })).status).toBe(201);
    // Adding again adds up: past 100,000 on the line is refused and the line stays as it was.
    const again = await org.admin.post(`${BASE}/add-parts/${wo.id}`, { parts: [{ partId: bearing.id, quantity: 60_000 }] });
    expect(again.status).toBe(400);
    expect(issue(again, 'parts')).toBe('Bearing 6204 A: the quantity on a work order must be at most 100000');
    // 1,000,000.00 x 101 = 10,100,000,000 cents: over a line's bound.
    const costly = await org.admin.post(`${BASE}/add-parts/${wo.id}`, { parts: [{ partId: gold.id, quantity: 101 }] });
    expect(costly.status).toBe(400);
    expect(issue(costly, 'parts')).toBe('Gold turbine: quantity × sales price must be at most 100000000');
    const list = (await org.admin.get(`${BASE}/get-parts/${wo.id}`)).body.workOrderParts;
    expect(list.map((p: { partId: number; quantity: number }) => [p.partId, p.quantity])).toEqual([[bearing.id, 60_000]]);
    expect((await org.admin.post(`${BASE}/add-parts/${wo.id}`, { parts: [{ partId: gold.id, quantity: 100 }] })).status).toBe(201);
  });
});

describe('work orders: roles', () => {
  it('workers see and act only on the orders assigned to them, and log only their own time', async () => {
    const org = await createOrg(t);
    const { repair, bearing } = await fixtures(org);
    const worker = await org.as('worker');
    const colleague = await org.as('worker');
    const mine = await addOrder(org.admin, { title: 'Mine', assignees: [worker.userId], priority: 'high' });
    const theirs = await addOrder(org.admin, { title: 'Theirs', assignees: [colleague.userId] });

    const list = await worker.get(`${BASE}/get-work-orders`);
    expect(list.body.workOrders.map((w: { id: number }) => w.id)).toEqual([mine.id]);
    expect(list.body.pagination.totalRecords).toBe(1);
    expect((await worker.get(`${BASE}/get-work-orders?status=assigned`)).body.pagination.totalRecords).toBe(1);
    expect((await worker.get(`${BASE}/get-statistics`)).body.statistics).toEqual({ totalPending: 1, dueNext7Days: 0, highPriorityPending: 1 });
    expect((await worker.get(`${BASE}/get-work-order/${mine.id}`)).status).toBe(200);
    expect((await worker.get(`${BASE}/get-work-order/${theirs.id}`)).status).toBe(404);
    expect((await worker.put(`${BASE}/update-status/${theirs.id}`, { status: 'in-progress' })).status).toBe(404);
    expect((await worker.get(`${BASE}/get-labors/${theirs.id}`)).status).toBe(404);
    expect((await worker.post(`${BASE}/add-parts/${theirs.id}`, { parts: [bearing.id] })).status).toBe(404);

    expect((await worker.post(`${BASE}/add-work-order`, { title: 'Nope' })).status).toBe(403);
    expect((await worker.del(`${BASE}/delete-work-order/${mine.id}`)).status).toBe(403);
    expect((await worker.put(`${BASE}/update-status/${mine.id}`, { status: 'in-progress' })).body.order.status).toBe('in-progress');
    const edit = await worker.put(`${BASE}/update-work-order/${mine.id}`, { title: 'Mine, edited', assignees: [worker.userId] });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect((await worker.put(`${BASE}/update-work-order/${mine.id}`, { title: 'Mine', assignees: [colleague.userId] })).status).toBe(403);

    const own = await worker.post(`${BASE}/add-labor/${mine.id}`, { startTime: '2026-01-01T08:00:00Z', endTime: '2026-01-01T09:00:00Z', reason: repair.id });
    expect(own.status).toBe(201);
    expect(own.body.labor.workerId).toBe(worker.userId);
    const forOther = await worker.post(`${BASE}/add-labor/${mine.id}`, {
      startTime: '2026-01-01T08:00:00Z',
      endTime: '2026-01-01T09:00:00Z',
      reason: repair.id,
      workerId: colleague.userId,
    });
    expect(forOther.status).toBe(403);
    const managers = await org.admin.post(`${BASE}/add-labor/${mine.id}`, {
      startTime: '2026-01-01T10:00:00Z',
      endTime: '2026-01-01T11:00:00Z',
      reason: repair.id,
    });
    expect((await worker.del(`${BASE}/delete-labor/${mine.id}/labor/${managers.body.labor.id}`)).status).toBe(403);
    expect((await worker.del(`${BASE}/delete-labor/${mine.id}/labor/${own.body.labor.id}`)).status).toBe(200);
    expect((await worker.post(`${BASE}/add-parts/${mine.id}`, { parts: [bearing.id] })).status).toBe(201);
    expect((await worker.get(`/api/user/get-app-data`)).body.workOrders.map((w: { id: number }) => w.id)).toEqual([mine.id]);
    expect((await org.admin.get(`/api/user/get-app-data`)).body.workOrders.map((w: { id: number }) => w.id)).toEqual([theirs.id, mine.id]);
    expect((await org.anonymous.get(`${BASE}/get-work-orders`)).status).toBe(401);
  });
});

describe('work orders: isolation', () => {
  it('another organisation reads, changes and deletes nothing: orders, labour and parts', async () => {
    const a = await createOrg(t, 'A');
    const b = await createOrg(t, 'B');
    const fa = await fixtures(a, 'A');
    const fb = await fixtures(b, 'B');
    const wo = await addOrder(a.admin, { title: 'A private order', assetId: fa.asset.id, priority: 'high' });
    await a.admin.post(`${BASE}/add-labor/${wo.id}`, { startTime: '2026-01-01T08:00:00Z', endTime: '2026-01-01T09:00:00Z', reason: fa.repair.id });
    await a.admin.post(`${BASE}/add-parts/${wo.id}`, { parts: [fa.bearing.id] });
    const snapshot = async () => ({
      order: (await a.admin.get(`${BASE}/get-work-order/${wo.id}`)).body,
      labors: (await a.admin.get(`${BASE}/get-labors/${wo.id}`)).body,
      parts: (await a.admin.get(`${BASE}/get-parts/${wo.id}`)).body,
      list: (await a.admin.get(`${BASE}/get-work-orders`)).body,
      stats: (await a.admin.get(`${BASE}/get-statistics`)).body,
    });
    const before = await snapshot();

    // B has no work order with this id: every call is a 404, whatever B sends.
    const labor = { startTime: '2026-01-01T08:00:00Z', endTime: '2026-01-01T09:00:00Z', reason: fb.repair.id };
    expect((await b.admin.get(`${BASE}/get-work-order/${wo.id}`)).status).toBe(404);
    expect((await b.admin.put(`${BASE}/update-work-order/${wo.id}`, { title: 'Hijacked' })).status).toBe(404);
    expect((await b.admin.put(`${BASE}/update-status/${wo.id}`, { status: 'cancelled' })).status).toBe(404);
    expect((await b.admin.get(`${BASE}/get-labors/${wo.id}`)).status).toBe(404);
    expect((await b.admin.post(`${BASE}/add-labor/${wo.id}`, labor)).status).toBe(404);
    expect((await b.admin.del(`${BASE}/delete-labor/${wo.id}/labor/1`)).status).toBe(404);
    expect((await b.admin.get(`${BASE}/get-parts/${wo.id}`)).status).toBe(404);
    expect((await b.admin.post(`${BASE}/add-parts/${wo.id}`, { parts: [fb.bearing.id] })).status).toBe(404);
    expect((await b.admin.del(`${BASE}/delete-part/${wo.id}/part/${fa.bearing.id}`)).status).toBe(404);
    expect((await b.admin.del(`${BASE}/delete-work-order/${wo.id}`)).status).toBe(404);
    const bList = await b.admin.get(`${BASE}/get-work-orders`);
    expect(bList.body).toEqual({ workOrders: [], pagination: { totalRecords: 0, currentPage: 1, totalPages: 1 } });
    expect((await b.admin.get(`${BASE}/get-statistics`)).body.statistics).toEqual({ totalPending: 0, dueNext7Days: 0, highPriorityPending: 0 });
    // A's token on B's host is refused.
    expect((await a.admin.get(`${BASE}/get-work-orders`, { host: b.host })).status).toBe(401);

    // B's own order 1 is B's, and B's ids never reach A's rows.
    const bOrder = await addOrder(b.admin, { title: 'B order' });
    expect(bOrder.id).toBe(1);
    await b.admin.post(`${BASE}/add-labor/${bOrder.id}`, labor);
    await b.admin.post(`${BASE}/add-parts/${bOrder.id}`, { parts: [fb.bearing.id] });
    await b.admin.del(`${BASE}/delete-labor/${bOrder.id}/labor/1`);
    await b.admin.del(`${BASE}/delete-part/${bOrder.id}/part/${fb.bearing.id}`);
    await b.admin.del(`${BASE}/delete-work-order/${bOrder.id}`);
    expect(await snapshot()).toEqual(before);
  });
});

describe('sanitizeHtml', () => {
  it.each([
    ['<p onclick="x()">Hi</p>', '<p>Hi</p>'],
    ['<script>alert(1)</script>ok', 'ok'],
    // A link whose href is refused stays as inert text.
    ['<a href="javascript:alert(1)">x</a>', '<a target="_blank" rel="noopener noreferrer nofollow">x</a>'],
    ['<a href="jav&#x61;script:alert(1)">x</a>', '<a target="_blank" rel="noopener noreferrer nofollow">x</a>'],
    ['<a href="//evil.example/x">x</a>', '<a target="_blank" rel="noopener noreferrer nofollow">x</a>'],
    ['<p>unclosed <b>bold', '<p>unclosed <b>bold</b></p>'],
    ['<a href="https://example.com/a?b=1&c=2">x</a>', '<a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer nofollow">x</a>'],
    ['<img src=x onerror=alert(1)><b>bold</b>', '<b>bold</b>'],
    ['<iframe src="//evil"></iframe><ul><li>one</li></ul>', '<ul><li>one</li></ul>'],
    ['1 < 2 & 3 > 2', '1 &lt; 2 &amp; 3 &gt; 2'],
    ['<style>body{}</style><!-- c --><h2 style="color:red">T</h2>', '<h2>T</h2>'],
  ])('%s', (input, output) => {
    expect(sanitizeHtml(input)).toBe(output);
  });
});
