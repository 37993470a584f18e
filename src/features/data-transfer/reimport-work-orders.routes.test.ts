/**
 * Work orders and their labour and parts lines import and re-import (decision 059): new rows take the next
 * numbers, an exported file comes back unchanged, an edited cell updates its record through the work orders'
 * services, references are read in the importing organisation only, and bad rows answer row errors.
 */
import { describe, expect, it } from 'vitest';
import { createOrg, useTestApp, type TestOrg } from '../../server/test/harness';
import { masterRows } from '../assets/test-fixtures';
import { type ExportList, type ImportKind } from './data-transfer.schema';
import { asImport, editRoundTrip, exported, postImport as post, seedImport as seed, snapshotOf } from './test-kit';

const t = useTestApp();

const snapshot = (org: TestOrg) => snapshotOf(t, org);
const roundTrip = (
  org: TestOrg,
  kind: ImportKind & ExportList,
  header: string,
  match: (row: Record<string, string>) => boolean,
  value: string,
  computed = {},
) => editRoundTrip(t, org, { kind, list: kind, header, match, value }, { computed, anyOrder: true });

/** An organisation with assets (two of one name), parts, a reason and a technician. */
async function orgWithCatalogue(name: string) {
  const org = await createOrg(t, name);
  await masterRows(t, org.orgId, 'A');
  await seed(org.admin, 'assets', [
    { name: 'Pump P-1', assetCode: 'P-1', category: 'Pumps A', date: '2024-05-01' },
    { name: 'Twin', assetCode: 'T-1', category: 'Pumps A', date: '2024-05-01' },
    { name: 'Twin', assetCode: 'T-2', category: 'Pumps A', date: '2024-05-01' },
  ]);
  await seed(org.admin, 'parts', [
    { name: 'Bearing 6204', skuCode: 'BRG-1', type: 'stockable', category: 'Spares A', salesPrice: '12.5', unitOfMeasure: 'Each A', quantityOnHand: '40' },
    { name: 'Grease', type: 'consumable', category: 'Spares A', salesPrice: '3', unitOfMeasure: 'Each A' },
  ]);
  await seed(org.admin, 'time-tracking-reasons', [{ name: 'Repair', type: 'productivity', isBlockingReason: 'no' }]);
  const tech = await org.as('worker', { firstName: 'Omar', lastName: 'Saleh' });
  // the harness's first member of the organisation
  const techEmail = `worker1@${org.subdomain}.example.com`;
  return { org, tech, techEmail };
}

describe('work orders import and re-import with their labour and parts', () => {
  it('new orders take the next numbers; an exported file re-imports unchanged and an edited cell updates its order', async () => {
    const { org, techEmail } = await orgWithCatalogue('WO Re');
    expect(techEmail).toMatch(/@/);
    const res = await post(org.admin, 'work-orders', [
      { title: 'Replace seal', priority: 'high', assignees: 'Omar Saleh', asset: 'P-1', dueDate: '2026-03-03T17:00:00.000Z', instructions: 'Isolate first' },
      // an order of the past, imported with its status
      { title: 'Inspect motor', status: 'Closed', assignees: techEmail, duration: '01:30', asset: 'AS-0002' },
      { title: 'Twin check', asset: 'T-2' },
    ]);
    expect(res.body, JSON.stringify(res.body.problems)).toMatchObject({ imported: 3, new: 3, problems: [] });
    const { workOrders } = (await org.admin.get('/api/work-orders/get-work-orders?pageSize=10')).body;
    expect(workOrders.map((w: { workOrderId: string; title: string; status: string }) => `${w.workOrderId} ${w.title} ${w.status}`).sort()).toEqual([
      'WO-0001 Replace seal assigned',
      'WO-0002 Inspect motor completed',
      'WO-0003 Twin check assigned',
    ]);

    // an asset whose name two assets share re-imports as the one the order has
    await roundTrip(org, 'work-orders', 'Priority', (r) => r.Title === 'Inspect motor', 'low');
    await roundTrip(org, 'work-orders', 'Title', (r) => r.Title === 'Twin check', 'Twin check (east)');
    await roundTrip(org, 'work-orders', 'Assigned To', (r) => r.Title === 'Replace seal', '');
    const seal = (await org.admin.get('/api/work-orders/get-work-orders?title=Replace')).body.workOrders[0];
    // the column the export lacks (instructions) is kept; the assignees were cleared
    expect(seal).toMatchObject({ assignees: [], instructions: 'Isolate first', asset: { name: 'Pump P-1' }, priority: 'high' });
    const twin = (await org.admin.get('/api/work-orders/get-work-orders?title=east')).body.workOrders[0];
    expect(twin.asset.id).toBe(3);
  });

  it("a status change goes through the order's rules: closing needs its procedure's required steps filled", async () => {
    const { org } = await orgWithCatalogue('WO Rule');
    await seed(org.admin, 'work-orders', [{ title: 'Pump check' }]);
    const procedure = (
      await org.admin.post('/api/procedures/add-procedure', { name: 'Pump check', steps: [{ kind: 'checkbox', label: 'Isolated', required: true }] })
    ).body.procedure;
    expect((await org.admin.post('/api/work-orders/attach-procedure/1', { procedureId: procedure.id })).status).toBe(200);
    const file = await exported(org.admin, 'work-orders');
    const closed = file.map((cells, i) => (i ? cells.map((c, j) => (file[0][j] === 'Status' ? 'completed' : c)) : cells));
    const before = await snapshot(org);
    const res = await post(org.admin, 'work-orders', asImport('work-orders', closed));
    expect(res.body).toMatchObject({
      imported: 0,
      updated: 0,
      problems: [{ row: 2, column: 'status', message: 'Fill the 1 required procedure step before closing this work order' }],
    });
    expect(await snapshot(org)).toBe(before);
  });

  it('labour by order, worker and start; parts by order and part (SKU or name): export, edit, re-import', async () => {
    const { org, techEmail } = await orgWithCatalogue('WO Lines');
    await seed(org.admin, 'work-orders', [{ title: 'Replace seal' }, { title: 'Inspect motor' }]);
    await seed(org.admin, 'work-order-labor', [
      { workOrder: 'WO-0001', worker: techEmail, reason: 'Repair', startTime: '2026-01-05T08:00:00.000Z', endTime: '2026-01-05T10:00:00.000Z' },
      { workOrder: 'WO-0001', worker: 'Omar Saleh', reason: 'repair', startTime: '2026-01-06T08:00:00.000Z', endTime: '2026-01-06T09:00:00.000Z' },
      { workOrder: 'WO-0002', worker: techEmail, reason: 'Repair', startTime: '2026-01-06T08:00:00.000Z', endTime: '2026-01-06T08:30:00.000Z' },
    ]);
    await roundTrip(
      org,
      'work-order-labor',
      'End Time',
      (r) => r['Work Order'] === 'WO-0001' && r['Start Time'].startsWith('2026-01-06'),
      '2026-01-06T11:00:00.000Z',
      { Minutes: '180' },
    );
    const { labors } = (await org.admin.get('/api/work-orders/get-labors/1')).body;
    expect(labors.map((l: { startDate: string; endDate: string }) => `${l.startDate.slice(0, 13)} ${l.endDate.slice(11, 13)}`)).toEqual([
      '2026-01-05T08 10',
      '2026-01-06T08 11',
    ]);

    await seed(org.admin, 'work-order-parts', [
      { workOrder: 'WO-0001', part: 'BRG-1', quantity: '2' },
      { workOrder: 'WO-0001', part: 'Grease' },
      { workOrder: 'WO-0002', part: 'bearing 6204', quantity: '1' },
    ]);
    await roundTrip(org, 'work-order-parts', 'Quantity', (r) => r['Work Order'] === 'WO-0001' && r.Part === 'BRG-1', '5');
    const { workOrderParts } = (await org.admin.get('/api/work-orders/get-parts/1')).body;
    expect(workOrderParts.map((p: { Part: { name: string }; quantity: number }) => `${p.Part.name} x${p.quantity}`).sort()).toEqual([
      'Bearing 6204 x5',
      'Grease x1',
    ]);
  });
});

describe('bad rows and other organisations', () => {
  it("another organisation's assets, people, orders and parts are unknown here: row errors, nothing of theirs changes", async () => {
    const a = await orgWithCatalogue('WO Iso A');
    const b = await orgWithCatalogue('WO Iso B');
    await seed(b.org.admin, 'work-orders', [{ title: 'B order', asset: 'P-1' }]);
    await seed(b.org.admin, 'parts', [
      { name: 'B only part', skuCode: 'B-ONLY', type: 'consumable', category: 'Spares A', salesPrice: '1', unitOfMeasure: 'Each A' },
    ]);
    const beforeB = await snapshot(b.org);
    const beforeA = await snapshot(a.org);

    const orders = await post(
      a.org.admin,
      'work-orders',
      [
        { title: 'Uses B asset', asset: 'B only asset' },
        { title: 'Uses B person', assignees: b.techEmail },
        { title: 'Bad status', status: 'bogus', asset: 'Twin' },
        { title: '', endDate: 'not a date' },
        // B's order number: A has no WO-0001, so the row is a new order of A's
        { workOrderId: 'WO-0001', title: 'B order (A)' },
      ],
      { dryRun: true, mode: 'valid' },
    );
    expect(orders.status).toBe(200);
    expect(orders.body.problems).toEqual([
      { row: 2, column: 'asset', message: 'Asset not found: give its name, its code or its Asset ID (AS-0001)' },
      { row: 3, column: 'assignees', message: `No member of this organisation is ${b.techEmail}: give their e-mail` },
      { row: 4, column: 'asset', message: 'Several assets have this name: give its code or its Asset ID (AS-0001)' },
      { row: 4, column: 'status', message: 'Status must be one of assigned, in-progress, completed, cancelled' },
      { row: 5, column: 'title', message: 'Work Order Title is required' },
      { row: 5, column: 'endDate', message: 'End date must be a valid date' },
    ]);
    expect(orders.body).toMatchObject({ new: 1, updated: 0 });

    const labor = await post(
      a.org.admin,
      'work-order-labor',
      [
        { workOrder: 'WO-0009', worker: a.techEmail, reason: 'Repair', startTime: '2026-01-05T08:00:00Z', endTime: '2026-01-05T09:00:00Z' },
        { workOrder: 'WO-0001', worker: b.techEmail, reason: 'Nap', startTime: '2026-01-05T08:00:00Z', endTime: '2026-01-05T07:00:00Z' },
      ],
      { mode: 'valid' },
    );
    expect(labor.status).toBe(200);
    expect(labor.body.problems).toEqual([
      { row: 2, column: 'workOrder', message: 'Work order not found: give its number (WO-0001)' },
      { row: 3, column: 'workOrder', message: 'Work order not found: give its number (WO-0001)' },
      { row: 3, column: 'worker', message: `No member of this organisation is ${b.techEmail}: give their e-mail` },
      { row: 3, column: 'reason', message: 'Time tracking reason not found' },
      { row: 3, column: 'endTime', message: 'startTime must be before endTime' },
    ]);

    const partsRes = await post(
      a.org.admin,
      'work-order-parts',
      [
        { workOrder: 'WO-0001', part: 'B-ONLY' },
        { workOrder: 'WO-0001', part: 'BRG-1', quantity: '0' },
      ],
      { mode: 'valid' },
    );
    expect(partsRes.status).toBe(200);
    expect(partsRes.body.problems).toEqual([
      { row: 2, column: 'workOrder', message: 'Work order not found: give its number (WO-0001)' },
      { row: 2, column: 'part', message: 'Part not found: give its SKU or its name' },
      { row: 3, column: 'workOrder', message: 'Work order not found: give its number (WO-0001)' },
      { row: 3, column: 'quantity', message: 'Quantity must be a whole number of at least 1' },
    ]);
    expect(await snapshot(a.org)).toBe(beforeA);
    expect(await snapshot(b.org)).toBe(beforeB);
  });

  it('lines are managers’ and a file naming one line twice is refused', async () => {
    const { org, tech, techEmail } = await orgWithCatalogue('WO Dup');
    await seed(org.admin, 'work-orders', [{ title: 'Replace seal', assignees: techEmail }]);
    const line = { workOrder: 'WO-0001', worker: techEmail, reason: 'Repair', startTime: '2026-01-05T08:00:00Z', endTime: '2026-01-05T09:00:00Z' };
    const dup = await post(org.admin, 'work-order-labor', [line, { ...line, endTime: '2026-01-05T10:00:00Z' }], { dryRun: true });
    expect(dup.body.problems).toEqual([{ row: 3, column: 'startTime', message: 'Duplicate of row 2' }]);
    expect((await post(tech, 'work-order-labor', [line])).status).toBe(403);
    expect((await tech.get('/api/data-transfer/export/work-order-labor')).status).toBe(403);
  });
});
