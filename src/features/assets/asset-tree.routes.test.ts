import { describe, expect, it } from 'vitest';
import { withTenant } from '../../server/db/client';
import { workOrderLabors, workOrderParts } from '../../server/db/schema';
import { createOrg, useTestApp, type TestOrg } from '../../server/test/harness';
import { contractorLabour, masterRows } from './test-fixtures';

const t = useTestApp();

async function tree(org: TestOrg) {
  const m = await masterRows(t, org.orgId);
  const add = async (name: string, parentId?: number) => {
    const res = await org.admin.post('/api/assets/add-asset', { name, date: '2024-01-01', assetCategoryId: m.assetCategory.id, parentId });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.asset.id as number;
  };
  const line = await add('Line 1');
  const machine = await add('Filler', line);
  const motor = await add('Motor', machine);
  const pump = await add('Pump', line);
  const spare = await add('Spare');
  return { m, line, machine, motor, pump, spare };
}

/** Saves an asset as its drawer does: these fields, with the version it loaded. */
async function saveAsset(org: TestOrg, id: number, fields: Record<string, unknown>) {
  const { version } = (await org.admin.get(`/api/assets/get-asset/${id}`)).body.asset;
  return org.admin.put(`/api/assets/update-asset/${id}`, { date: '2024-01-01', ...fields, version });
}

describe('parent and child assets', () => {
  it('shows the parent on the asset and builds a tree; refuses a foreign or unknown parent', async () => {
    const org = await createOrg(t);
    const a = await tree(org);
    const motor = (await org.admin.get(`/api/assets/get-asset/${a.motor}`)).body.asset;
    expect(motor).toMatchObject({ parentId: a.machine, Parent: { id: a.machine, name: 'Filler', assetId: 'AS-0002' } });
    const nodes = (await org.admin.get('/api/assets/get-asset-tree')).body;
    expect(nodes.truncated).toBe(false);
    expect(nodes.assets.map((n: { name: string; parentId: number | null }) => [n.name, n.parentId])).toEqual([
      ['Filler', a.line],
      ['Line 1', null],
      ['Motor', a.machine],
      ['Pump', a.line],
      ['Spare', null],
    ]);
    const unknown = await org.admin.post('/api/assets/add-asset', { name: 'X', date: '2024-01-01', assetCategoryId: a.m.assetCategory.id, parentId: 99 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues).toEqual([{ path: 'parentId', message: 'Parent asset does not exist in this organization' }]);
  });

  it('moves a subtree; refuses a move under itself or a descendant, by move-asset and by update-asset', async () => {
    const org = await createOrg(t);
    const a = await tree(org);
    const moved = await org.admin.post(`/api/assets/move-asset/${a.machine}`, { parentId: a.spare });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ message: 'Asset moved successfully', asset: { parentId: a.spare } });
    // the motor came along: Spare now rolls up Filler and Motor
    expect((await org.admin.get(`/api/assets/get-asset-summary/${a.spare}`)).body.summary.descendants).toBe(2);
    expect((await org.admin.get(`/api/assets/get-asset-summary/${a.line}`)).body.summary.descendants).toBe(1);
    for (const [id, parentId] of [
      [a.spare, a.spare],
      [a.spare, a.motor],
      [a.machine, a.motor],
    ]) {
      const res = await org.admin.post(`/api/assets/move-asset/${id}`, { parentId });
      expect(res.status).toBe(400);
      expect(res.body.issues).toEqual([{ path: 'parentId', message: 'An asset cannot be moved under itself or one of its children' }]);
    }
    const viaUpdate = await saveAsset(org, a.spare, { name: 'Spare', assetCategoryId: a.m.assetCategory.id, parentId: a.motor });
    expect(viaUpdate.status).toBe(400);
    expect(viaUpdate.body.issues[0].message).toBe('An asset cannot be moved under itself or one of its children');
    // an update without parentId keeps the parent; null takes the asset to the top
    const kept = await saveAsset(org, a.motor, { name: 'Motor M1', assetCategoryId: a.m.assetCategory.id });
    expect(kept.body.asset).toMatchObject({ name: 'Motor M1', parentId: a.machine });
    const top = await org.admin.post(`/api/assets/move-asset/${a.motor}`, { parentId: null });
    expect(top.body.asset).toMatchObject({ parentId: null, Parent: null });
  });

  it('refuses to delete an asset with children (409)', async () => {
    const org = await createOrg(t);
    const a = await tree(org);
    const res = await org.admin.del(`/api/assets/delete-asset/${a.machine}`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('This asset has child assets; move or delete them first');
    expect((await org.admin.del(`/api/assets/delete-asset/${a.motor}`)).status).toBe(200);
    expect((await org.admin.del(`/api/assets/delete-asset/${a.machine}`)).status).toBe(200);
  });

  it('rolls work and cost up to the parents, as a hand computation gives', async () => {
    const org = await createOrg(t);
    const a = await tree(org);
    const order = async (title: string, assetId: number, status?: string) => {
      const res = await org.admin.post('/api/work-orders/add-work-order', { title, assetId, ...(status ? { status } : {}) });
      if (res.status !== 201) throw new Error(JSON.stringify(res.body));
      return res.body.workOrder.id as number;
    };
    const onLine = await order('Line check', a.line);
    const onMachine = await order('Filler seal', a.machine);
    const onMotor = await order('Motor bearing', a.motor);
    const onMotor2 = await order('Motor again', a.motor);
    const onSpare = await order('Spare check', a.spare);
    expect((await org.admin.put(`/api/work-orders/update-status/${onMotor2}`, { status: 'completed' })).status).toBe(200);
    // Contractor lines (rate and unit price kept on the line): labour cost = round(minutes x rate / 60), parts = quantity x unit price.
    const labour = (workOrderId: number, minutes: number, rate: number) => contractorLabour(org.orgId, '2024-03-01', workOrderId, minutes, rate);
    const part = (workOrderId: number, quantity: number, price: number) => ({
      orgId: org.orgId,
      workOrderId,
      shareId: 1,
      externalName: 'Gasket',
      externalUnitPriceMinor: price,
      quantity,
    });
    await withTenant(t.database.db, org.orgId, async (tx) => {
      await tx.insert(workOrderLabors).values([labour(onLine, 60, 6000), labour(onMachine, 90, 5000), labour(onMotor, 45, 8000), labour(onSpare, 600, 9999)]);
      await tx.insert(workOrderParts).values([part(onMachine, 3, 250), part(onMotor2, 2, 1200), part(onSpare, 1, 777)]);
    });
    // Hand computation: line 6000; filler 7500 + 750 = 8250; motor 6000 + 2400 = 8400; spare (not under the line) 99990 + 777.
    const summary = async (id: number) => (await org.admin.get(`/api/assets/get-asset-summary/${id}`)).body.summary;
    expect(await summary(a.line)).toEqual({
      children: [
        { id: a.machine, assetId: 'AS-0002', name: 'Filler' },
        { id: a.pump, assetId: 'AS-0004', name: 'Pump' },
      ],
      descendants: 3,
      workOrders: { own: 1, total: 4 },
      openWorkOrders: { own: 1, total: 3 },
      costMinor: { own: 6000, total: 6000 + 8250 + 8400 },
      // no asset of this tree has been down
      downMinutes: { own: 0, total: 0 },
    });
    expect(await summary(a.machine)).toMatchObject({
      descendants: 1,
      workOrders: { own: 1, total: 3 },
      openWorkOrders: { own: 1, total: 2 },
      costMinor: { own: 8250, total: 16650 },
    });
    expect(await summary(a.motor)).toMatchObject({ children: [], descendants: 0, workOrders: { own: 2, total: 2 }, costMinor: { own: 8400, total: 8400 } });
    // a worker sees the counts, not the amounts
    const worker = await org.as('worker');
    expect((await worker.get(`/api/assets/get-asset-summary/${a.line}`)).body.summary).toMatchObject({ workOrders: { total: 4 }, costMinor: null });
  });

  it('isolation: another organisation gets 404 and changes nothing; a parent from another organisation is refused', async () => {
    const a = await createOrg(t, 'Alpha');
    const b = await createOrg(t, 'Beta');
    const ta = await tree(a);
    const mb = await masterRows(t, b.orgId, 'B');
    const before = (await a.admin.get('/api/assets/get-asset-tree')).body;
    expect((await b.admin.get(`/api/assets/get-asset-summary/${ta.motor}`)).status).toBe(404);
    expect((await b.admin.post(`/api/assets/move-asset/${ta.motor}`, { parentId: null })).status).toBe(404);
    const own = (await b.admin.post('/api/assets/add-asset', { name: 'B1', date: '2024-01-01', assetCategoryId: mb.assetCategory.id })).body.asset.id;
    const foreign = await b.admin.post('/api/assets/add-asset', { name: 'X', date: '2024-01-01', assetCategoryId: mb.assetCategory.id, parentId: ta.spare });
    expect(foreign.body.issues).toEqual([{ path: 'parentId', message: 'Parent asset does not exist in this organization' }]);
    const moveUnder = await b.admin.post(`/api/assets/move-asset/${own}`, { parentId: ta.spare });
    expect(moveUnder.body.issues).toEqual([{ path: 'parentId', message: 'Parent asset does not exist in this organization' }]);
    expect((await b.admin.get('/api/assets/get-asset-tree')).body.assets.map((n: { name: string }) => n.name)).toEqual(['B1']);
    expect((await a.admin.get('/api/assets/get-asset-tree')).body).toEqual(before);
  });

  it('workers move assets (they register them in the field) and read the roll-up', async () => {
    const org = await createOrg(t);
    const a = await tree(org);
    const worker = await org.as('worker');
    expect((await worker.post(`/api/assets/move-asset/${a.pump}`, { parentId: a.machine })).status).toBe(200);
    expect((await worker.get('/api/assets/get-asset-tree')).status).toBe(200);
  });
});
