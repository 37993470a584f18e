import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setClockOffset } from '../../server/clock';
import { createOrg, createTestApp, type TestApp, type TestOrg } from '../../server/test/harness';
import { orgRows } from '../../server/test/sql';
import { addStockablePart, masterRows } from '../assets/test-fixtures';
import { withTenant } from '../../server/db/client';
import { assets, customerVendors, stockMoves } from '../../server/db/schema';
import { commercialRows } from '../commercial-documents/test-fixtures';
import { runStockReorder } from '../../server/jobs/stock-reorder.job';
import { eq } from 'drizzle-orm';

// Issue 41, second part (decision 081): reservations, receiving, reorder, counts, valuation.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => setClockOffset(0));

const TODAY = '2031-05-03';

async function setup(name = 'Org') {
  setClockOffset(Date.parse(`${TODAY}T10:00:00Z`) - Date.now());
  const org = await createOrg(t, name);
  const m = await masterRows(t, org.orgId, 'S');
  const addPart = (over: Record<string, unknown> = {}) => addStockablePart(org, m, over);
  const asset = await withTenant(t.database.db, org.orgId, async (tx) => {
    const [row] = await tx.insert(assets).values({ orgId: org.orgId, name: 'Pump', date: '2024-01-01', assetCategoryId: m.assetCategory.id }).returning();
    return row;
  });
  const main = async () => (await org.admin.get('/api/stock/get-locations')).body.locations[0] as { id: number; name: string };
  return { org, m, addPart, main, asset };
}

/** A daily plan starting today with the given parts; the generator run makes today's work order. */
async function planOrder(org: TestOrg, title: string, partLines: { partId: number; quantity: number }[], assetId: number) {
  const plan = await org.admin.post('/api/pm-plans/add-plan', {
    name: title,
    title,
    trigger: 'calendar',
    frequency: 'daily',
    interval: 1,
    schedule: 'fixed',
    startDate: TODAY,
    leadDays: 0,
    parts: partLines,
    assetIds: [assetId],
  });
  expect(plan.status, JSON.stringify(plan.body)).toBe(201);
  const run = await org.admin.post('/api/pm-plans/run-generator');
  expect(run.status, JSON.stringify(run.body)).toBe(200);
  const list = await org.admin.get(`/api/work-orders/get-work-orders?title=${encodeURIComponent(title)}`);
  const order = (list.body.workOrders as { id: number; title: string }[]).find((w) => w.title === title);
  expect(order, JSON.stringify(list.body)).toBeTruthy();
  return order!.id;
}

const level = async (org: TestOrg, partId: number) =>
  (await org.admin.get(`/api/stock/get-stock-levels?partId=${partId}`)).body.stockLevels[0] as { quantity: number; reserved: number; available: number };
const readiness = async (org: TestOrg, workOrderId: number) => (await org.admin.get(`/api/work-orders/get-parts/${workOrderId}`)).body.partsReadiness;

describe('reservations (decision 081)', { timeout: 90_000 }, () => {
  it('a PM-generated order reserves its plan parts; ready or short first come first served; using consumes; completing releases', async () => {
    const { org, addPart, main, asset } = await setup();
    const seal = await addPart({ quantityOnHand: 3 });
    const store = await main();
    const first = await planOrder(org, 'Pump service', [{ partId: seal.id, quantity: 2 }], asset.id);
    expect(await level(org, seal.id)).toMatchObject({ quantity: 3, reserved: 2, available: 1 });
    expect(await readiness(org, first)).toEqual({ status: 'ready', shortages: [] });

    const second = await planOrder(org, 'Fan service', [{ partId: seal.id, quantity: 2 }], asset.id);
    expect(await level(org, seal.id)).toMatchObject({ quantity: 3, reserved: 4, available: -1 });
    expect(await readiness(org, first)).toEqual({ status: 'ready', shortages: [] });
    expect(await readiness(org, second)).toEqual({
      status: 'short',
      shortages: [{ partId: seal.id, part: { id: seal.id, name: 'Seal kit' }, location: { id: store.id, name: 'Main store' }, quantity: 1, reserved: 2 }],
    });

    // The technician uses the first order's parts: consumption replaces the reservation.
    const used = await org.admin.post(`/api/work-orders/use-parts/${first}`, {});
    expect(used.status, JSON.stringify(used.body)).toBe(200);
    expect(used.body).toMatchObject({ message: 'Work order parts used successfully', partsReadiness: { status: 'none' } });
    expect(used.body.workOrderParts[0]).toMatchObject({ partId: seal.id, quantity: 2, locationId: store.id });
    const moves = (await org.admin.get(`/api/stock/get-stock-moves?workOrderId=${first}`)).body.stockMoves;
    expect(moves).toMatchObject([{ reason: 'consumption', quantity: 2, fromLocation: { id: store.id } }]);
    expect(await level(org, seal.id)).toMatchObject({ quantity: 1, reserved: 2, available: -1 });
    // Using again takes nothing more.
    await org.admin.post(`/api/work-orders/use-parts/${first}`, {});
    expect((await org.admin.get(`/api/stock/get-stock-moves?workOrderId=${first}`)).body.stockMoves).toHaveLength(1);

    // Completing the second releases its reservation.
    expect((await org.admin.put(`/api/work-orders/update-status/${second}`, { status: 'completed' })).status).toBe(200);
    expect(await level(org, seal.id)).toMatchObject({ quantity: 1, reserved: 0, available: 1 });
    expect(await readiness(org, second)).toEqual({ status: 'none', shortages: [] });
  });

  it('cancelling and deleting release; a shortage when using is a 409 and moves nothing', async () => {
    const { org, addPart, asset } = await setup();
    const seal = await addPart({ quantityOnHand: 1 });
    const a = await planOrder(org, 'A job', [{ partId: seal.id, quantity: 2 }], asset.id);
    const b = await planOrder(org, 'B job', [{ partId: seal.id, quantity: 1 }], asset.id);
    expect(await level(org, seal.id)).toMatchObject({ reserved: 3, available: -2 });
    const refused = await org.admin.post(`/api/work-orders/use-parts/${a}`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('Not enough stock: Seal kit has 1 at Main store');
    expect((await org.admin.put(`/api/work-orders/update-status/${a}`, { status: 'cancelled' })).status).toBe(200);
    expect(await level(org, seal.id)).toMatchObject({ quantity: 1, reserved: 1, available: 0 });
    expect(await readiness(org, b)).toMatchObject({ status: 'ready' });
    expect((await org.admin.del(`/api/work-orders/delete-work-order/${b}`)).status).toBe(200);
    expect(await level(org, seal.id)).toMatchObject({ quantity: 1, reserved: 0, available: 1 });
  });

  it('another organisation gets 404 and changes nothing', async () => {
    const a = await setup('Alpha');
    const b = await setup('Beta');
    const seal = await a.addPart({ quantityOnHand: 5 });
    const order = await planOrder(a.org, 'Alpha job', [{ partId: seal.id, quantity: 2 }], a.asset.id);
    expect((await b.org.admin.get(`/api/work-orders/get-parts/${order}`)).status).toBe(404);
    expect((await b.org.admin.post(`/api/work-orders/use-parts/${order}`, {})).status).toBe(404);
    expect(await level(a.org, seal.id)).toMatchObject({ quantity: 5, reserved: 2 });
  });
});

async function buying(name = 'Buyer') {
  const org = await createOrg(t, name);
  const r = await commercialRows(t, org.orgId);
  const main = (await org.admin.post('/api/stock/add-location', { name: 'Main store', kind: 'storeroom' })).body.location as { id: number };
  const po = async (lines: { partId: number; quantity: number; unitPrice: number; discount?: number }[]) => {
    const res = await org.admin.post('/api/purchase-orders/add-purchase-order', {
      overview: { vendor: r.vendor.id, requester: 1, purchaseOrderDate: `${TODAY}T00:00:00.000Z` },
      partDetails: lines.map((l) => ({ discount: 0, taxId: r.purchaseFixed.id, ...l })),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.purchaseOrder.id as number;
  };
  return { org, r, main, po };
}

const receive = (org: TestOrg, id: number, locationId: number, lines: { partId: number; quantity: number }[]) =>
  org.admin.post(`/api/stock/receive-purchase-order/${id}`, { locationId, lines });

describe('receiving (decision 081)', { timeout: 90_000 }, () => {
  it('receives partly then fully, keeps a moving average cost (hand computed), refuses over-receipt, values the store', async () => {
    const { org, r, main, po } = await buying();
    const first = await po([{ partId: r.part.id, quantity: 10, unitPrice: 9.75 }]);
    const second = await po([{ partId: r.part.id, quantity: 6, unitPrice: 12, discount: 10 }]);
    expect((await org.admin.get(`/api/stock/get-receiving/${first}`)).body.receiving).toEqual({
      purchaseOrderId: first,
      receivingStatus: 'not-received',
      lines: [{ partId: r.part.id, part: { id: r.part.id, name: r.part.name }, ordered: 10, received: 0, outstanding: 10, unitCostMinor: 975 }],
    });
    const part = await receive(org, first, main.id, [{ partId: r.part.id, quantity: 4 }]);
    expect(part.status, JSON.stringify(part.body)).toBe(200);
    expect(part.body.receiving).toMatchObject({ receivingStatus: 'partly-received', lines: [{ received: 4, outstanding: 6 }] });
    expect(part.body.stockMoves).toMatchObject([{ reason: 'receipt', quantity: 4, toLocation: { id: main.id }, purchaseOrderId: first, unitCostMinor: 975 }]);
    const avg = async () => (await org.admin.get(`/api/stock/get-part-stock-settings/${r.part.id}`)).body.settings.averageCostMinor;
    expect(await avg()).toBe(975);
    // 12.00 less 10% = 10.80; (4 × 975 + 6 × 1080) / 10 = 1038
    expect((await receive(org, second, main.id, [{ partId: r.part.id, quantity: 6 }])).body.receiving.receivingStatus).toBe('fully-received');
    expect(await avg()).toBe(1038);
    const over = await receive(org, first, main.id, [{ partId: r.part.id, quantity: 7 }]);
    expect(over.status).toBe(400);
    expect(over.body).toEqual({
      error: `Cannot receive more than ordered: ${r.part.name} has 6 left to receive on PO-0001`,
      issues: [{ path: 'lines.0.quantity', message: `Cannot receive more than ordered: ${r.part.name} has 6 left to receive on PO-0001` }],
    });
    expect((await receive(org, first, main.id, [{ partId: r.part.id, quantity: 6 }])).body.receiving.receivingStatus).toBe('fully-received');
    // (10 × 1038 + 6 × 975) / 16 = 1014.375 -> 1014
    expect(await avg()).toBe(1014);
    expect((await org.admin.get(`/api/stock/get-stock-levels?partId=${r.part.id}`)).body.stockLevels[0]).toMatchObject({ quantity: 16 });
    const value = await org.admin.get('/api/stock/get-stock-valuation');
    expect(value.body).toEqual({
      locations: [{ location: { id: main.id, name: 'Main store' }, valueMinor: 16 * 1014, parts: 1, unvaluedParts: 0 }],
      totalMinor: 16224,
    });
    expect((await (await org.as('worker')).get('/api/stock/get-stock-valuation')).status).toBe(403);
  });

  it('another organisation gets 404 and changes nothing', async () => {
    const a = await buying('Alpha');
    const b = await buying('Beta');
    const id = await a.po([{ partId: a.r.part.id, quantity: 3, unitPrice: 1 }]);
    expect((await b.org.admin.get(`/api/stock/get-receiving/${id}`)).status).toBe(404);
    expect((await receive(b.org, id, b.main.id, [{ partId: a.r.part.id, quantity: 1 }])).status).toBe(404);
    expect((await b.org.admin.get('/api/stock/get-part-stock-settings/999')).status).toBe(404);
    expect((await a.org.admin.get(`/api/stock/get-part-stock-settings/${a.r.part.id}`)).body.settings.averageCostMinor).toBeNull();
    expect((await a.org.admin.get(`/api/stock/get-receiving/${id}`)).body.receiving.receivingStatus).toBe('not-received');
  });
});

describe('reorder (decision 081)', { timeout: 90_000 }, () => {
  it('drafts purchase orders grouped by preferred vendor, counting what is on order; twice drafts nothing more; the job does the same', async () => {
    const { org, r, main } = await buying();
    const van = (await org.admin.post('/api/stock/add-location', { name: 'Van 1', kind: 'van' })).body.location as { id: number };
    const [vendor2] = await withTenant(t.database.db, org.orgId, (tx) =>
      tx.insert(customerVendors).values({ orgId: org.orgId, name: 'Seals Inc', email: 'a@seals.example.com', type: 'vendor', category: 'company' }).returning(),
    );
    const addPart = async (name: string) =>
      (
        await org.admin.post('/api/parts/add-part', {
          name,
          type: 'stockable',
          categoryId: r.category.id,
          salesPrice: 4,
          unitOfMeasureId: r.each.id,
          purchaseUnitOfMeasureId: r.each.id,
        })
      ).body.part as { id: number };
    const seal = await addPart('Seal kit');
    const filter = await addPart('Filter');
    const setVendor = (partId: number, preferredVendorId: number) => org.admin.put('/api/stock/update-part-stock-settings', { partId, preferredVendorId });
    expect((await setVendor(r.part.id, r.vendor.id)).status).toBe(200);
    expect((await setVendor(seal.id, vendor2.id)).body.settings).toMatchObject({ preferredVendor: { id: vendor2.id, name: 'Seals Inc' } });
    expect((await setVendor(seal.id, r.customer.id)).status).toBe(400);
    const point = (partId: number, locationId: number, reorderPoint: number, reorderQuantity: number) =>
      org.admin.put('/api/stock/update-stock-level', { partId, locationId, reorderPoint, reorderQuantity });
    await point(r.part.id, main.id, 5, 10);
    await point(r.part.id, van.id, 2, 0);
    await point(seal.id, main.id, 3, 4);
    await point(filter.id, main.id, 1, 1);
    // 3 seals already on a hand-written order: they count for the default location.
    await org.admin.post('/api/purchase-orders/add-purchase-order', {
      overview: { vendor: vendor2.id, requester: 1, purchaseOrderDate: `${TODAY}T00:00:00.000Z` },
      partDetails: [{ partId: seal.id, quantity: 1, unitPrice: 2, discount: 0, taxId: r.purchaseFixed.id }],
    });

    const first = await org.admin.post('/api/stock/draft-reorders');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({
      message: 'Reorders drafted successfully',
      drafted: 3,
      withoutVendor: [{ id: filter.id, name: 'Filter' }],
      purchaseOrders: [
        { number: 'PO-0002', vendor: { id: r.vendor.id }, lines: 1 },
        { number: 'PO-0003', vendor: { id: vendor2.id }, lines: 1 },
      ],
    });
    const lines = async (id: number) => (await org.admin.get(`/api/purchase-orders/get-purchase-order/${id}`)).body.purchaseOrder.partDetails;
    // 10 for the main store and 2 for the van, one line; seals: max(4, 3 - 1 on order) = 4.
    expect(await lines(2)).toMatchObject([{ partId: r.part.id, quantity: 12 }]);
    expect(await lines(3)).toMatchObject([{ partId: seal.id, quantity: 4 }]);
    expect((await org.admin.get('/api/purchase-orders/get-purchase-order/2')).body.purchaseOrder).toMatchObject({ status: 'draft' });

    const again = await org.admin.post('/api/stock/draft-reorders');
    expect(again.body).toMatchObject({ drafted: 0, purchaseOrders: [] });
    expect(await runStockReorder(t.database)).toMatchObject({ failed: 0 });
    expect((await org.admin.get('/api/purchase-orders/get-purchase-orders')).body.pagination.totalRecords).toBe(3);
    // Managers hear of it in the order's history (the bell).
    const history = await org.admin.get('/api/activities/recent');
    expect(JSON.stringify(history.body)).toContain('Drafted by reorder');
    expect((await (await org.as('worker')).post('/api/stock/draft-reorders')).status).toBe(403);

    // Receiving the draft into the main store: nothing new is drafted for it.
    expect((await receive(org, 2, main.id, [{ partId: r.part.id, quantity: 10 }])).status).toBe(200);
    expect((await org.admin.post('/api/stock/draft-reorders')).body.drafted).toBe(0);
    const moves = await orgRows(t.database.db, org.orgId, stockMoves, eq(stockMoves.reason, 'receipt'));
    expect(moves).toHaveLength(1);
  });

  it('counts what hand-written purchase orders still bring: covered parts are not drafted, short ones only for what lacks', async () => {
    const { org, r, main, po } = await buying();
    expect((await org.admin.put('/api/stock/update-part-stock-settings', { partId: r.part.id, preferredVendorId: r.vendor.id })).status).toBe(200);
    // Reorder point 5, reorder quantity 1, nothing in stock; a hand-written order brings 6: covered, nothing drafted.
    await org.admin.put('/api/stock/update-stock-level', { partId: r.part.id, locationId: main.id, reorderPoint: 5, reorderQuantity: 1 });
    const handWritten = await po([{ partId: r.part.id, quantity: 6, unitPrice: 2 }]);
    expect((await org.admin.post('/api/stock/draft-reorders')).body).toMatchObject({ drafted: 0, purchaseOrders: [] });
    // 4 of the 6 arrive and 3 are used elsewhere: 1 in stock + 2 still coming = 3, short by 2 -> a draft of max(1, 5 - 3) = 2.
    expect((await receive(org, handWritten, main.id, [{ partId: r.part.id, quantity: 4 }])).status).toBe(200);
    await org.admin.post('/api/stock/count-stock', { partId: r.part.id, locationId: main.id, countedQuantity: 1 });
    const drafted = await org.admin.post('/api/stock/draft-reorders');
    expect(drafted.body).toMatchObject({ drafted: 1, purchaseOrders: [{ number: 'PO-0002', lines: 1 }] });
    const lines = (await org.admin.get(`/api/purchase-orders/get-purchase-order/${drafted.body.purchaseOrders[0].id}`)).body.purchaseOrder.partDetails;
    expect(lines).toMatchObject([{ partId: r.part.id, quantity: 2 }]);
  });
});
