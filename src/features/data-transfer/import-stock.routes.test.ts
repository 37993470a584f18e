/**
 * Issue 41: storerooms and stock levels in and out of files. Storerooms by name (kind, default); levels by part and
 * storeroom, the quantity posted as a count through the stock service (a move, never an overwritten number), with
 * the reorder point, reorder quantity and bin. The exports re-import unchanged and into another organisation;
 * names are looked up in the importing organisation only; managers only.
 */
import { describe, expect, it } from 'vitest';
import { createOrg, useTestApp, type TestOrg } from '../../server/test/harness';
import { asImportKnown, exported, postImport as post, snapshotOf, type Client } from './test-kit';

const t = useTestApp();

const snapshot = (org: TestOrg) => snapshotOf(t, org);

const PARTS = [
  { name: 'Bearing 6204', skuCode: 'BRG-6204', type: 'stockable', category: 'Spares', salesPrice: '12', unitOfMeasure: 'Units' },
  { name: 'Seal kit', type: 'stockable', category: 'Spares', salesPrice: '30', unitOfMeasure: 'Units' },
  { name: 'Cleaning rag', skuCode: 'SRV-1', type: 'consumable', category: 'Spares', salesPrice: '5', unitOfMeasure: 'Units' },
];
const ROOMS = [
  { name: 'Main store', kind: 'storeroom', isDefault: 'yes' },
  { name: 'Van 1', kind: 'van', isDefault: 'no' },
];
const LEVELS = [
  { part: 'BRG-6204', storeroom: 'Main store', quantity: '40', reorderPoint: '10', reorderQuantity: '20', bin: 'A-03' },
  { part: 'Seal kit', storeroom: 'van 1', quantity: '5' },
];

async function withParts(org: TestOrg) {
  const units = await post(org.admin, 'uoms', [{ name: 'Units', category: 'Unit', type: 'reference' }], { createMissing: true });
  expect(units.body, JSON.stringify(units.body)).toMatchObject({ imported: 1, problems: [] });
  const parts = await post(org.admin, 'parts', PARTS, { createMissing: true });
  expect(parts.body, JSON.stringify(parts.body)).toMatchObject({ imported: 3, problems: [] });
}

async function stocked(org: TestOrg) {
  await withParts(org);
  const rooms = await post(org.admin, 'storerooms', ROOMS);
  expect(rooms.body, JSON.stringify(rooms.body)).toMatchObject({ imported: 2, new: 2, problems: [] });
}

const levels = async (client: Client) =>
  ((await client.get('/api/stock/get-stock-levels?pageSize=100')).body.stockLevels as Record<string, unknown>[]).map(
    (l) =>
      `${(l.part as { name: string }).name} @ ${(l.location as { name: string }).name}: ${l.quantity} (${l.reorderPoint}/${l.reorderQuantity}) ${l.bin ?? '-'}`,
  );
const moves = async (client: Client) =>
  ((await client.get('/api/stock/get-stock-moves?pageSize=100')).body.stockMoves as Record<string, unknown>[]).map(
    (m) => `${m.reason} ${m.quantity} ${(m.fromLocation as { name: string } | null)?.name ?? '-'} > ${(m.toLocation as { name: string } | null)?.name ?? '-'}`,
  );
const rooms = async (client: Client) =>
  ((await client.get('/api/stock/get-locations?pageSize=100')).body.locations as Record<string, unknown>[]).map(
    (l) => `${l.name} ${l.kind}${l.isDefault ? ' default' : ''}`,
  );

describe('storerooms and stock levels import and export', () => {
  it('imports storerooms and levels (a dry run writes nothing), counts post moves, the exports re-import unchanged and into another organisation', async () => {
    const a = await createOrg(t, 'Stock A');
    const dry = await post(a.admin, 'storerooms', ROOMS, { dryRun: true });
    expect(dry.body, JSON.stringify(dry.body)).toMatchObject({ total: 2, valid: 2, imported: 0, new: 2, problems: [] });
    expect(await rooms(a.admin)).toEqual([]);
    await stocked(a);
    expect(await rooms(a.admin)).toEqual(['Main store storeroom default', 'Van 1 van']);

    const dryLevels = await post(a.admin, 'stock-levels', LEVELS, { dryRun: true });
    expect(dryLevels.body, JSON.stringify(dryLevels.body)).toMatchObject({ imported: 0, new: 2, problems: [] });
    expect(await levels(a.admin)).toEqual([]);
    const res = await post(a.admin, 'stock-levels', LEVELS);
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ imported: 2, new: 2, problems: [] });
    expect(await levels(a.admin)).toEqual(['Bearing 6204 @ Main store: 40 (10/20) A-03', 'Seal kit @ Van 1: 5 (0/0) -']);
    expect((await moves(a.admin)).sort()).toEqual(['count 40 - > Main store', 'count 5 - > Van 1']);

    // a new quantity is a count: the difference is a move, the earlier moves stay
    const counted = await post(a.admin, 'stock-levels', [{ part: 'Bearing 6204', storeroom: 'Main store', quantity: '35' }]);
    expect(counted.body, JSON.stringify(counted.body)).toMatchObject({ updated: 1, new: 0, problems: [] });
    expect((await levels(a.admin))[0]).toBe('Bearing 6204 @ Main store: 35 (10/20) A-03');
    expect(await moves(a.admin)).toHaveLength(3);
    expect((await moves(a.admin))[0]).toBe('count 5 Main store > -');

    const roomFile = await exported(a.admin, 'storerooms');
    expect(roomFile).toEqual([
      ['Name', 'Kind', 'Default', 'Location'],
      ['Main store', 'storeroom', 'yes', ''],
      ['Van 1', 'van', 'no', ''],
    ]);
    const levelFile = await exported(a.admin, 'stock-levels');
    expect(levelFile[0]).toEqual(['Part', 'Part Name', 'Storeroom', 'Quantity', 'Reorder Point', 'Reorder Quantity', 'Bin']);
    expect(levelFile[1]).toEqual(['BRG-6204', 'Bearing 6204', 'Main store', '35', '10', '20', 'A-03']);
    const before = await snapshot(a);
    const sameRooms = await post(a.admin, 'storerooms', asImportKnown('storerooms', roomFile));
    expect(sameRooms.body, JSON.stringify(sameRooms.body)).toMatchObject({ new: 0, updated: 0, unchanged: 2, problems: [] });
    const sameLevels = await post(a.admin, 'stock-levels', asImportKnown('stock-levels', levelFile));
    expect(sameLevels.body, JSON.stringify(sameLevels.body)).toMatchObject({ new: 0, updated: 0, unchanged: 2, problems: [] });
    expect(await snapshot(a)).toBe(before);

    // into another organisation: the same storerooms and levels
    const b = await createOrg(t, 'Stock B');
    await withParts(b);
    expect((await post(b.admin, 'storerooms', asImportKnown('storerooms', roomFile))).body).toMatchObject({ new: 2, problems: [] });
    expect((await post(b.admin, 'stock-levels', asImportKnown('stock-levels', levelFile))).body).toMatchObject({ new: 2, problems: [] });
    expect(await rooms(b.admin)).toEqual(await rooms(a.admin));
    expect(await levels(b.admin)).toEqual(await levels(a.admin));

    // the default moves with a yes on another storeroom; a no on today's default is refused
    const moved = await post(a.admin, 'storerooms', [{ name: 'Van 1', isDefault: 'yes' }]);
    expect(moved.body, JSON.stringify(moved.body)).toMatchObject({ updated: 1, problems: [] });
    expect(await rooms(a.admin)).toEqual(['Van 1 van default', 'Main store storeroom']);
    const none = await post(a.admin, 'storerooms', [{ name: 'Van 1', isDefault: 'no' }], { dryRun: true });
    expect(none.body.problems).toEqual([
      { row: 2, column: 'isDefault', message: 'An organisation keeps one default storeroom: write yes on another one instead' },
    ]);
  });

  it('a storeroom names its location by path, code or name; the export writes the path and re-imports unchanged; an empty cell clears it', async () => {
    const a = await createOrg(t, 'Stock Places');
    const plant = (await a.admin.post('/api/locations/add-location', { name: 'Plant', code: 'PL' })).body.location.id as number;
    await a.admin.post('/api/locations/add-location', { name: 'Hall A', parentId: plant });
    await a.admin.post('/api/locations/add-location', { name: 'Yard' });
    const res = await post(a.admin, 'storerooms', [
      { name: 'Main store', isDefault: 'yes', location: 'Plant / Hall A' },
      { name: 'Van 1', kind: 'van', location: 'pl' },
      { name: 'Yard box', location: 'yard' },
      { name: 'Nowhere', location: 'Hall Z' },
    ]);
    expect(res.body.problems).toEqual([{ row: 5, column: 'location', message: 'Location not found: give its code, its path (Plant / Hall A) or its name' }]);
    expect(res.body).toMatchObject({ imported: 0 });
    const ok = await post(a.admin, 'storerooms', [
      { name: 'Main store', isDefault: 'yes', location: 'Plant / Hall A' },
      { name: 'Van 1', kind: 'van', location: 'pl' },
      { name: 'Yard box', location: 'yard' },
    ]);
    expect(ok.body, JSON.stringify(ok.body)).toMatchObject({ imported: 3, new: 3, problems: [] });
    const file = await exported(a.admin, 'storerooms');
    expect(file).toEqual([
      ['Name', 'Kind', 'Default', 'Location'],
      ['Main store', 'storeroom', 'yes', 'Plant / Hall A'],
      ['Van 1', 'van', 'no', 'Plant'],
      ['Yard box', 'storeroom', 'no', 'Yard'],
    ]);
    const before = await snapshot(a);
    expect((await post(a.admin, 'storerooms', asImportKnown('storerooms', file))).body).toMatchObject({ unchanged: 3, problems: [] });
    expect(await snapshot(a)).toBe(before);
    // an empty Location cell clears the storeroom's place; no Location column keeps it
    expect((await post(a.admin, 'storerooms', [{ name: 'Van 1', kind: 'van', location: '' }])).body).toMatchObject({ updated: 1, problems: [] });
    expect((await post(a.admin, 'storerooms', [{ name: 'Yard box' }])).body).toMatchObject({ unchanged: 1, problems: [] });
    const places = ((await a.admin.get('/api/stock/get-locations')).body.locations as { name: string; location: { path: string } | null }[]).map(
      (l) => `${l.name}: ${l.location?.path ?? '-'}`,
    );
    expect(places).toEqual(['Main store: Plant / Hall A', 'Van 1: -', 'Yard box: Yard']);
  });

  it("names unknown parts and storerooms by row and column, never finds another organisation's, and is refused to workers", async () => {
    const a = await createOrg(t, 'Stock Iso A');
    await stocked(a);
    const b = await createOrg(t, 'Stock Iso B');
    expect((await post(b.admin, 'storerooms', [{ name: 'Depot' }])).body.problems).toEqual([]);
    const beforeA = await snapshot(a);
    const res = await post(
      b.admin,
      'stock-levels',
      [
        { part: 'BRG-6204', storeroom: 'Depot', quantity: '1' },
        { part: 'Nope', storeroom: 'Main store', quantity: '2' },
        { part: 'Nope', storeroom: 'Depot', quantity: 'many', reorderPoint: '-1' },
      ],
      { mode: 'valid' },
    );
    expect(res.body.problems).toEqual([
      { row: 2, column: 'part', message: 'Part not found: give its SKU or its name' },
      { row: 3, column: 'part', message: 'Part not found: give its SKU or its name' },
      { row: 3, column: 'storeroom', message: 'Storeroom not found: give its name' },
      { row: 4, column: 'part', message: 'Part not found: give its SKU or its name' },
      { row: 4, column: 'reorderPoint', message: 'Reorder values cannot be negative' },
      { row: 4, column: 'quantity', message: 'Quantity must be a number' },
    ]);
    expect(await snapshot(a)).toBe(beforeA);

    // a service part keeps no stock: the stock service's refusal, on the Part column
    const service = await post(a.admin, 'stock-levels', [{ part: 'SRV-1', storeroom: 'Main store', quantity: '3' }], { dryRun: true });
    expect(service.body.problems).toEqual([{ row: 2, column: 'part', message: 'Only stockable parts keep a quantity on hand' }]);

    const worker = await a.as('worker');
    expect((await post(worker, 'storerooms', ROOMS, { dryRun: true })).status).toBe(403);
    expect((await post(worker, 'stock-levels', LEVELS, { dryRun: true })).status).toBe(403);
    expect((await worker.get('/api/data-transfer/export/storerooms')).status).toBe(403);
    expect((await worker.get('/api/data-transfer/export/stock-levels')).status).toBe(403);
    const manager = await a.as('manager');
    expect((await post(manager, 'stock-levels', LEVELS, { dryRun: true })).body).toMatchObject({ new: 2, problems: [] });
  });
});
