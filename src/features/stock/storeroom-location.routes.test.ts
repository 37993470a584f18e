/**
 * Issue 42: a storeroom belongs to a location of the location tree (optional). The storerooms list filters by a
 * location and everything under it; another organisation's location is refused and its storerooms are never seen;
 * a location that holds a storeroom is not deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg, createTestApp, type TestApp, type TestOrg } from '../../server/test/harness';
import { orgSnapshot } from '../../server/test/sql';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Client = TestOrg['admin'];

async function place(c: Client, name: string, parentId?: number) {
  const res = await c.post('/api/locations/add-location', { name, parentId });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.location.id as number;
}

async function storeroom(c: Client, name: string, locationId?: number | null) {
  const res = await c.post('/api/stock/add-location', { name, kind: 'storeroom', ...(locationId !== undefined ? { locationId } : {}) });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.location as { id: number; locationId: number | null; location: { id: number; name: string; path: string } | null };
}

const names = async (c: Client, query = '') =>
  ((await c.get(`/api/stock/get-locations?pageSize=100${query}`)).body.locations as { name: string }[]).map((l) => l.name);

describe('storerooms in the location tree', () => {
  it('a storeroom names its location (with its path); the list filters by a location and everything under it', async () => {
    const org = await createOrg(t, 'Rooms A');
    const c = org.admin;
    const plant = await place(c, 'Plant');
    const hallA = await place(c, 'Hall A', plant);
    const line = await place(c, 'Line 1', hallA);
    const hallB = await place(c, 'Hall B', plant);
    const yard = await place(c, 'Yard');
    await storeroom(c, 'Main store');
    const lineStore = await storeroom(c, 'Line store', line);
    expect(lineStore).toMatchObject({ locationId: line, location: { id: line, name: 'Line 1', path: 'Plant / Hall A / Line 1' } });
    await storeroom(c, 'Hall B cage', hallB);
    await storeroom(c, 'Yard van', yard);

    expect(await names(c)).toEqual(['Main store', 'Hall B cage', 'Line store', 'Yard van']);
    expect(await names(c, `&locationId=${plant}`)).toEqual(['Hall B cage', 'Line store']);
    expect(await names(c, `&locationId=${hallA}`)).toEqual(['Line store']);
    expect(await names(c, `&locationId=${line}`)).toEqual(['Line store']);
    expect(await names(c, `&locationId=${yard}`)).toEqual(['Yard van']);
    expect((await c.get('/api/stock/get-locations?locationId=x')).status).toBe(400);

    // an update without locationId keeps it, null clears it, another id moves it
    const kept = await c.put(`/api/stock/update-location/${lineStore.id}`, { name: 'Line store', kind: 'van' });
    expect(kept.body.location).toMatchObject({ kind: 'van', locationId: line });
    const moved = await c.put(`/api/stock/update-location/${lineStore.id}`, { name: 'Line store', locationId: hallB });
    expect(moved.body.location).toMatchObject({ locationId: hallB, location: { path: 'Plant / Hall B' } });
    expect(await names(c, `&locationId=${hallA}`)).toEqual([]);
    const cleared = await c.put(`/api/stock/update-location/${lineStore.id}`, { name: 'Line store', locationId: null });
    expect(cleared.body.location).toMatchObject({ locationId: null, location: null });
    expect((await c.get(`/api/stock/get-location/${lineStore.id}`)).body.location.location).toBeNull();

    // a location that holds a storeroom stays until the storeroom moves
    const inUse = await c.del(`/api/locations/delete-location/${yard}`);
    expect(inUse.status).toBe(409);
    expect(inUse.body.error).toBe('This location has storerooms in it; move them first');
  });

  it("another organisation's location is refused (nothing written) and its storerooms never show", async () => {
    const a = await createOrg(t, 'Rooms Iso A');
    const b = await createOrg(t, 'Rooms Iso B');
    // Ids are counted per organisation: A's third location has no namesake id in B, which has one.
    await place(a.admin, 'Depot A');
    await place(a.admin, 'Yard A');
    const siteA = await place(a.admin, 'Site A');
    await storeroom(a.admin, 'A main');
    await storeroom(a.admin, 'A van');
    const roomA = await storeroom(a.admin, 'A store', siteA);
    const siteB = await place(b.admin, 'Site B');
    await storeroom(b.admin, 'B store', siteB);
    expect(siteA).toBeGreaterThan(siteB);
    expect(roomA.id).toBeGreaterThan(1);
    const before = await orgSnapshot(t.database.db, b.orgId, ['sessions', 'org_counters']);
    const beforeA = await orgSnapshot(t.database.db, a.orgId, ['sessions', 'org_counters']);

    const refused = await b.admin.post('/api/stock/add-location', { name: 'Stolen', locationId: siteA });
    expect(refused.status).toBe(400);
    expect(refused.body.issues).toEqual([{ path: 'locationId', message: 'Location does not exist in this organization' }]);
    const bRoom = (await b.admin.get('/api/stock/get-locations')).body.locations[0] as { id: number };
    const moved = await b.admin.put(`/api/stock/update-location/${bRoom.id}`, { name: 'B store', locationId: siteA });
    expect(moved.status).toBe(400);
    expect(await orgSnapshot(t.database.db, b.orgId, ['sessions', 'org_counters'])).toBe(before);

    // A's storeroom is not B's to read or change; filtering by A's location finds nothing in B
    expect((await b.admin.get(`/api/stock/get-location/${roomA.id}`)).status).toBe(404);
    expect((await b.admin.put(`/api/stock/update-location/${roomA.id}`, { name: 'Taken', locationId: siteB })).status).toBe(404);
    expect(await names(b.admin, `&locationId=${siteA}`)).toEqual([]);
    expect(await orgSnapshot(t.database.db, a.orgId, ['sessions', 'org_counters'])).toBe(beforeA);

    // a worker reads, a manager writes
    const worker = await a.as('worker');
    expect((await worker.get(`/api/stock/get-locations?locationId=${siteA}`)).body.locations).toMatchObject([{ name: 'A store' }]);
    expect((await worker.post('/api/stock/add-location', { name: 'W', locationId: siteA })).status).toBe(403);
  });
});
