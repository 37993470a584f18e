import { describe, expect, it } from 'vitest';
import { solidImage } from '../../server/test/images';
import { createOrg, expectDeleted, useTestApp, type TestOrg } from '../../server/test/harness';
import { masterRows } from '../assets/test-fixtures';
import { badRequestIssues, issuesOf } from '../../server/test/issues-of';

const t = useTestApp();

async function setup(name = 'Org', tag = 'A') {
  const org = await createOrg(t, name);
  const m = await masterRows(t, org.orgId, tag);
  const part = (over: Record<string, unknown> = {}) => ({
    name: 'Deep Groove Ball Bearing 6205',
    type: 'stockable',
    skuCode: 'BRG-6205',
    categoryId: m.productCategory.id,
    salesPrice: 8.5,
    unitOfMeasureId: m.each.id,
    purchaseUnitOfMeasureId: m.box.id,
    ...over,
  });
  return { org, m, part };
}

const add = (org: TestOrg, body: unknown) => org.admin.post('/api/parts/add-part', body);

describe('parts', () => {
  it('adds a part with units and category, reads, lists, updates and deletes it', async () => {
    const { org, m, part } = await setup();
    const res = await add(org, part({ quantityOnHand: 12, minimumQuantity: 5 }));
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Part added successfully');
    const p = res.body.part;
    expect(p).toMatchObject({
      name: 'Deep Groove Ball Bearing 6205',
      type: 'stockable',
      skuCode: 'BRG-6205',
      categoryId: m.productCategory.id,
      category: { id: m.productCategory.id, name: 'Spares A' },
      salesPrice: 8.5,
      unitOfMeasure: { id: m.each.id, name: 'Each A' },
      purchaseUnitOfMeasure: { id: m.box.id, name: 'Box of 10 A' },
      quantityOnHand: 12,
      minimumQuantity: 5,
      isLowStock: false,
      image: null,
    });
    expect(res.body.parts).toHaveLength(1);
    expect(res.body.pagination).toEqual({ totalRecords: 1, currentPage: 1, totalPages: 1 });
    expect((await org.admin.get(`/api/parts/get-part/${p.id}`)).body.part).toEqual(p);
    // opening stock is a stock move
    const moves = await org.admin.get(`/api/parts/get-stock-moves/${p.id}`);
    expect(moves.body.stockMoves).toMatchObject([
      { quantity: 12, reason: 'initial', note: 'Opening stock', fromLocation: null, toLocation: { name: 'Main store' }, user: { id: expect.any(Number) } },
    ]);

    const upd = await org.admin.put(
      `/api/parts/update-part/${p.id}`,
      part({ name: 'Bearing 6205-2RS', salesPrice: '9.25', type: 'stockable', minimumQuantity: 6 }),
    );
    expect(upd.status).toBe(200);
    expect(upd.body.message).toBe('Part updated successfully');
    expect(upd.body.part).toMatchObject({ name: 'Bearing 6205-2RS', salesPrice: 9.25, minimumQuantity: 6, quantityOnHand: 12 });

    const deleted = await expectDeleted(org.admin, `/api/parts/delete-part/${p.id}`, 'Part deleted successfully', ['get', `/api/parts/get-part/${p.id}`]);
    expect(deleted.parts).toEqual([]);
  });

  it('gives the spec messages: name max 100; category, type, sales price and both units required', async () => {
    const { org, part } = await setup();
    const empty = await add(org, {});
    expect(badRequestIssues(empty)).toEqual({
      name: 'Name is required',
      type: 'Type is required',
      categoryId: 'Category is required',
      salesPrice: 'Sales price is required',
      unitOfMeasureId: 'Unit of measure is required',
      purchaseUnitOfMeasureId: 'Purchase unit of measure is required',
    });
    const bad = await add(org, part({ name: 'N'.repeat(101), type: 'service', salesPrice: -1 }));
    expect(issuesOf(bad.body)).toEqual({
      name: 'Name must be at most 100 characters',
      type: 'Type is required',
      salesPrice: 'Sales price must be a positive number',
    });
    expect(issuesOf((await add(org, part({ salesPrice: 'ten' }))).body)).toEqual({ salesPrice: 'Sales price must be a valid number' });
    expect((await add(org, part({ name: 'N'.repeat(100), type: 'Consumable' }))).status).toBe(201);
    expect(issuesOf((await add(org, part({ categoryId: 99 }))).body)).toEqual({ categoryId: 'Category does not exist in this organization' });
    expect(issuesOf((await add(org, part({ unitOfMeasureId: 99 }))).body)).toEqual({ unitOfMeasureId: 'Unit of measure does not exist in this organization' });
    expect(issuesOf((await add(org, part({ purchaseUnitOfMeasureId: 99 }))).body)).toEqual({
      purchaseUnitOfMeasureId: 'Purchase unit of measure does not exist in this organization',
    });
    expect((await add(org, part({ orgId: 3 }))).status).toBe(400);
    expect(issuesOf((await add(org, part({ quantityOnHand: -1 }))).body)).toEqual({ quantityOnHand: 'Quantity cannot be negative' });
    expect(issuesOf((await add(org, part({ type: 'consumable', quantityOnHand: 3 }))).body)).toEqual({
      quantityOnHand: 'Only stockable parts keep a quantity on hand',
    });
  });

  it("accepts the spec's nested unit objects and category alias", async () => {
    const { org, m } = await setup();
    const res = await add(org, {
      name: 'Grease',
      type: 'consumable',
      category: m.productCategory.id,
      salesPrice: '7.25',
      unitOfMeasure: { id: m.each.id, name: 'Each A' },
      purchaseUnitOfMeasure: { id: m.box.id, name: 'Box of 10 A' },
    });
    expect(res.status).toBe(201);
    expect(res.body.part).toMatchObject({ categoryId: m.productCategory.id, unitOfMeasureId: m.each.id, purchaseUnitOfMeasureId: m.box.id, salesPrice: 7.25 });
  });

  it('stock: adjustments with a reason, never below zero, history, low-stock list', async () => {
    const { org, part } = await setup();
    const p = (await add(org, part({ quantityOnHand: 10, minimumQuantity: 4 }))).body.part;
    const consumable = (await add(org, part({ name: 'Cable tie', type: 'consumable', skuCode: 'CT-1' }))).body.part;

    const empty = await org.admin.post(`/api/parts/adjust-stock/${p.id}`, {});
    expect(issuesOf(empty.body)).toEqual({ quantity: 'Quantity is required', reason: 'Reason is required' });
    expect(issuesOf((await org.admin.post(`/api/parts/adjust-stock/${p.id}`, { quantity: 0, reason: 'x' })).body)).toEqual({
      quantity: 'Quantity must not be zero',
    });
    const tooMuch = await org.admin.post(`/api/parts/adjust-stock/${p.id}`, { quantity: -11, reason: 'Used on WO-0001' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error).toBe('Stock cannot go below zero');
    const cons = await org.admin.post(`/api/parts/adjust-stock/${consumable.id}`, { quantity: 5, reason: 'Received' });
    expect(cons.body.error).toBe('Only stockable parts keep a quantity on hand');

    const out = await org.admin.post(`/api/parts/adjust-stock/${p.id}`, { quantity: -7, reason: 'Used on WO-0001' });
    expect(out.status).toBe(200);
    expect(out.body.message).toBe('Stock adjusted successfully');
    expect(out.body.part).toMatchObject({ quantityOnHand: 3, isLowStock: true });
    expect(out.body.stockMove).toMatchObject({
      quantity: 7,
      reason: 'count',
      note: 'Used on WO-0001',
      partId: p.id,
      fromLocation: { name: 'Main store' },
      toLocation: null,
    });

    const low = await org.admin.get('/api/parts/get-low-stock-parts');
    expect(low.body.parts.map((x: { id: number }) => x.id)).toEqual([p.id]);
    expect((await org.admin.get('/api/parts/get-parts?lowStock=true')).body.pagination.totalRecords).toBe(1);

    const back = await org.admin.post(`/api/parts/adjust-stock/${p.id}`, { quantity: '2.5', reason: 'Received from PO-0003' });
    expect(back.body.part).toMatchObject({ quantityOnHand: 5.5, isLowStock: false });
    expect((await org.admin.get('/api/parts/get-low-stock-parts')).body.parts).toEqual([]);

    // a counted quantity in the update form is booked as a stock count
    const counted = await org.admin.put(`/api/parts/update-part/${p.id}`, part({ quantityOnHand: 4, minimumQuantity: 4 }));
    expect(counted.body.part.quantityOnHand).toBe(4);
    const moves = await org.admin.get(`/api/parts/get-stock-moves/${p.id}`);
    // The ledger (decision 071): positive quantities out of or into the default location, the reason and its note.
    const signed = (m: { quantity: number; fromLocation: unknown }) => (m.fromLocation ? -m.quantity : m.quantity);
    expect(moves.body.stockMoves.map((m: { quantity: number; fromLocation: unknown; reason: string; note: string }) => [signed(m), m.reason, m.note])).toEqual([
      [-1.5, 'count', 'Stock count'],
      [2.5, 'count', 'Received from PO-0003'],
      [-7, 'count', 'Used on WO-0001'],
      [10, 'initial', 'Opening stock'],
    ]);
    expect(moves.body.pagination.totalRecords).toBe(4);
    const log = await org.admin.get(`/api/activities/part/${p.id}`);
    expect(log.body.activities.some((a: { note: string | null; changes: unknown }) => a.note === 'Used on WO-0001')).toBe(true);
  });

  it('list filters and options with salesPrice', async () => {
    const { org, part } = await setup();
    await add(org, part({ name: 'V-Belt A42', skuCode: 'BLT-A42' }));
    await add(org, part({ name: 'Hex Bolt M12', skuCode: 'FST-M12', type: 'consumable', salesPrice: 0.45 }));
    await add(org, part({ name: 'Timing Belt 8M', skuCode: 'BLT-8M' }));
    expect((await org.admin.get('/api/parts/get-parts?name=belt')).body.parts.map((p: { name: string }) => p.name)).toEqual(['Timing Belt 8M', 'V-Belt A42']);
    expect((await org.admin.get('/api/parts/get-parts?name=fst')).body.pagination.totalRecords).toBe(1);
    expect((await org.admin.get('/api/parts/get-parts?type=consumable')).body.pagination.totalRecords).toBe(1);
    expect((await org.admin.get('/api/parts/get-parts?pageSize=3')).status).toBe(400);
    const options = await org.admin.get('/api/parts/get-parts-options?name=bolt');
    expect(options.body).toEqual([
      {
        value: expect.any(Number),
        label: 'Hex Bolt M12',
        salesPrice: 0.45,
        skuCode: 'FST-M12',
        type: 'consumable',
        quantityOnHand: 0,
        unitOfMeasure: { id: expect.any(Number), name: 'Each A' },
      },
    ]);
    expect((await org.admin.get('/api/parts/get-parts-options')).body).toHaveLength(3);
  });

  it('image upload: generic image rule, stored re-encoded', async () => {
    const { org, part } = await setup();
    const p = (await add(org, part())).body.part;
    const png = await solidImage('png', 64, 64, '#3366ff');
    const image = (name: string, bytes: Buffer) => org.admin.upload(`/api/parts/add-image/${p.id}`, [{ field: 'image', name, bytes, type: 'image/png' }]);
    const res = await image('bearing.png', png);
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body.part.image).toMatch(/^\/uploads\/org-\d+\/[0-9a-f-]{36}\.webp\?exp=\d+&sig=[\w-]+$/); // signed (decision 024);
    expect(body.part.imageLow).toMatch(/\.webp\?/);
    const bad = await image('evil.png', Buffer.from('<html><script>alert(1)</script></html>'));
    expect(bad.status).toBe(415);
    expect(bad.body.error).toBe('Only JPEG, PNG, and WebP images are allowed.');
    const tooBig = await image('big.png', Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error).toBe('Image size should not exceed 5MB.');
    // clearing the image through the form
    const cleared = await org.admin.put(`/api/parts/update-part/${p.id}`, part({ image: null }));
    expect(cleared.body.part.image).toBeNull();
  });

  it('workers manage stock and parts but do not delete them', async () => {
    const { org, part } = await setup();
    const worker = await org.as('worker');
    const added = await worker.post('/api/parts/add-part', part({ quantityOnHand: 3 }));
    expect(added.status).toBe(201);
    const id = added.body.part.id;
    expect((await worker.post(`/api/parts/adjust-stock/${id}`, { quantity: -1, reason: 'Used' })).status).toBe(200);
    expect((await worker.del(`/api/parts/delete-part/${id}`)).status).toBe(403);
  });

  it('isolation: another organisation gets 404 and changes nothing; foreign category and unit ids are refused', async () => {
    const a = await setup('Alpha', 'A');
    const b = await setup('Beta', 'B');
    await masterRows(t, b.org.orgId, 'C'); // B's ids 3+ do not exist in A
    const p = (await add(a.org, a.part({ quantityOnHand: 5 }))).body.part;
    const before = (await a.org.admin.get(`/api/parts/get-part/${p.id}`)).body;
    const movesBefore = (await a.org.admin.get(`/api/parts/get-stock-moves/${p.id}`)).body;
    expect((await b.org.admin.get(`/api/parts/get-part/${p.id}`)).status).toBe(404);
    expect((await b.org.admin.put(`/api/parts/update-part/${p.id}`, b.part())).status).toBe(404);
    expect((await b.org.admin.del(`/api/parts/delete-part/${p.id}`)).status).toBe(404);
    expect((await b.org.admin.post(`/api/parts/adjust-stock/${p.id}`, { quantity: -5, reason: 'steal' })).status).toBe(404);
    expect((await b.org.admin.get(`/api/parts/get-stock-moves/${p.id}`)).status).toBe(404);
    expect((await b.org.admin.post(`/api/parts/add-image/${p.id}`, {})).status).toBe(404);
    expect((await b.org.admin.get('/api/parts/get-parts')).body.parts).toEqual([]);
    expect((await b.org.admin.get('/api/parts/get-parts-options')).body).toEqual([]);
    expect((await a.org.admin.get(`/api/parts/get-part/${p.id}`)).body).toEqual(before);
    expect((await a.org.admin.get(`/api/parts/get-stock-moves/${p.id}`)).body).toEqual(movesBefore);
    for (const field of ['categoryId', 'unitOfMeasureId', 'purchaseUnitOfMeasureId']) {
      const res = await a.org.admin.put(`/api/parts/update-part/${p.id}`, a.part({ [field]: 5 }));
      expect(res.status, field).toBe(400);
      expect(res.body.issues[0].path).toBe(field);
    }
  });

  it('stock counts recorded at once end at the counted value (each count waits for the one before)', async () => {
    const { org, part } = await setup();
    const p = (await add(org, part({ quantityOnHand: 5 }))).body.part;
    const users = [org.admin, await org.as('worker'), await org.as('manager')];
    // Three people count the same shelf: 10. Without a lock each booked +5 from the 5 it read (15 or 20).
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(users.map((u) => u.put(`/api/parts/update-part/${p.id}`, part({ quantityOnHand: 10 + round }))));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      const after = await org.admin.get(`/api/parts/get-part/${p.id}`);
      expect(after.body.part.quantityOnHand).toBe(10 + round);
    }
    const moves = await org.admin.get(`/api/parts/get-stock-moves/${p.id}`);
    const sum = moves.body.stockMoves.reduce((n: number, m: { quantity: number }) => n + m.quantity, 0);
    expect(sum).toBe(12);
  });

  it('a stale edit gets 409 with the current part and changes nothing', async () => {
    const { org, part } = await setup();
    const p = (await add(org, part({ quantityOnHand: 5 }))).body.part;
    expect(p.version).toBe(1);
    const first = await org.admin.put(`/api/parts/update-part/${p.id}`, part({ name: 'First edit', quantityOnHand: 7, version: p.version }));
    expect(first.status).toBe(200);
    expect(first.body.part.version).toBe(2);
    const second = await org.admin.put(`/api/parts/update-part/${p.id}`, part({ name: 'Second edit', quantityOnHand: 9, version: p.version }));
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      error: 'This record was changed by someone else',
      current: { id: p.id, name: 'First edit', quantityOnHand: 7, version: 2 },
    });
    const now = (await org.admin.get(`/api/parts/get-part/${p.id}`)).body.part;
    expect(now).toMatchObject({ name: 'First edit', quantityOnHand: 7, version: 2 });
    // Another organisation's version guess changes nothing and learns nothing.
    const other = await setup('Other', 'B');
    expect((await other.org.admin.put(`/api/parts/update-part/${p.id}`, other.part({ version: 1 }))).status).toBe(404);
  });
});
