import { describe, expect, it } from 'vitest';
import { createOrg, expectDeleted, useTestApp, type TestOrg } from '../../server/test/harness';
import { masterRows } from '../assets/test-fixtures';

const t = useTestApp();

type Client = TestOrg['admin'];
async function add(c: Client, name: string, parentId?: number | null, code?: string): Promise<number> {
  const res = await c.post('/api/locations/add-location', { name, parentId, code });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.location.id;
}

/** site > building > (area A > line 1, area B) */
async function plant(c: Client) {
  const site = await add(c, 'Riyadh Plant', null, 'RUH');
  const building = await add(c, 'Building 1', site);
  const areaA = await add(c, 'Area A', building);
  const line1 = await add(c, 'Line 1', areaA, 'L1');
  const areaB = await add(c, 'Area B', building);
  const other = await add(c, 'Jeddah Depot');
  return { site, building, areaA, line1, areaB, other };
}

describe('locations', () => {
  it('adds a tree of any depth, with paths, reads, lists in tree order, updates and deletes a leaf', async () => {
    const org = await createOrg(t);
    const p = await plant(org.admin);
    const one = await org.admin.get(`/api/locations/get-location/${p.line1}`);
    expect(one.status).toBe(200);
    expect(one.body.location).toMatchObject({
      id: p.line1,
      name: 'Line 1',
      code: 'L1',
      parentId: p.areaA,
      depth: 3,
      path: 'Riyadh Plant / Building 1 / Area A / Line 1',
      Parent: { id: p.areaA, name: 'Area A' },
    });
    const list = await org.admin.get('/api/locations/get-locations');
    expect(list.body.locations.map((l: { path: string }) => l.path)).toEqual([
      'Jeddah Depot',
      'Riyadh Plant',
      'Riyadh Plant / Building 1',
      'Riyadh Plant / Building 1 / Area A',
      'Riyadh Plant / Building 1 / Area A / Line 1',
      'Riyadh Plant / Building 1 / Area B',
    ]);
    expect(list.body.pagination).toEqual({ totalRecords: 6, currentPage: 1, totalPages: 1 });
    const under = await org.admin.get(`/api/locations/get-locations?under=${p.building}`);
    expect(under.body.locations.map((l: { name: string }) => l.name)).toEqual(['Building 1', 'Area A', 'Line 1', 'Area B']);
    expect((await org.admin.get('/api/locations/get-location-options?name=l1')).body).toEqual([
      { value: p.line1, label: 'Line 1', code: 'L1', path: 'Riyadh Plant / Building 1 / Area A / Line 1' },
    ]);
    const tree = await org.admin.get('/api/locations/get-location-tree');
    expect(tree.body.locations).toHaveLength(6);
    expect(tree.body.truncated).toBe(false);

    const upd = await org.admin.put(`/api/locations/update-location/${p.areaB}`, { name: 'Area B2', code: 'AB' });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ message: 'Location updated successfully', location: { name: 'Area B2', code: 'AB', parentId: p.building } });
    const deleted = await expectDeleted(org.admin, `/api/locations/delete-location/${p.areaB}`, 'Location deleted successfully', [
      'get',
      `/api/locations/get-location/${p.areaB}`,
    ]);
    expect(deleted.locations).toHaveLength(5);
  });

  it('checks the fields: name required, code unique, one name per parent, parent of the organisation', async () => {
    const org = await createOrg(t);
    const site = await add(org.admin, 'Site', null, 'S1');
    const empty = await org.admin.post('/api/locations/add-location', {});
    expect(empty.status).toBe(400);
    expect(empty.body.issues).toEqual([{ path: 'name', message: 'Name is required' }]);
    const long = await org.admin.post('/api/locations/add-location', { name: 'N'.repeat(101), code: 'C'.repeat(21) });
    expect(long.body.issues).toEqual([
      { path: 'name', message: 'Name must be at most 100 characters' },
      { path: 'code', message: 'Code must be at most 20 characters' },
    ]);
    const code = await org.admin.post('/api/locations/add-location', { name: 'Other', code: 's1' });
    expect(code.status).toBe(409);
    expect(code.body.error).toBe('A location with this code already exists');
    await add(org.admin, 'Hall', site);
    const twin = await org.admin.post('/api/locations/add-location', { name: 'hall', parentId: site });
    expect(twin.status).toBe(409);
    expect(twin.body.error).toBe('A location with this name already exists under the same parent');
    // the same name under another parent is fine
    await add(org.admin, 'Hall');
    const unknown = await org.admin.post('/api/locations/add-location', { name: 'X', parentId: 999 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues).toEqual([{ path: 'parentId', message: 'Parent location does not exist in this organization' }]);
  });

  it('moves a subtree, and refuses a move under itself or one of its children', async () => {
    const org = await createOrg(t);
    const p = await plant(org.admin);
    const moved = await org.admin.post(`/api/locations/move-location/${p.areaA}`, { parentId: p.other });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ message: 'Location moved successfully', location: { parentId: p.other, path: 'Jeddah Depot / Area A' } });
    // the subtree came along
    expect((await org.admin.get(`/api/locations/get-location/${p.line1}`)).body.location.path).toBe('Jeddah Depot / Area A / Line 1');
    for (const [id, parentId] of [
      [p.areaA, p.areaA],
      [p.areaA, p.line1],
      [p.site, p.building],
    ]) {
      const cycle = await org.admin.post(`/api/locations/move-location/${id}`, { parentId });
      expect(cycle.status).toBe(400);
      expect(cycle.body.issues).toEqual([{ path: 'parentId', message: 'A location cannot be moved under itself or one of its children' }]);
    }
    const viaUpdate = await org.admin.put(`/api/locations/update-location/${p.site}`, { name: 'Riyadh Plant', parentId: p.areaB });
    expect(viaUpdate.status).toBe(400);
    expect(viaUpdate.body.issues[0].message).toBe('A location cannot be moved under itself or one of its children');
    // to the top
    const top = await org.admin.post(`/api/locations/move-location/${p.areaA}`, { parentId: null });
    expect(top.body.location).toMatchObject({ parentId: null, depth: 0, path: 'Area A' });
    expect((await org.admin.get(`/api/locations/get-location/${p.site}`)).body.location.parentId).toBeNull();
  });

  it('refuses to delete a location with locations under it or things in it (409); the summary counts the subtree', async () => {
    const org = await createOrg(t);
    const p = await plant(org.admin);
    const m = await masterRows(t, org.orgId);
    const children = await org.admin.del(`/api/locations/delete-location/${p.areaA}`);
    expect(children.status).toBe(409);
    expect(children.body.error).toBe('This location has locations under it; move or delete them first');
    const asset = await org.admin.post('/api/assets/add-asset', {
      name: 'Press',
      date: '2024-01-01',
      assetCategoryId: m.assetCategory.id,
      locationId: p.line1,
    });
    expect(asset.body.asset).toMatchObject({ locationId: p.line1, Location: { id: p.line1, name: 'Line 1' } });
    const station = await org.admin.post('/api/workstations/add-workstation', {
      code: 'WS1',
      name: 'Bay',
      city: 'Riyadh',
      teamId: m.team.id,
      locationId: p.areaB,
    });
    expect(station.body.workStation).toMatchObject({ locationId: p.areaB, Location: { id: p.areaB, name: 'Area B' } });
    for (const id of [p.line1, p.areaB]) {
      const inUse = await org.admin.del(`/api/locations/delete-location/${id}`);
      expect(inUse.status).toBe(409);
      expect(inUse.body.error).toBe('This location has assets or work stations in it; move them first');
    }
    const detail = await org.admin.get(`/api/locations/get-location/${p.building}`);
    // no work yet: the roll-ups are zero (decision 072 addendum)
    const noWork = {
      costMinor: { own: 0, total: 0 },
      downMinutes: { own: 0, total: 0 },
      openWorkOrders: { own: 0, total: 0 },
      workOrders: { own: 0, total: 0 },
    };
    expect(detail.body.summary).toEqual({ locations: 3, assets: 1, workStations: 1, ...noWork });
    expect((await org.admin.get(`/api/locations/get-location/${p.site}`)).body.summary).toEqual({ locations: 4, assets: 1, workStations: 1, ...noWork });
    expect((await org.admin.get(`/api/locations/get-location/${p.other}`)).body.summary).toEqual({ locations: 0, assets: 0, workStations: 0, ...noWork });
    const tree = await org.admin.get('/api/locations/get-location-tree');
    expect(tree.body.locations.find((l: { id: number }) => l.id === p.line1)).toMatchObject({ assets: 1, workStations: 0 });
  });

  it('filters assets, the asset picker, work stations and work orders by a location and everything under it', async () => {
    const org = await createOrg(t);
    const p = await plant(org.admin);
    const m = await masterRows(t, org.orgId);
    const asset = async (name: string, locationId: number | null) =>
      (await org.admin.post('/api/assets/add-asset', { name, date: '2024-01-01', assetCategoryId: m.assetCategory.id, locationId })).body.asset.id as number;
    const press = await asset('Press', p.line1);
    const fan = await asset('Fan', p.areaB);
    const boiler = await asset('Boiler', p.site);
    await asset('Truck', p.other);
    await asset('Loose', null);
    const names = async (path: string) => (await org.admin.get(path)).body.assets.map((a: { name: string }) => a.name).sort();
    expect(await names(`/api/assets/get-assets?locationId=${p.building}`)).toEqual(['Fan', 'Press']);
    expect(await names(`/api/assets/get-assets?locationId=${p.site}`)).toEqual(['Boiler', 'Fan', 'Press']);
    expect(await names(`/api/assets/get-assets?locationId=${p.line1}`)).toEqual(['Press']);
    expect((await org.admin.get(`/api/assets/get-assets?locationId=${p.building}&name=fan`)).body.pagination.totalRecords).toBe(1);
    const options = await org.admin.get(`/api/assets/get-assets-options?locationId=${p.areaA}`);
    expect(options.body.map((o: { label: string }) => o.label)).toEqual(['Press']);
    expect((await org.admin.get('/api/assets/get-assets?locationId=abc')).status).toBe(400);

    await org.admin.post('/api/workstations/add-workstation', { code: 'W1', name: 'Bay 1', city: 'Riyadh', teamId: m.team.id, locationId: p.line1 });
    await org.admin.post('/api/workstations/add-workstation', { code: 'W2', name: 'Bay 2', city: 'Jeddah', teamId: m.team.id, locationId: p.other });
    expect((await org.admin.get(`/api/workstations/get-workstations?locationId=${p.site}`)).body.workStations.map((w: { name: string }) => w.name)).toEqual([
      'Bay 1',
    ]);

    for (const [title, assetId] of [
      ['Fix press', press],
      ['Fix fan', fan],
      ['Fix boiler', boiler],
      ['No asset', null],
    ] as const) {
      expect((await org.admin.post('/api/work-orders/add-work-order', { title, assetId })).status).toBe(201);
    }
    const orders = async (id: number) => (await org.admin.get(`/api/work-orders/get-work-orders?locationId=${id}`)).body;
    expect((await orders(p.building)).workOrders.map((w: { title: string }) => w.title).sort()).toEqual(['Fix fan', 'Fix press']);
    expect((await orders(p.building)).pagination.totalRecords).toBe(2);
    expect((await orders(p.site)).workOrders).toHaveLength(3);
    expect((await orders(p.other)).workOrders).toHaveLength(0);
  });

  it('workers read locations; only managers and admins change them', async () => {
    const org = await createOrg(t);
    const site = await add(org.admin, 'Site');
    const worker = await org.as('worker');
    expect((await worker.get('/api/locations/get-location-tree')).status).toBe(200);
    expect((await worker.get(`/api/locations/get-location/${site}`)).status).toBe(200);
    expect((await worker.post('/api/locations/add-location', { name: 'X' })).status).toBe(403);
    expect((await worker.put(`/api/locations/update-location/${site}`, { name: 'X' })).status).toBe(403);
    expect((await worker.post(`/api/locations/move-location/${site}`, { parentId: null })).status).toBe(403);
    expect((await worker.del(`/api/locations/delete-location/${site}`)).status).toBe(403);
    const manager = await org.as('manager');
    const area = await add(manager, 'Area', site);
    expect((await manager.del(`/api/locations/delete-location/${area}`)).status).toBe(200);
  });

  it('isolation: another organisation gets 404 and changes nothing; a foreign location or parent is refused', async () => {
    const a = await createOrg(t, 'Alpha');
    const b = await createOrg(t, 'Beta');
    const pa = await plant(a.admin);
    // B's own tree, so the low ids exist in B too; A gets two more that exist only in A
    await plant(b.admin);
    await add(a.admin, 'Only in A 1', pa.site);
    const onlyA2 = await add(a.admin, 'Only in A 2');
    await add(b.admin, 'Only in B');
    const before = (await a.admin.get('/api/locations/get-locations')).body;
    expect((await b.admin.get(`/api/locations/get-location/${onlyA2}`)).status).toBe(404);
    expect((await b.admin.put(`/api/locations/update-location/${onlyA2}`, { name: 'Hijack' })).status).toBe(404);
    expect((await b.admin.post(`/api/locations/move-location/${onlyA2}`, { parentId: null })).status).toBe(404);
    expect((await b.admin.del(`/api/locations/delete-location/${onlyA2}`)).status).toBe(404);
    // B's lists never show A's locations
    expect((await b.admin.get('/api/locations/get-location-tree')).body.locations.map((l: { name: string }) => l.name)).not.toContain('Only in A 1');
    expect((await b.admin.get('/api/locations/get-location-options?name=only')).body.map((o: { label: string }) => o.label)).toEqual(['Only in B']);
    // a parent or location id of A's only is refused in B
    const foreignParent = await b.admin.post('/api/locations/add-location', { name: 'X', parentId: onlyA2 });
    expect(foreignParent.body.issues).toEqual([{ path: 'parentId', message: 'Parent location does not exist in this organization' }]);
    const moveUnderForeign = await b.admin.post(`/api/locations/move-location/1`, { parentId: onlyA2 });
    expect(moveUnderForeign.body.issues).toEqual([{ path: 'parentId', message: 'Parent location does not exist in this organization' }]);
    const mb = await masterRows(t, b.orgId, 'B');
    const foreignLocation = await b.admin.post('/api/assets/add-asset', {
      name: 'X',
      date: '2024-01-01',
      assetCategoryId: mb.assetCategory.id,
      locationId: onlyA2,
    });
    expect(foreignLocation.body.issues).toEqual([{ path: 'locationId', message: 'Location does not exist in this organization' }]);
    const foreignStation = await b.admin.post('/api/workstations/add-workstation', { code: 'W', name: 'W', city: 'C', teamId: mb.team.id, locationId: onlyA2 });
    expect(foreignStation.body.issues).toEqual([{ path: 'locationId', message: 'Location does not exist in this organization' }]);
    // filtering B's lists by A's location finds nothing
    expect((await b.admin.get(`/api/assets/get-assets?locationId=${onlyA2}`)).body.assets).toEqual([]);
    expect((await b.admin.get(`/api/locations/get-locations?under=${onlyA2}`)).body.locations).toEqual([]);
    // A's tree is as it was
    expect((await a.admin.get('/api/locations/get-locations')).body).toEqual(before);
  });
});
