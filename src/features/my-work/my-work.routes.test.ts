/**
 * The technician's own API (issue 27, decision 041): list-my-work reads my open orders with everything the
 * device keeps, page by page, and every reason; list-my-parts pages through every part; add-photo keeps a
 * photo on the work order (once per Idempotency-Key); deleting the order removes its photos' files; another
 * organisation gets 404 and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { solidImage } from '../../server/test/images';
import { eq } from 'drizzle-orm';
import { withTenant } from '../../server/db/client';
import { timeTrackingReasons, workOrderPhotos } from '../../server/db/schema';
import { createOrg, useTestApp, type Client } from '../../server/test/harness';
import { updatePart } from '../../server/test/builders';
import { multipart } from '../../server/test/fixtures';
import { catalogue } from '../maintenance-requests/test-fixtures';

const t = useTestApp();

const W = '/api/work-orders';
const M = '/api/my-work';

const jpeg = () => solidImage('jpeg', 64, 48, '#3366cc');
const addPhoto = async (c: Client, orderId: number, headers?: Record<string, string>) => {
  const bytes = await jpeg();
  if (!headers) return c.upload(`${M}/add-photo/${orderId}`, [{ field: 'image', name: 'pump.jpg', bytes, type: 'image/jpeg' }]);
  // the keyed call: the client's upload with the Idempotency-Key header
  const body = multipart([{ field: 'image', name: 'pump.jpg', bytes, type: 'image/jpeg' }]);
  const res = await t.app.inject({
    method: 'POST',
    url: `${M}/add-photo/${orderId}`,
    headers: { host: c.host, authorization: `Bearer ${c.token}`, ...body.headers, ...headers },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
};

async function setup() {
  const org = await createOrg(t);
  const worker = await org.as('worker', { firstName: 'Marcus', lastName: 'Lee' });
  const add = async (title: string, assignees: number[], extra: Record<string, unknown> = {}) => {
    const res = await org.admin.post(`${W}/add-work-order`, { title, assignees, ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.workOrder as { id: number; updatedAt: string };
  };
  return { org, worker, add };
}

describe('list-my-work', () => {
  it('pages through all my open orders (none dropped) with procedure, labour, parts and photos, and every reason', async () => {
    const { org, worker, add } = await setup();
    const other = await org.as('worker');
    // 105 reasons: more than any one page of the reasons list.
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .insert(timeTrackingReasons)
        .values(Array.from({ length: 105 }, (_, i) => ({ orgId: org.orgId, name: `Reason ${String(i).padStart(3, '0')}`, type: 'productivity' as const }))),
    );
    const mine: number[] = [];
    for (let i = 0; i < 12; i++) mine.push((await add(`Mine ${i}`, [worker.userId], { dueDate: new Date(Date.UTC(2031, 0, 12 - i)).toISOString() })).id);
    const closed = await add('Mine but closed', [worker.userId]);
    expect((await org.admin.put(`${W}/update-status/${closed.id}`, { status: 'completed' })).status).toBe(200);
    const notMine = await add('Someone else', [other.userId]);
    const { procedure } = (await org.admin.post('/api/procedures/add-procedure', { name: 'Check', steps: [{ kind: 'checkbox', label: 'Isolate' }] })).body;
    expect((await org.admin.post(`${W}/attach-procedure/${mine[0]}`, { procedureId: procedure.id })).status).toBe(200);
    const allReasons = await withTenant(t.database.db, org.orgId, (tx) =>
      tx.select().from(timeTrackingReasons).where(eq(timeTrackingReasons.orgId, org.orgId)),
    );
    const [reason] = allReasons;
    expect(
      (await worker.post(`${W}/add-labor/${mine[0]}`, { startTime: '2026-05-01T08:00:00.000Z', endTime: '2026-05-01T09:00:00.000Z', reason: reason.id }))
        .status,
    ).toBe(201);
    expect((await addPhoto(worker, mine[0])).status).toBe(201);

    const seen: { id: number; workOrder: { title: string; dueDate: string }; procedure: unknown; labors: unknown[]; photos: unknown[] }[] = [];
    const first = await worker.get(`${M}/list-my-work?page=1&pageSize=10`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.pagination).toEqual({ totalRecords: 12, currentPage: 1, totalPages: 2 });
    expect(first.body.reasons).toHaveLength(allReasons.length);
    expect(allReasons.length).toBeGreaterThanOrEqual(105);
    seen.push(...first.body.workOrders);
    const second = await worker.get(`${M}/list-my-work?page=2&pageSize=10`);
    seen.push(...second.body.workOrders);
    expect(seen.map((o) => o.id).sort((a, b) => a - b)).toEqual([...mine].sort((a, b) => a - b));
    expect(seen.map((o) => o.id)).not.toContain(closed.id);
    expect(seen.map((o) => o.id)).not.toContain(notMine.id);
    // soonest due first
    expect(seen.map((o) => o.workOrder.dueDate)).toEqual([...seen.map((o) => o.workOrder.dueDate)].sort());
    const withAll = seen.find((o) => o.id === mine[0])!;
    expect(withAll.procedure).toMatchObject({ steps: [expect.objectContaining({ label: 'Isolate' })] });
    expect(withAll.labors).toHaveLength(1);
    expect(withAll.photos).toHaveLength(1);

    // A manager's My work is the orders assigned to them, not the organisation's.
    expect((await org.admin.get(`${M}/list-my-work?pageSize=100`)).body.workOrders).toEqual([]);
  });

  it("gives each order's procedure, labour, parts, readiness and photos as the order's own GETs give them (read for the whole page at once)", async () => {
    const { org, worker, add } = await setup();
    const cat = await catalogue(t, org.orgId);
    const [a, b, c] = [await add('Pump A', [worker.userId]), await add('Pump B', [worker.userId]), await add('Pump C', [worker.userId])];
    const steps = [
      { kind: 'checkbox', label: 'Isolate' },
      { kind: 'number', label: 'Pressure' },
    ];
    const { procedure } = (await org.admin.post('/api/procedures/add-procedure', { name: 'Check', steps })).body;
    const { procedure: other } = (await org.admin.post('/api/procedures/add-procedure', { name: 'Other', steps: [{ kind: 'text', label: 'Remarks' }] })).body;
    for (const [order, proc] of [
      [a, procedure],
      [c, other],
    ] as const)
      expect((await org.admin.post(`${W}/attach-procedure/${order.id}`, { procedureId: proc.id })).status).toBe(200);
    const [reason] = await withTenant(t.database.db, org.orgId, (tx) =>
      tx.insert(timeTrackingReasons).values({ orgId: org.orgId, name: 'Repair', type: 'productivity' }).returning(),
    );
    const labour = (order: { id: number }, hour: number) =>
      worker.post(`${W}/add-labor/${order.id}`, {
        startTime: `2026-05-01T0${hour}:00:00.000Z`,
        endTime: `2026-05-01T0${hour + 1}:00:00.000Z`,
        reason: reason.id,
      });
    for (const [order, hour] of [
      [b, 2],
      [a, 1],
      [b, 5],
    ] as const)
      expect((await labour(order, hour)).status).toBe(201);
    // Negative stock allowed: the parts are taken with none on hand, so the readiness has shortages to compare.
    expect((await org.admin.put('/api/stock/update-stock-settings', { allowNegativeStock: true })).status).toBe(200);
    const addedB = await org.admin.post(`${W}/add-parts/${b.id}`, { parts: [{ partId: cat.part.id, quantity: 2 }] });
    expect(addedB.status, JSON.stringify(addedB.body)).toBe(201);
    expect((await org.admin.post(`${W}/add-parts/${c.id}`, { parts: [cat.part2.id, cat.part.id] })).status).toBe(201);
    expect((await addPhoto(worker, c.id)).status).toBe(201);

    const listed = (await worker.get(`${M}/list-my-work`)).body.workOrders as { id: number }[];
    expect(listed.map((o) => o.id).sort()).toEqual([a.id, b.id, c.id].sort());
    for (const order of listed) {
      const get = async (path: string) => (await worker.get(`${path}/${order.id}`)).body;
      const { workOrderParts, partsReadiness } = await get(`${W}/get-parts`);
      expect(order, `order ${order.id}`).toEqual({
        id: order.id,
        workOrder: (await get(`${W}/get-work-order`)).workOrder,
        procedure: (await get(`${W}/get-work-order-procedure`)).procedure,
        labors: (await get(`${W}/get-labors`)).labors,
        parts: workOrderParts,
        partsReadiness,
        photos: (await get(`${M}/list-photos`)).photos,
      });
    }
    // Each order's own lines only: B's two labour lines, C's two parts, A's procedure of two steps.
    const byId = new Map(listed.map((o) => [o.id, o as unknown as { labors: unknown[]; parts: unknown[]; procedure: { steps: unknown[] } | null }]));
    expect([byId.get(a.id)!.labors.length, byId.get(b.id)!.labors.length, byId.get(c.id)!.labors.length]).toEqual([1, 2, 0]);
    expect([byId.get(a.id)!.parts.length, byId.get(b.id)!.parts.length, byId.get(c.id)!.parts.length]).toEqual([0, 1, 2]);
    expect([byId.get(a.id)!.procedure?.steps.length, byId.get(b.id)!.procedure, byId.get(c.id)!.procedure?.steps.length]).toEqual([2, null, 1]);
  });

  it('list-my-parts pages through every part by id with their SKU codes', async () => {
    const { org, worker } = await setup();
    const cat = await catalogue(t, org.orgId);
    await withTenant(t.database.db, org.orgId, (tx) => updatePart(tx, org.orgId, cat.part.id, { skuCode: 'SKU-6204' }));
    const page1 = await worker.get(`${M}/list-my-parts?limit=1`);
    expect(page1.status, JSON.stringify(page1.body)).toBe(200);
    expect(page1.body).toEqual({ parts: [{ id: cat.part.id, name: cat.part.name, skuCode: 'SKU-6204' }], next: cat.part.id });
    const page2 = await worker.get(`${M}/list-my-parts?limit=1&after=${page1.body.next}`);
    expect(page2.body).toEqual({ parts: [{ id: cat.part2.id, name: cat.part2.name, skuCode: null }], next: null });
    expect((await worker.get(`${M}/list-my-parts?limit=5000`)).status).toBe(400);
  });
});

describe('add-photo', () => {
  it('keeps a photo on the work order once per Idempotency-Key, with a history line; unassigned workers get 404, managers reach any order', async () => {
    const { org, worker, add } = await setup();
    const order = await add('Replace pump seal', [worker.userId]);
    const first = await addPhoto(worker, order.id, { 'idempotency-key': 'tech-photo-0001' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.photo).toMatchObject({ workOrderId: order.id, userId: worker.userId });
    expect(first.body.photo.url).toMatch(/^\/uploads\/org-\d+\/[0-9a-f-]{36}\.webp\?exp=/);
    const retry = await addPhoto(worker, order.id, { 'idempotency-key': 'tech-photo-0001' });
    expect(retry.status).toBe(201);
    expect(retry.body.photo.id).toBe(first.body.photo.id);
    const listed = await org.admin.get(`${M}/list-photos/${order.id}`);
    expect(listed.body.photos).toHaveLength(1);
    const history = await org.admin.get(`/api/activities/work-order/${order.id}`);
    expect((history.body.activities as { action: string }[]).filter((a) => a.action === 'attachment')).toHaveLength(1);
    // The photo's file is served (signed URL).
    expect((await org.admin.get(listed.body.photos[0].url)).status).toBe(200);

    // Workers reach only the orders assigned to them; managers reach every order (as the other work-order routes).
    const stranger = await org.as('worker');
    expect((await addPhoto(stranger, order.id)).status).toBe(404);
    expect((await stranger.get(`${M}/list-photos/${order.id}`)).status).toBe(404);
    const manager = await org.as('manager');
    expect((await addPhoto(manager, order.id)).status).toBe(201);
    expect((await manager.get(`${M}/list-photos/${order.id}`)).body.photos).toHaveLength(2);
    const bad = await worker.upload(`${M}/add-photo/${order.id}`, [{ field: 'image', name: 'x.jpg', bytes: Buffer.from('not an image'), type: 'image/jpeg' }]);
    expect(bad.status).toBe(415);
    expect((await org.admin.get(`${M}/list-photos/${order.id}`)).body.photos).toHaveLength(2);
  });

  it('another organisation gets 404 and changes nothing', async () => {
    const { org, worker, add } = await setup();
    const order = await add('Replace pump seal', [worker.userId]);
    expect((await addPhoto(worker, order.id)).status).toBe(201);
    const other = await createOrg(t, 'Other');
    expect((await addPhoto(other.admin, order.id)).status).toBe(404);
    expect((await other.admin.get(`${M}/list-photos/${order.id}`)).status).toBe(404);
    expect((await other.admin.get(`${M}/list-my-work`)).body.workOrders).toEqual([]);
    const rows = await withTenant(t.database.db, org.orgId, (tx) => tx.select().from(workOrderPhotos).where(eq(workOrderPhotos.orgId, org.orgId)));
    expect(rows).toHaveLength(1);
  });
});

describe('deleting the work order', () => {
  it("removes its photos' rows and stored files; another organisation's delete gets 404 and changes nothing", async () => {
    const { org, worker, add } = await setup();
    const order = await add('Replace pump seal', [worker.userId]);
    const kept = await add('Keep me', [worker.userId]);
    const photo = (await addPhoto(worker, order.id)).body.photo as { url: string };
    const keptPhoto = (await addPhoto(worker, kept.id)).body.photo as { url: string };
    const served = async (url: string) => (await org.admin.get(url)).status;
    expect(await served(photo.url)).toBe(200);

    const other = await createOrg(t, 'Other');
    expect((await other.admin.del(`${W}/delete-work-order/${order.id}`)).status).toBe(404);
    expect(await served(photo.url)).toBe(200);
    expect((await org.admin.get(`${M}/list-photos/${order.id}`)).body.photos).toHaveLength(1);

    expect((await org.admin.del(`${W}/delete-work-order/${order.id}`)).status).toBe(200);
    expect(await served(photo.url)).toBe(404);
    const rows = await withTenant(t.database.db, org.orgId, (tx) => tx.select().from(workOrderPhotos).where(eq(workOrderPhotos.orgId, org.orgId)));
    expect(rows.map((r) => r.workOrderId)).toEqual([kept.id]);
    // Another order's photo stays.
    expect(await served(keptPhoto.url)).toBe(200);
  });
});
