import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import { withTenant } from '../../server/db/client';
import { parts, stockLevels, stockLocations, stockMoves, workOrderParts } from '../../server/db/schema';
import { rowsOf } from '../../server/db/rows';
import { createOrg, createTestApp, type TestApp, type TestOrg } from '../../server/test/harness';
import { addStockablePart, masterRows } from '../assets/test-fixtures';
import { seedSampleData } from '../../server/seed/demo';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function setup(name = 'Org') {
  const org = await createOrg(t, name);
  const m = await masterRows(t, org.orgId, 'S');
  const addPart = (over: Record<string, unknown> = {}) => addStockablePart(org, m, over);
  const main = (await org.admin.get('/api/stock/get-locations')).body.locations[0] as { id: number } | undefined;
  return { org, m, addPart, main };
}

const addLocation = (org: TestOrg, name: string, kind = 'van') => org.admin.post('/api/stock/add-location', { name, kind });

/** The ledger's sum per part and location, straight from the table. */
async function ledgerSums(orgId: number) {
  return withTenant(t.database.db, orgId, async (tx) => {
    const moved = rowsOf<{ part_id: number; location_id: number; q: string }>(
      await tx.execute(sql`select part_id, location_id, sum(q) as q from (
        select part_id, to_location_id as location_id, quantity as q from stock_moves where org_id = ${orgId} and to_location_id is not null
        union all select part_id, from_location_id, -quantity from stock_moves where org_id = ${orgId} and from_location_id is not null) m
        group by part_id, location_id`),
    );
    const levels = await tx.select().from(stockLevels).where(eq(stockLevels.orgId, orgId));
    const totals = await tx.select({ id: parts.id, q: parts.quantityOnHand }).from(parts).where(eq(parts.orgId, orgId));
    return { moved, levels, totals };
  });
}

describe('stock locations', () => {
  it('lists the default location, adds, updates and deletes others; names are unique; the default stays', async () => {
    const { org, addPart } = await setup();
    await addPart({ quantityOnHand: 3 });
    const list = await org.admin.get('/api/stock/get-locations');
    expect(list.body.locations).toMatchObject([{ name: 'Main store', kind: 'storeroom', isDefault: true }]);
    const main = list.body.locations[0];
    const van = await addLocation(org, 'Van 1');
    expect(van.status).toBe(201);
    expect(van.body).toMatchObject({
      message: 'Location added successfully',
      location: { name: 'Van 1', kind: 'van', isDefault: false },
      pagination: { totalRecords: 2 },
    });
    expect((await addLocation(org, ' van 1 ')).body).toEqual({
      error: 'A location with this name already exists',
      issues: [{ path: 'name', message: 'A location with this name already exists' }],
    });
    const bad = await org.admin.post('/api/stock/add-location', { name: '', kind: 'truck' });
    expect(bad.status).toBe(400);
    expect(bad.body.issues).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'Name is required' },
        { path: 'kind', message: 'Kind must be storeroom, van or site-store' },
      ]),
    );
    const upd = await org.admin.put(`/api/stock/update-location/${van.body.location.id}`, { name: 'Van 7', kind: 'van' });
    expect(upd.body.location.name).toBe('Van 7');
    expect((await org.admin.del(`/api/stock/delete-location/${main.id}`)).body).toMatchObject({ error: 'The default location cannot be deleted' });
    const del = await org.admin.del(`/api/stock/delete-location/${van.body.location.id}`);
    expect(del.status).toBe(200);
    expect(del.body.locations).toHaveLength(1);
  });

  it('a location with stock or history cannot be deleted', async () => {
    const { org, addPart } = await setup();
    const p = await addPart({ quantityOnHand: 5 });
    const main = (await org.admin.get('/api/stock/get-locations')).body.locations[0];
    const van = (await addLocation(org, 'Van')).body.location;
    await org.admin.post('/api/stock/transfer-stock', { partId: p.id, fromLocationId: main.id, toLocationId: van.id, quantity: 2 });
    expect((await org.admin.del(`/api/stock/delete-location/${van.id}`)).status).toBe(409);
    await org.admin.post('/api/stock/transfer-stock', { partId: p.id, fromLocationId: van.id, toLocationId: main.id, quantity: 2 });
    // empty now, but its moves are history
    expect((await org.admin.del(`/api/stock/delete-location/${van.id}`)).body).toMatchObject({
      error: 'This location has stock or history and cannot be deleted',
    });
  });

  it('roles: workers read locations but do not write them; transfers and counts are storeroom work for everyone', async () => {
    const { org, addPart } = await setup();
    const p = await addPart({ quantityOnHand: 4 });
    const worker = await org.as('worker');
    const manager = await org.as('manager');
    expect((await worker.get('/api/stock/get-locations')).status).toBe(200);
    expect((await worker.post('/api/stock/add-location', { name: 'W', kind: 'van' })).status).toBe(403);
    const main = (await worker.get('/api/stock/get-locations')).body.locations[0];
    expect((await worker.put(`/api/stock/update-location/${main.id}`, { name: 'X', kind: 'van' })).status).toBe(403);
    expect((await worker.del(`/api/stock/delete-location/${main.id}`)).status).toBe(403);
    expect((await worker.put('/api/stock/update-stock-settings', { allowNegativeStock: true })).status).toBe(403);
    expect((await worker.put('/api/stock/update-stock-level', { partId: p.id, locationId: main.id, reorderPoint: 2 })).status).toBe(403);
    const van = await manager.post('/api/stock/add-location', { name: 'Van', kind: 'van' });
    expect(van.status).toBe(201);
    expect(
      (await worker.post('/api/stock/transfer-stock', { partId: p.id, fromLocationId: main.id, toLocationId: van.body.location.id, quantity: 1 })).status,
    ).toBe(200);
    expect((await worker.post('/api/stock/count-stock', { partId: p.id, locationId: main.id, countedQuantity: 2 })).status).toBe(200);
    expect((await org.anonymous.get('/api/stock/get-locations')).status).toBe(401);
  });

  it('another organisation gets 404 or 400 and nothing changes', async () => {
    const a = await setup('A');
    const b = await setup('B');
    await a.addPart({ name: 'First', quantityOnHand: 1 });
    // Ids are per organisation: A's second part and second location are ids B does not have.
    const p = await a.addPart({ quantityOnHand: 6 });
    const mainA = (await a.org.admin.get('/api/stock/get-locations')).body.locations[0];
    const vanA = (await addLocation(a.org, 'Van A')).body.location;
    expect((await b.org.admin.get(`/api/stock/get-location/${mainA.id}`)).status).toBe(404);
    expect((await b.org.admin.put(`/api/stock/update-location/${vanA.id}`, { name: 'Mine', kind: 'van' })).status).toBe(404);
    expect((await b.org.admin.del(`/api/stock/delete-location/${vanA.id}`)).status).toBe(404);
    const pb = await b.addPart({ quantityOnHand: 1 });
    const mainB = (await b.org.admin.get('/api/stock/get-locations')).body.locations[0];
    // B names A's part, or its own part and A's location: refused
    expect((await b.org.admin.post('/api/stock/transfer-stock', { partId: p.id, fromLocationId: mainB.id, toLocationId: vanA.id, quantity: 1 })).status).toBe(
      400,
    );
    expect((await b.org.admin.post('/api/stock/count-stock', { partId: p.id, locationId: mainA.id, countedQuantity: 0 })).status).toBe(400);
    expect((await b.org.admin.post('/api/stock/count-stock', { partId: pb.id, locationId: vanA.id, countedQuantity: 0 })).status).toBe(400);
    expect((await b.org.admin.put('/api/stock/update-stock-level', { partId: p.id, locationId: mainB.id, reorderPoint: 9 })).status).toBe(400);
    expect((await b.org.admin.get(`/api/stock/get-stock-moves?partId=${p.id}`)).body.stockMoves).toEqual([]);
    expect((await b.org.admin.get(`/api/stock/get-stock-levels?partId=${p.id}`)).body.stockLevels).toEqual([]);
    const levels = (await a.org.admin.get(`/api/stock/get-stock-levels?partId=${p.id}`)).body.stockLevels;
    expect(levels).toMatchObject([{ location: { name: 'Main store' }, quantity: 6, reorderPoint: 0 }]);
    expect((await b.org.admin.get(`/api/stock/get-stock-levels?partId=${pb.id}`)).body.stockLevels).toMatchObject([{ quantity: 1 }]);
    expect((await a.org.admin.get(`/api/stock/get-location/${vanA.id}`)).body.location.name).toBe('Van A');
  });
});

describe('the ledger', () => {
  it('transfers move stock between locations; the total stays; a shortage is a 409 naming the part and location', async () => {
    const { org, addPart } = await setup();
    const p = await addPart({ quantityOnHand: 10 });
    const main = (await org.admin.get('/api/stock/get-locations')).body.locations[0];
    const van = (await addLocation(org, 'Van 2')).body.location;
    const res = await org.admin.post('/api/stock/transfer-stock', {
      partId: p.id,
      fromLocationId: main.id,
      toLocationId: van.id,
      quantity: '3.5',
      note: 'For the night shift',
    });
    expect(res.status).toBe(200);
    expect(res.body.stockMove).toMatchObject({
      reason: 'transfer',
      quantity: 3.5,
      fromLocation: { name: 'Main store' },
      toLocation: { name: 'Van 2' },
      note: 'For the night shift',
    });
    expect(res.body.stockLevels.map((l: { location: { name: string }; quantity: number }) => [l.location.name, l.quantity])).toEqual([
      ['Main store', 6.5],
      ['Van 2', 3.5],
    ]);
    expect((await org.admin.get(`/api/parts/get-part/${p.id}`)).body.part.quantityOnHand).toBe(10);
    const short = await org.admin.post('/api/stock/transfer-stock', { partId: p.id, fromLocationId: van.id, toLocationId: main.id, quantity: 4 });
    expect(short.status).toBe(409);
    expect(short.body.error).toBe('Not enough stock: Seal kit has 3.5 at Van 2');
    const same = await org.admin.post('/api/stock/transfer-stock', { partId: p.id, fromLocationId: van.id, toLocationId: van.id, quantity: 1 });
    expect(same.body.issues).toEqual([{ path: 'toLocationId', message: 'Choose two different locations' }]);
    expect(
      (await org.admin.post('/api/stock/transfer-stock', { partId: p.id, fromLocationId: van.id, toLocationId: main.id, quantity: 0 })).body.issues,
    ).toEqual([{ path: 'quantity', message: 'The number must be greater than 0' }]);
  });

  it('a count posts the difference as a count move (or none), and sets the level', async () => {
    const { org, addPart } = await setup();
    const p = await addPart({ quantityOnHand: 5 });
    const main = (await org.admin.get('/api/stock/get-locations')).body.locations[0];
    const less = await org.admin.post('/api/stock/count-stock', { partId: p.id, locationId: main.id, countedQuantity: 3, note: 'Shelf count' });
    expect(less.body.stockMove).toMatchObject({ reason: 'count', quantity: 2, fromLocation: { id: main.id }, toLocation: null, note: 'Shelf count' });
    const more = await org.admin.post('/api/stock/count-stock', { partId: p.id, locationId: main.id, countedQuantity: 8 });
    expect(more.body.stockMove).toMatchObject({ reason: 'count', quantity: 5, fromLocation: null, toLocation: { id: main.id } });
    const same = await org.admin.post('/api/stock/count-stock', { partId: p.id, locationId: main.id, countedQuantity: 8 });
    expect(same.body).toMatchObject({ message: 'Stock counted successfully', stockMove: null });
    expect((await org.admin.get(`/api/parts/get-part/${p.id}`)).body.part.quantityOnHand).toBe(8);
    const neg = await org.admin.post('/api/stock/count-stock', { partId: p.id, locationId: main.id, countedQuantity: -1 });
    expect(neg.body.issues).toEqual([{ path: 'countedQuantity', message: 'Counted quantity cannot be negative' }]);
    const consumable = await addPart({ name: 'Rags', type: 'consumable' });
    expect((await org.admin.post('/api/stock/count-stock', { partId: consumable.id, locationId: main.id, countedQuantity: 1 })).body.error).toBe(
      'Only stockable parts keep a quantity on hand',
    );
    // the moves list filters by part, location and reason
    const moves = await org.admin.get(`/api/stock/get-stock-moves?partId=${p.id}&reason=count`);
    expect(moves.body.stockMoves).toHaveLength(2);
    expect(moves.body.pagination.totalRecords).toBe(2);
  });

  it('levels equal the sum of moves, and the part total their sum, after a random sequence', async () => {
    const { org, addPart } = await setup();
    const main = () => org.admin.get('/api/stock/get-locations').then((r) => r.body.locations[0].id as number);
    const ps = [await addPart({ name: 'P1', quantityOnHand: 20 }), await addPart({ name: 'P2', quantityOnHand: 5 }), await addPart({ name: 'P3' })];
    const locs = [await main(), (await addLocation(org, 'L2')).body.location.id, (await addLocation(org, 'L3', 'site-store')).body.location.id];
    // a seeded generator: the same sequence every run
    let seed = 41;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let refused = 0;
    for (let i = 0; i < 60; i++) {
      const partId = ps[rnd(3)].id;
      const a = locs[rnd(3)];
      const b = locs[(locs.indexOf(a) + 1 + rnd(2)) % 3];
      const res =
        rnd(3) === 0
          ? await org.admin.post('/api/stock/count-stock', { partId, locationId: a, countedQuantity: rnd(12) })
          : await org.admin.post('/api/stock/transfer-stock', { partId, fromLocationId: a, toLocationId: b, quantity: 1 + rnd(6) });
      if (res.status === 409) refused += 1;
      else expect(res.status).toBe(200);
    }
    expect(refused).toBeGreaterThan(0);
    const { moved, levels, totals } = await ledgerSums(org.orgId);
    for (const level of levels) {
      const sum = moved.find((m) => m.part_id === level.partId && m.location_id === level.locationId);
      expect([level.partId, level.locationId, Number(sum?.q ?? 0)]).toEqual([level.partId, level.locationId, level.quantity]);
      expect(level.quantity).toBeGreaterThanOrEqual(0);
    }
    expect(moved.length).toBe(levels.filter((l) => l.quantity !== 0 || moved.some((m) => m.part_id === l.partId && m.location_id === l.locationId)).length);
    for (const total of totals) {
      const sum = levels.filter((l) => l.partId === total.id).reduce((s, l) => s + l.quantity, 0);
      expect(Math.round(sum * 1000) / 1000).toBe(total.q);
    }
  });

  it("the demo seed takes its work orders' stockable parts from the default location through the ledger, never short", async () => {
    const org = await createOrg(t, 'Seeded');
    await seedSampleData(t.database.db, org.orgId);
    const { lines, consumed } = await withTenant(t.database.db, org.orgId, async (tx) => ({
      lines: await tx
        .select({
          workOrderId: workOrderParts.workOrderId,
          partId: workOrderParts.partId,
          quantity: workOrderParts.quantity,
          locationId: workOrderParts.locationId,
        })
        .from(workOrderParts)
        .innerJoin(parts, and(eq(parts.orgId, workOrderParts.orgId), eq(parts.id, workOrderParts.partId)))
        .where(and(eq(workOrderParts.orgId, org.orgId), eq(parts.type, 'stockable'))),
      consumed: await tx
        .select()
        .from(stockMoves)
        .where(and(eq(stockMoves.orgId, org.orgId), eq(stockMoves.reason, 'consumption'))),
    }));
    // The analytics seed's year of history writes lines without a location (before the ledger, like the migrated ones).
    const current = lines.filter((l) => l.locationId !== null);
    expect(current.length).toBeGreaterThan(0);
    const main = (await org.admin.get('/api/stock/get-locations')).body.locations.find((l: { isDefault: boolean }) => l.isDefault).id;
    for (const line of current) {
      expect(line.locationId).toBe(main);
      const taken = consumed.filter((c) => c.workOrderId === line.workOrderId && c.partId === line.partId).reduce((sum, c) => sum + c.quantity, 0);
      expect([line.workOrderId, line.partId, taken]).toEqual([line.workOrderId, line.partId, line.quantity]);
    }
    const { moved, levels } = await ledgerSums(org.orgId);
    for (const level of levels) {
      expect(level.quantity).toBeGreaterThanOrEqual(0);
      expect(Number(moved.find((m) => m.part_id === level.partId && m.location_id === level.locationId)?.q ?? 0)).toBe(level.quantity);
    }
  });

  it('reorder point, reorder quantity and bin per location (managers); moves list by location', async () => {
    const { org, addPart } = await setup();
    const p = await addPart({ quantityOnHand: 2 });
    const main = (await org.admin.get('/api/stock/get-locations')).body.locations[0];
    const res = await org.admin.put('/api/stock/update-stock-level', { partId: p.id, locationId: main.id, reorderPoint: 4, reorderQuantity: 10, bin: 'A-03' });
    expect(res.body.stockLevels).toMatchObject([{ quantity: 2, reorderPoint: 4, reorderQuantity: 10, bin: 'A-03' }]);
    expect((await org.admin.get(`/api/stock/get-stock-moves?locationId=${main.id}`)).body.stockMoves).toMatchObject([{ reason: 'initial', quantity: 2 }]);
  });
});

describe('migration 0060 (stock by location without loss)', () => {
  it("gives each organisation a Main store, today's quantity as an initial move and its minimum as the reorder point", async () => {
    const { org, m } = await setup();
    // A part as the parts of before: quantity and minimum on the part, one move without a location.
    await withTenant(t.database.db, org.orgId, async (tx) => {
      await tx.delete(stockLocations).where(eq(stockLocations.orgId, org.orgId));
      const [p] = await tx
        .insert(parts)
        .values({
          orgId: org.orgId,
          name: 'Old bearing',
          type: 'stockable',
          categoryId: m.productCategory.id,
          salesPrice: 3,
          unitOfMeasureId: m.each.id,
          purchaseUnitOfMeasureId: m.each.id,
          quantityOnHand: 7,
          minimumQuantity: 2,
        })
        .returning({ id: parts.id });
      await tx.execute(sql`insert into stock_moves (org_id, part_id, quantity, reason) values (${org.orgId}, ${p.id}, 7, 'count')`);
      // The migration's statements, for this organisation only (the file is what a database before 0060 ran).
      const file = readFileSync('drizzle/0060_stock_main_store_backfill.sql', 'utf8')
        .split('--> statement-breakpoint')
        .filter((s) => !/UPDATE stock_moves SET note/.test(s) && !/DO \$\$/.test(s) && !/ALTER TABLE/.test(s))
        .map((s) =>
          s
            .replace(/FROM organizations/g, `FROM organizations WHERE id = ${org.orgId}`)
            .replace(/FROM parts/g, `FROM parts WHERE org_id = ${org.orgId} AND`)
            .replace(/WHERE org_id = (\d+) AND\s+WHERE/g, 'WHERE org_id = $1 AND'),
        );
      for (const statement of file) await tx.execute(sql.raw(statement));
    });
    const main = (await org.admin.get('/api/stock/get-locations')).body.locations;
    expect(main).toMatchObject([{ id: 1, name: 'Main store', isDefault: true }]);
    const part = (await org.admin.get('/api/parts/get-parts?name=Old')).body.parts[0];
    expect(part).toMatchObject({ quantityOnHand: 7, minimumQuantity: 2 });
    expect((await org.admin.get(`/api/stock/get-stock-levels?partId=${part.id}`)).body.stockLevels).toMatchObject([
      { quantity: 7, reorderPoint: 2, location: { name: 'Main store' } },
    ]);
    const moves = (await org.admin.get(`/api/stock/get-stock-moves?partId=${part.id}`)).body.stockMoves;
    expect(moves).toMatchObject([
      { reason: 'initial', quantity: 7, toLocation: { id: 1 }, fromLocation: null },
      { reason: 'count', quantity: 7, toLocation: null, fromLocation: null },
    ]);
    // the ledger goes on from there
    const van = (await addLocation(org, 'Van')).body.location;
    expect(van.id).toBeGreaterThan(1);
    const moved = await org.admin.post('/api/stock/transfer-stock', { partId: part.id, fromLocationId: 1, toLocationId: van.id, quantity: 7 });
    expect(moved.status).toBe(200);
    await withTenant(t.database.db, org.orgId, async (tx) => {
      const [n] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(stockMoves)
        .where(and(eq(stockMoves.orgId, org.orgId), eq(stockMoves.partId, part.id)));
      expect(n.n).toBe(3);
    });
  });
});

describe('consumption by work order part lines', () => {
  const W = '/api/work-orders';
  async function order(org: TestOrg) {
    const res = await org.admin.post(`${W}/add-work-order`, { title: 'Replace pump seal' });
    expect(res.status).toBe(201);
    return res.body.workOrder.id as number;
  }
  const onHand = async (org: TestOrg, partId: number) =>
    Object.fromEntries(
      ((await org.admin.get(`/api/stock/get-stock-levels?partId=${partId}`)).body.stockLevels as { location: { name: string }; quantity: number }[]).map(
        (l) => [l.location.name, l.quantity],
      ),
    );

  it('adding takes stock from the default location (or the one named), increasing takes more, reducing and removing give it back', async () => {
    const { org, addPart } = await setup();
    const p = await addPart({ quantityOnHand: 10 });
    const rags = await addPart({ name: 'Rags', type: 'consumable' });
    const van = (await addLocation(org, 'Van 3')).body.location;
    const main = (await org.admin.get('/api/stock/get-locations')).body.locations[0];
    await org.admin.post('/api/stock/transfer-stock', { partId: p.id, fromLocationId: main.id, toLocationId: van.id, quantity: 4 });
    const wo = await order(org);
    // the spec's body: no location, the default one
    const added = await org.admin.post(`${W}/add-parts/${wo}`, { parts: [p.id, rags.id] });
    expect(added.status).toBe(201);
    expect(added.body.workOrderParts).toMatchObject([
      { partId: p.id, quantity: 1, locationId: main.id },
      { partId: rags.id, locationId: main.id },
    ]);
    expect(await onHand(org, p.id)).toEqual({ 'Main store': 5, 'Van 3': 4 });
    await org.admin.post(`${W}/add-parts/${wo}`, { parts: [{ partId: p.id, quantity: 2 }] });
    expect(await onHand(org, p.id)).toEqual({ 'Main store': 3, 'Van 3': 4 });
    // another location for a part already on the order is refused
    const elsewhere = await org.admin.post(`${W}/add-parts/${wo}`, { parts: [{ partId: p.id, quantity: 1, locationId: van.id }] });
    expect(elsewhere.body.error).toBe('Seal kit is already on this work order from another location');
    const reduced = await org.admin.put(`${W}/update-part/${wo}/part/${p.id}`, { quantity: 1 });
    expect(reduced.status).toBe(200);
    expect(await onHand(org, p.id)).toEqual({ 'Main store': 5, 'Van 3': 4 });
    expect((await org.admin.put(`${W}/update-part/${wo}/part/${p.id}`, { quantity: 3 })).status).toBe(200);
    expect(await onHand(org, p.id)).toEqual({ 'Main store': 3, 'Van 3': 4 });
    expect((await org.admin.del(`${W}/delete-part/${wo}/part/${p.id}`)).status).toBe(200);
    expect(await onHand(org, p.id)).toEqual({ 'Main store': 6, 'Van 3': 4 });
    // from the van, named
    const wo2 = await order(org);
    expect((await org.admin.post(`${W}/add-parts/${wo2}`, { parts: [{ partId: p.id, quantity: 4, locationId: van.id }] })).status).toBe(201);
    expect(await onHand(org, p.id)).toEqual({ 'Main store': 6, 'Van 3': 0 });
    const moves = (await org.admin.get(`/api/stock/get-stock-moves?workOrderId=${wo}`)).body.stockMoves;
    expect(moves.map((m: { reason: string; quantity: number }) => [m.reason, m.quantity])).toEqual([
      ['return', 3],
      ['consumption', 2],
      ['return', 2],
      ['consumption', 2],
      ['consumption', 1],
    ]);
    expect((await org.admin.get(`/api/parts/get-part/${p.id}`)).body.part.quantityOnHand).toBe(6);
    // a consumable part moves nothing
    expect((await org.admin.get(`/api/stock/get-stock-moves?partId=${rags.id}`)).body.stockMoves).toEqual([]);
  });

  it('a shortage is a 409 and the line is not added, unless the organisation allows negative stock', async () => {
    const { org, addPart } = await setup();
    const p = await addPart({ quantityOnHand: 1 });
    const wo = await order(org);
    const short = await org.admin.post(`${W}/add-parts/${wo}`, { parts: [{ partId: p.id, quantity: 2 }] });
    expect(short.status).toBe(409);
    expect(short.body.error).toBe('Not enough stock: Seal kit has 1 at Main store');
    expect((await org.admin.get(`${W}/get-parts/${wo}`)).body.workOrderParts).toEqual([]);
    const manager = await org.as('manager');
    expect((await manager.put('/api/stock/update-stock-settings', { allowNegativeStock: true })).body.settings).toEqual({ allowNegativeStock: true });
    expect((await org.admin.post(`${W}/add-parts/${wo}`, { parts: [{ partId: p.id, quantity: 2 }] })).status).toBe(201);
    expect(await onHand(org, p.id)).toEqual({ 'Main store': -1 });
    expect((await org.admin.get(`/api/parts/get-part/${p.id}`)).body.part.quantityOnHand).toBe(-1);
  });

  it('two people taking the last unit at once: one succeeds, the other gets 409', async () => {
    const { org, addPart } = await setup();
    const p = await addPart({ quantityOnHand: 1 });
    const [wo1, wo2] = [await order(org), await order(org)];
    const results = await Promise.all([org.admin.post(`${W}/add-parts/${wo1}`, { parts: [p.id] }), org.admin.post(`${W}/add-parts/${wo2}`, { parts: [p.id] })]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.body.error).toBe('Not enough stock: Seal kit has 0 at Main store');
    expect(await onHand(org, p.id)).toEqual({ 'Main store': 0 });
    const { moved, levels } = await ledgerSums(org.orgId);
    expect(Number(moved.find((m) => m.part_id === p.id)!.q)).toBe(levels.find((l) => l.partId === p.id)!.quantity);
  });

  it("another organisation's location or order: refused, nothing moves", async () => {
    const a = await setup('A');
    const b = await setup('B');
    const pa = await a.addPart({ quantityOnHand: 3 });
    await addLocation(a.org, 'Van A');
    const pb = await b.addPart({ quantityOnHand: 3 });
    const woA = await order(a.org);
    const woB = await order(b.org);
    expect((await b.org.admin.post(`${W}/add-parts/${woB}`, { parts: [{ partId: pb.id, quantity: 1, locationId: 2 }] })).body.error).toBe(
      'Location does not exist in this organization',
    );
    expect((await a.org.admin.post(`${W}/add-parts/${woA}`, { parts: [pa.id] })).status).toBe(201);
    expect((await b.org.admin.put(`${W}/update-part/${woA + 100}/part/${pa.id}`, { quantity: 3 })).status).toBe(404);
    expect(await onHand(a.org, pa.id)).toEqual({ 'Main store': 2 });
    expect(await onHand(b.org, pb.id)).toEqual({ 'Main store': 3 });
  });
});

describe('the moves list exports', () => {
  it("as CSV with the list filters, only the organisation's moves", async () => {
    const { org, addPart } = await setup();
    const other = await setup('Other');
    await other.addPart({ name: 'Foreign part', quantityOnHand: 9 });
    const p = await addPart({ quantityOnHand: 4 });
    const main = (await org.admin.get('/api/stock/get-locations')).body.locations[0];
    await org.admin.post('/api/stock/count-stock', { partId: p.id, locationId: main.id, countedQuantity: 1, note: 'Shelf' });
    const res = await org.admin.get('/api/data-transfer/export/stock-moves?reason=count');
    expect(res.status).toBe(200);
    const text = String(res.body);
    expect(text).toContain('Reason');
    expect(text).toContain('Shelf');
    expect(text).not.toContain('initial');
    expect(text).not.toContain('Foreign part');
  });
});
