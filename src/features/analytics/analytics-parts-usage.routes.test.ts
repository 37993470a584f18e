import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../server/db/client';
import { assetCategories, assets } from '../../server/db/schema';
import { createOrg, createTestApp, type TestApp, type TestOrg } from '../../server/test/harness';
import { commercialRows } from '../commercial-documents/test-fixtures';

/**
 * Parts usage per asset on the insights screen (issue 41): the ledger's consumption less returns on each asset's
 * work orders, valued at the part's average cost (from receipts), against a hand computation; the insights filters
 * narrow it; another organisation's stock never counts.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const W = '/api/work-orders';

/** An organisation with a storeroom, two assets and two parts received at known costs. */
async function stocked(name: string) {
  const org = await createOrg(t, name);
  const r = await commercialRows(t, org.orgId);
  const store = (await org.admin.post('/api/stock/add-location', { name: 'Main store', kind: 'storeroom' })).body.location as { id: number };
  const seal = (
    await org.admin.post('/api/parts/add-part', {
      name: 'Seal kit',
      type: 'stockable',
      categoryId: r.category.id,
      salesPrice: 40,
      unitOfMeasureId: r.each.id,
      purchaseUnitOfMeasureId: r.each.id,
    })
  ).body.part as { id: number };
  const [pump, fan] = await withTenant(t.database.db, org.orgId, async (tx) => {
    const [category] = await tx.insert(assetCategories).values({ orgId: org.orgId, name: 'Rotating', code: 'ROT' }).returning();
    return tx
      .insert(assets)
      .values(['Pump', 'Fan'].map((n) => ({ orgId: org.orgId, name: n, date: '2024-01-01', assetCategoryId: category.id })))
      .returning();
  });
  // Bearings 10 at 9.75 and seals 5 at 20.00 less 10% (18.00) come into the store: their average costs.
  const po = await org.admin.post('/api/purchase-orders/add-purchase-order', {
    overview: { vendor: r.vendor.id, requester: 1, purchaseOrderDate: new Date().toISOString() },
    partDetails: [
      { partId: r.part.id, quantity: 10, unitPrice: 9.75, discount: 0, taxId: r.purchaseFixed.id },
      { partId: seal.id, quantity: 5, unitPrice: 20, discount: 10, taxId: r.purchaseFixed.id },
    ],
  });
  expect(po.status, JSON.stringify(po.body)).toBe(201);
  const received = await org.admin.post(`/api/stock/receive-purchase-order/${po.body.purchaseOrder.id}`, {
    locationId: store.id,
    lines: [
      { partId: r.part.id, quantity: 10 },
      { partId: seal.id, quantity: 5 },
    ],
  });
  expect(received.status, JSON.stringify(received.body)).toBe(200);
  return { org, bearing: r.part.id, seal: seal.id, pump: pump.id, fan: fan.id, store: store.id };
}

async function order(org: TestOrg, title: string, assetId: number, lines: { partId: number; quantity: number }[]) {
  const created = await org.admin.post(`${W}/add-work-order`, { title, assetId });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.workOrder.id as number;
  const added = await org.admin.post(`${W}/add-parts/${id}`, { parts: lines });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return id;
}

const usage = async (org: TestOrg, query = '') => (await org.admin.get(`/api/analytics/get-parts-usage?range=30d${query}`)).body;

describe('parts usage per asset', { timeout: 180_000 }, () => {
  it('consumption less returns at average cost, per asset (hand computed); filters narrow it; other organisations excluded', async () => {
    const a = await stocked('Usage A');
    // Pump: 4 bearings, one given back (3 x 9.75 = 29.25), and 1 seal on another order (18.00): 4 parts, 47.25, 2 orders.
    const pumpJob = await order(a.org, 'Pump job', a.pump, [{ partId: a.bearing, quantity: 4 }]);
    expect((await a.org.admin.put(`${W}/update-part/${pumpJob}/part/${a.bearing}`, { quantity: 3 })).status).toBe(200);
    await order(a.org, 'Pump seal', a.pump, [{ partId: a.seal, quantity: 1 }]);
    // Fan: 2 seals (36.00); a bearing taken and wholly returned on a third order counts for nothing.
    await order(a.org, 'Fan job', a.fan, [{ partId: a.seal, quantity: 2 }]);
    const undone = await order(a.org, 'Fan mistake', a.fan, [{ partId: a.bearing, quantity: 1 }]);
    expect((await a.org.admin.del(`${W}/delete-part/${undone}/part/${a.bearing}`)).status).toBe(200);

    // Another organisation's larger usage on its own assets of the same names stays out.
    const b = await stocked('Usage B');
    await order(b.org, 'B job', b.pump, [{ partId: b.seal, quantity: 5 }]);

    const all = await usage(a.org);
    expect(all.assets).toEqual([
      { assetId: a.pump, name: 'Pump', quantity: 4, valueMinor: 3 * 975 + 1800, orders: 2 },
      { assetId: a.fan, name: 'Fan', quantity: 2, valueMinor: 3600, orders: 1 },
    ]);
    expect(all.totalValueMinor).toBe(4725 + 3600);
    // The insights filters: one asset.
    expect((await usage(a.org, `&assetId=${a.fan}`)).assets).toEqual([{ assetId: a.fan, name: 'Fan', quantity: 2, valueMinor: 3600, orders: 1 }]);
    expect((await usage(b.org)).assets).toEqual([{ assetId: b.pump, name: 'Pump', quantity: 5, valueMinor: 9000, orders: 1 }]);
    // Managers only, as the other figures of the organisation.
    expect((await (await a.org.as('worker')).get('/api/analytics/get-parts-usage?range=30d')).status).toBe(403);
  });
});
