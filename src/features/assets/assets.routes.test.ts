import { describe, expect, it } from 'vitest';
import { withTenant } from '../../server/db/client';
import { createOrg, expectDeleted, expectWalledOff, useTestApp } from '../../server/test/harness';
import { seedMasterData } from '../master-data/master-data.seed';
import { seedTeams } from '../teams/teams.seed';
import { seedCatalog } from './catalog.seed';
import { masterRows } from './test-fixtures';
import { badRequestIssues, issuesOf } from '../../server/test/issues-of';

const t = useTestApp();

describe('assets', () => {
  it('adds an asset with every field of the spec, reads, lists, updates and deletes it', async () => {
    const org = await createOrg(t);
    const m = await masterRows(t, org.orgId);
    const body = {
      name: 'Boiler Feed Pump P-101',
      description: 'Grundfos NB 65',
      serial: 'GRF-3341',
      assetBarcode: '0701234500110',
      assetCode: 'PMP-002',
      date: '2024-05-01',
      customerVendorId: m.vendor.id,
      assetCategoryId: m.assetCategory.id,
      status: 'Operational',
    };
    const add = await org.admin.post('/api/assets/add-asset', body);
    expect(add.status).toBe(201);
    expect(add.body.message).toBe('Asset added successfully');
    const asset = add.body.asset;
    expect(asset).toMatchObject({
      ...body,
      assetId: 'AS-0001',
      CustomerVendor: { id: m.vendor.id, name: 'Bearing World A', type: 'vendor' },
      AssetCategory: { id: m.assetCategory.id, name: 'Pumps A', code: 'PMPA' },
    });
    expect(add.body.assets).toHaveLength(1);
    expect(add.body.pagination).toEqual({ totalRecords: 1, currentPage: 1, totalPages: 1 });
    expect((await org.admin.get(`/api/assets/get-asset/${asset.id}`)).body.asset).toEqual(asset);

    const upd = await org.admin.put(`/api/assets/update-asset/${asset.id}`, {
      ...body,
      name: 'Boiler Feed Pump P-101A',
      status: 'Not_Operational',
      customerVendorId: null,
      assetCategoryId: m.assetCategory2.id,
      description: '',
    });
    expect(upd.status).toBe(200);
    expect(upd.body.message).toBe('Asset updated successfully');
    expect(upd.body.asset).toMatchObject({
      name: 'Boiler Feed Pump P-101A',
      status: 'Not_Operational',
      CustomerVendor: null,
      customerVendorId: null,
      description: null,
      AssetCategory: { name: 'Motors A' },
    });

    const deleted = await expectDeleted(org.admin, `/api/assets/delete-asset/${asset.id}`, 'Asset deleted successfully', [
      'get',
      `/api/assets/get-asset/${asset.id}`,
    ]);
    expect(deleted.assets).toEqual([]);
  });

  it("gives the spec's rules: Name max 100, date and category required", async () => {
    const org = await createOrg(t);
    const m = await masterRows(t, org.orgId);
    const empty = await org.admin.post('/api/assets/add-asset', {});
    expect(badRequestIssues(empty)).toEqual({ name: 'Name is required', date: 'Date is required', assetCategoryId: 'Category is required' });
    const bad = await org.admin.post('/api/assets/add-asset', { name: 'N'.repeat(101), date: '2024-02-30', assetCategoryId: 0, status: 'Broken' });
    expect(issuesOf(bad.body)).toEqual({
      name: 'Name must be at most 100 characters',
      date: 'Date must be a valid date',
      assetCategoryId: 'Category is required',
      status: 'Status must be Operational or Not_Operational',
    });
    const ok = await org.admin.post('/api/assets/add-asset', { name: 'N'.repeat(100), date: '2024-02-29T10:00:00.000Z', assetCategoryId: m.assetCategory.id });
    expect(ok.status).toBe(201);
    expect(ok.body.asset).toMatchObject({ date: '2024-02-29', status: 'Operational', CustomerVendor: null });
    const unknown = await org.admin.post('/api/assets/add-asset', { name: 'X', date: '2024-01-01', assetCategoryId: 99 });
    expect(unknown.body.issues).toEqual([{ path: 'assetCategoryId', message: 'Category does not exist in this organization' }]);
    const unknownOwner = await org.admin.post('/api/assets/add-asset', {
      name: 'X',
      date: '2024-01-01',
      assetCategoryId: m.assetCategory.id,
      customerVendorId: 99,
    });
    expect(unknownOwner.body.issues).toEqual([{ path: 'customerVendorId', message: 'Customer/Vendor does not exist in this organization' }]);
    expect((await org.admin.post('/api/assets/add-asset', { name: 'X', date: '2024-01-01', assetCategoryId: m.assetCategory.id, orgId: 1 })).status).toBe(400);
  });

  it("accepts the spec's nested names and other status spellings", async () => {
    const org = await createOrg(t);
    const m = await masterRows(t, org.orgId);
    const res = await org.admin.post('/api/assets/add-asset', {
      name: 'Forklift',
      date: '2023-03-03',
      AssetCategory: { id: m.assetCategory.id, name: 'Pumps A' },
      CustomerVendor: { id: m.customer.id },
      status: 'not operational',
    });
    expect(res.status).toBe(201);
    expect(res.body.asset).toMatchObject({ assetCategoryId: m.assetCategory.id, customerVendorId: m.customer.id, status: 'Not_Operational' });
  });

  it('filters the list by name, status and category; options are 5 by default with a name filter', async () => {
    const org = await createOrg(t);
    const m = await masterRows(t, org.orgId);
    const names = ['Air Compressor', 'Boiler', 'Chiller', 'Dryer', 'Elevator', 'Fan Coil', 'Generator'];
    for (const [i, name] of names.entries()) {
      await org.admin.post('/api/assets/add-asset', {
        name,
        date: '2024-01-01',
        assetCategoryId: i % 2 ? m.assetCategory2.id : m.assetCategory.id,
        status: i < 2 ? 'Not_Operational' : 'Operational',
        serial: `SN-${i}`,
      });
    }
    const list = await org.admin.get('/api/assets/get-assets?pageSize=10');
    expect(list.body.assets.map((a: { name: string }) => a.name)).toEqual([...names].reverse());
    expect((await org.admin.get('/api/assets/get-assets?name=boil')).body.assets.map((a: { name: string }) => a.name)).toEqual(['Boiler']);
    expect((await org.admin.get('/api/assets/get-assets?name=sn-3')).body.assets.map((a: { name: string }) => a.name)).toEqual(['Dryer']);
    expect((await org.admin.get('/api/assets/get-assets?name=AS-0003')).body.assets.map((a: { name: string }) => a.name)).toEqual(['Chiller']);
    expect((await org.admin.get('/api/assets/get-assets?status=Not_Operational')).body.pagination.totalRecords).toBe(2);
    expect((await org.admin.get('/api/assets/get-assets?status=Operational,Not_Operational')).body.pagination.totalRecords).toBe(7);
    expect((await org.admin.get(`/api/assets/get-assets?categoryId=${m.assetCategory2.id}`)).body.pagination.totalRecords).toBe(3);
    expect((await org.admin.get('/api/assets/get-assets?page=2&pageSize=10')).body).toMatchObject({
      assets: [],
      pagination: { totalRecords: 7, currentPage: 2, totalPages: 1 },
    });
    expect((await org.admin.get('/api/assets/get-assets?pageSize=5')).status).toBe(400);
    expect((await org.admin.get('/api/assets/get-assets?status=Broken')).status).toBe(400);

    const options = await org.admin.get('/api/assets/get-assets-options');
    expect(options.body).toHaveLength(5);
    expect(options.body[0]).toEqual({ value: 1, label: 'Air Compressor', assetId: 'AS-0001' });
    expect((await org.admin.get('/api/assets/get-assets-options?name=gen')).body.map((o: { label: string }) => o.label)).toEqual(['Generator']);
  });

  it('workers add and update assets; only managers delete them', async () => {
    const org = await createOrg(t);
    const m = await masterRows(t, org.orgId);
    const worker = await org.as('worker');
    const added = await worker.post('/api/assets/add-asset', { name: 'Pump', date: '2024-01-01', assetCategoryId: m.assetCategory.id });
    expect(added.status).toBe(201);
    const id = added.body.asset.id;
    expect((await worker.put(`/api/assets/update-asset/${id}`, { name: 'Pump 2', date: '2024-01-01', assetCategoryId: m.assetCategory.id })).status).toBe(200);
    expect((await worker.del(`/api/assets/delete-asset/${id}`)).status).toBe(403);
    const manager = await org.as('manager');
    expect((await manager.del(`/api/assets/delete-asset/${id}`)).status).toBe(200);
  });

  it('isolation: another organisation gets 404 and changes nothing; foreign category and owner ids are refused', async () => {
    const a = await createOrg(t, 'Alpha');
    const b = await createOrg(t, 'Beta');
    const ma = await masterRows(t, a.orgId);
    const mb = await masterRows(t, b.orgId, 'B');
    // B gets extra rows so its ids do not exist in A
    const mb2 = await masterRows(t, b.orgId, 'C');
    const added = await a.admin.post('/api/assets/add-asset', {
      name: 'Chiller',
      date: '2024-01-01',
      assetCategoryId: ma.assetCategory.id,
      customerVendorId: ma.customer.id,
    });
    const id = added.body.asset.id;
    const body = { name: 'Hijack', date: '2024-01-01', assetCategoryId: mb.assetCategory.id };
    const before = await expectWalledOff(a.admin, `/api/assets/get-asset/${id}`, b.admin, [
      ['get', `/api/assets/get-asset/${id}`],
      ['put', `/api/assets/update-asset/${id}`, body],
      ['del', `/api/assets/delete-asset/${id}`],
    ]);
    expect((await b.admin.get('/api/assets/get-assets')).body.assets).toEqual([]);
    expect((await b.admin.get('/api/assets/get-assets-options')).body).toEqual([]);
    const foreignCategory = await a.admin.put(`/api/assets/update-asset/${id}`, { ...body, assetCategoryId: mb2.assetCategory.id });
    expect(foreignCategory.status).toBe(400);
    expect(foreignCategory.body.issues).toEqual([{ path: 'assetCategoryId', message: 'Category does not exist in this organization' }]);
    const foreignOwner = await a.admin.put(`/api/assets/update-asset/${id}`, {
      ...body,
      assetCategoryId: ma.assetCategory.id,
      customerVendorId: mb2.vendor.id,
    });
    expect(foreignOwner.body.issues).toEqual([{ path: 'customerVendorId', message: 'Customer/Vendor does not exist in this organization' }]);
    expect((await a.admin.get(`/api/assets/get-asset/${id}`)).body).toEqual(before);
  });

  it('records history: created, field changes, status change', async () => {
    const org = await createOrg(t);
    const m = await masterRows(t, org.orgId);
    const added = await org.admin.post('/api/assets/add-asset', { name: 'Chiller', date: '2024-01-01', assetCategoryId: m.assetCategory.id });
    const id = added.body.asset.id;
    await org.admin.put(`/api/assets/update-asset/${id}`, {
      name: 'Chiller 2',
      date: '2024-01-01',
      assetCategoryId: m.assetCategory.id,
      status: 'Not_Operational',
    });
    const log = await org.admin.get(`/api/activities/asset/${id}`);
    expect(log.body.activities.map((a: { action: string }) => a.action).sort()).toEqual(['created', 'status', 'updated']);
  });

  it('demo seed: a dozen assets, stations linked to teams, services linked to stations, parts with stock; in app data', async () => {
    const bare = await createOrg(t, 'Bare');
    // works on an organisation with no master data at all
    await withTenant(t.database.db, bare.orgId, (tx) => seedCatalog(tx, bare.orgId));
    const org = await createOrg(t, 'Seeded');
    await withTenant(t.database.db, org.orgId, async (tx) => {
      await seedMasterData(tx, org.orgId);
      await seedTeams(tx, org.orgId);
      await seedCatalog(tx, org.orgId);
    });
    for (const o of [bare, org]) {
      const assets = await o.admin.get('/api/assets/get-assets?pageSize=25');
      expect(assets.body.pagination.totalRecords).toBe(12);
      expect(assets.body.assets.every((a: { AssetCategory: unknown }) => a.AssetCategory)).toBe(true);
      const stations = await o.admin.get('/api/workstations/get-workstations');
      expect(stations.body.workStations.every((s: { Team: unknown }) => s.Team)).toBe(true);
      const services = await o.admin.get('/api/services/get-services');
      expect(services.body.services.every((s: { WorkStations: unknown[] }) => s.WorkStations.length > 0)).toBe(true);
      const low = await o.admin.get('/api/parts/get-low-stock-parts');
      expect(low.body.parts.length).toBeGreaterThan(0);
      const app = await o.admin.get('/api/user/get-app-data');
      expect(app.status).toBe(200);
      expect(app.body.assets).toHaveLength(12);
      expect(app.body.services.services).toHaveLength(6);
      expect(app.body.workStations).toHaveLength(6);
      expect(app.body.parts).toHaveLength(14);
    }
  });
});
