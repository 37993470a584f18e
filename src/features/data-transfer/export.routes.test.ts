import { eq } from 'drizzle-orm';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { withTenant } from '../../server/db/client';
import { customerVendors, maintenanceRequests, parts } from '../../server/db/schema';
import { createOrg, useTestApp, type TestOrg } from '../../server/test/harness';
import { correctiveRequest, unzip } from '../../server/test/fixtures';
import { catalogue } from '../maintenance-requests/test-fixtures';
import { EXPORT_LISTS } from './data-transfer.schema';
import { exportListCsv, type Reader } from './export.service';

const t = useTestApp();

/** Our CSV (BOM, quoted cells, CRLF) back into rows. */
const rowsOf = (text: string) => Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;

async function exported(org: TestOrg, list: string, query = '') {
  const res = await org.admin.get(`/api/data-transfer/export/${list}${query ? `?${query}` : ''}`);
  expect(res.status, String(res.body)).toBe(200);
  expect(res.headers['content-type']).toContain('text/csv');
  return rowsOf(String(res.body));
}

/** Two organisations with the same catalogue (asset, parts, services, a customer…), B's rows tagged "B". */
async function twoOrgs() {
  const a = await createOrg(t, 'Export A');
  const b = await createOrg(t, 'Export B');
  return { a, b, refsA: await catalogue(t, a.orgId, 'A'), refsB: await catalogue(t, b.orgId, 'B') };
}

describe('list exports', () => {
  it('maintenance requests: the title and status filters, the named columns in their order, formulas neutralised, never another organisation', async () => {
    const { a, b, refsA, refsB } = await twoOrgs();
    for (const title of ['Belt slipping on line 2', 'Pump leaking', '=HYPERLINK("http://x")']) {
      const res = await a.admin.post('/api/maintenance-requests/add-maintenance-request', correctiveRequest(refsA, { title }));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    await b.admin.post('/api/maintenance-requests/add-maintenance-request', correctiveRequest(refsB, { title: 'Belt slipping of B' }));
    // One of A's is rejected: the status filter keeps it out.
    await withTenant(t.database.db, a.orgId, (tx) =>
      tx.update(maintenanceRequests).set({ state: 'rejected' }).where(eq(maintenanceRequests.title, 'Pump leaking')),
    );

    expect(await exported(a, 'maintenance-requests', 'title=belt&columns=title,maintenanceRequestId,asset')).toEqual([
      ['Title', 'ID', 'Asset'],
      ['Belt slipping on line 2', 'MR-0001', 'Boiler Pump A'],
    ]);
    expect(await exported(a, 'maintenance-requests', 'status=new&columns=title')).toEqual([
      ['Title'],
      ['\'=HYPERLINK("http://x")'],
      ['Belt slipping on line 2'],
    ]);
    const all = await exported(a, 'maintenance-requests');
    expect(all[0]).toEqual(['ID', 'Title', 'Type', 'Requester', 'Description', 'Date', 'Priority', 'Assigned To', 'State', 'Asset']);
    expect(all).toHaveLength(4);
    expect(JSON.stringify(all)).not.toContain('of B');
    expect((await a.admin.get('/api/data-transfer/export/maintenance-requests?status=lost')).status).toBe(400);
  });

  it('parts: the type and name filters and the visible columns; another organisation gets its own parts only', async () => {
    const { a, b } = await twoOrgs();
    await withTenant(t.database.db, a.orgId, async (tx) => {
      const [base] = await tx.select().from(parts).limit(1);
      const { id: _id, createdAt: _created, ...copy } = base;
      await tx.insert(parts).values({ ...copy, name: '@SUM(A1) oil', type: 'consumable', quantityOnHand: 0, minimumQuantity: 0 });
    });
    expect(await exported(a, 'parts', 'type=consumable&columns=name,type,category')).toEqual([
      ['Name', 'Type', 'Category'],
      ["'@SUM(A1) oil", 'consumable', 'Spares A'],
    ]);
    expect(await exported(a, 'parts', 'name=bearing&columns=quantityOnHand,name')).toEqual([
      ['Quantity on Hand', 'Name'],
      ['0', 'Bearing 6204 A'],
    ]);
    const ofB = await exported(b, 'parts', 'columns=name');
    expect(ofB).toEqual([['Name'], ['Grease cartridge B'], ['Bearing 6204 B']]);
  });

  it('customers and vendors (read through the list itself): type and name filters, columns, formulas neutralised, never another organisation', async () => {
    const { a } = await twoOrgs();
    await withTenant(t.database.db, a.orgId, (tx) =>
      tx.insert(customerVendors).values([
        { orgId: a.orgId, name: '+cmd|calc vendor', email: 'v1@vendor.example.com', type: 'vendor', category: 'company', phone: '+966 55 123 4567' },
        { orgId: a.orgId, name: 'Bearing World', email: 'v2@vendor.example.com', type: 'vendor', category: 'company', city: 'Riyadh' },
      ]),
    );
    expect(await exported(a, 'customer-vendors', 'type=vendor&columns=name,mobile,city')).toEqual([
      // The screen's Mobile column is the mobile or else the phone: both go out, so a re-import keeps each.
      ['Name', 'Mobile', 'Phone', 'City'],
      ['Bearing World', '', '', 'Riyadh'],
      // Out, anything a spreadsheet could run is prefixed, a phone number too (only plain numbers are not).
      ["'+cmd|calc vendor", '', "'+966 55 123 4567", ''],
    ]);
    expect(await exported(a, 'customer-vendors', 'name=acme&columns=name,type')).toEqual([
      ['Name', 'Type'],
      ['Acme Foods A', 'customer'],
    ]);
    expect(JSON.stringify(await exported(a, 'customer-vendors'))).not.toContain('Foods B');
  });

  it('services and work stations: filters and columns through their own list functions', async () => {
    const { a } = await twoOrgs();
    expect(await exported(a, 'services', 'title=bearing&columns=title,stations')).toEqual([
      ['Name', 'Work Stations'],
      ['Bearing replacement A', 'Line 1 A'],
    ]);
    expect(await exported(a, 'work-stations', 'columns=code,name,team,city')).toEqual([
      ['Code', 'Name', 'Team', 'City'],
      ['WSA', 'Line 1 A', 'Mechanics A', 'Dayton'],
    ]);
  });

  it("meter readings: an asset's readings in a date range, newest entered first, never another organisation's", async () => {
    const { a, b, refsA, refsB } = await twoOrgs();
    const meterOf = async (org: TestOrg, assetId: number, name: string) => {
      const res = await org.admin.post('/api/meters/add-meter', { assetId, name, kind: 'gauge', unit: 'bar' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.meter.id as number;
    };
    const read = async (org: TestOrg, meterId: number, value: number, readAt: string) =>
      expect((await org.admin.post('/api/meters/add-meter-reading', { meterId, value, readAt })).status).toBe(201);
    const pressure = await meterOf(a, refsA.asset.id, 'Pressure');
    const other = await meterOf(a, refsA.asset2.id, 'Other');
    await read(a, pressure, 4.5, '2026-01-10T08:00:00.000Z');
    await read(a, pressure, 5.5, '2026-02-10T08:00:00.000Z');
    await read(a, other, 9, '2026-02-11T08:00:00.000Z');
    await read(b, await meterOf(b, refsB.asset.id, 'Pressure'), 7, '2026-02-10T08:00:00.000Z');
    expect(await exported(a, 'meter-readings', `assetId=${refsA.asset.id}&from=2026-02-01&columns=asset,meter,value,readAt`)).toEqual([
      ['Asset', 'Meter', 'Value', 'Read At'],
      ['Boiler Pump A', 'Pressure', '5.5', '2026-02-10T08:00:00.000Z'],
    ]);
    expect((await exported(a, 'meter-readings', 'columns=value')).slice(1).flat()).toEqual(['9', '5.5', '4.5']);
    expect((await exported(b, 'meter-readings', 'columns=value')).slice(1).flat()).toEqual(['7']);
  });

  it('every list exports for an admin; the lists managers read are refused to workers (403); no known column is a 400', async () => {
    const { a } = await twoOrgs();
    for (const list of EXPORT_LISTS) {
      const res = await a.admin.get(`/api/data-transfer/export/${list}`);
      expect(res.status, `${list}: ${String(res.body)}`).toBe(200);
      expect(rowsOf(String(res.body))[0].length, list).toBeGreaterThan(0);
    }
    const worker = await a.as('worker');
    for (const list of ['portal-requests', 'pm-plans', 'shared-work-orders'])
      expect((await worker.get(`/api/data-transfer/export/${list}`)).status, list).toBe(403);
    expect((await worker.get('/api/data-transfer/export/parts')).status).toBe(200);
    expect((await a.admin.get('/api/data-transfer/export/parts?columns=nope')).status).toBe(400);
  });

  it('reads batch after batch, each row once, newest first, for a keyset list and for a list read page by page', async () => {
    const { a } = await twoOrgs();
    await withTenant(t.database.db, a.orgId, (tx) =>
      tx.insert(customerVendors).values(
        [1, 2, 3, 4].map((i) => ({
          orgId: a.orgId,
          name: `Vendor ${i}`,
          email: `v${i}@vendor.example.com`,
          type: 'vendor' as const,
          category: 'company' as const,
        })),
      ),
    );
    const actor = { userId: 1, orgId: a.orgId, role: 'admin' as const, sessionId: 0, tokenVersion: 0 };
    const read: Reader = (fn) => withTenant(t.database.db, a.orgId, fn, { readOnly: true });
    const text = async (list: 'parts' | 'customer-vendors', batch: number) => {
      let out = '';
      for await (const chunk of exportListCsv(read, a.orgId, actor, list, { columns: 'name' }, batch).stream) out += String(chunk);
      return rowsOf(out).slice(1).flat();
    };
    expect(await text('customer-vendors', 2)).toEqual(['Vendor 4', 'Vendor 3', 'Vendor 2', 'Vendor 1', 'Acme Foods A']);
    expect(await text('customer-vendors', 5)).toEqual(['Vendor 4', 'Vendor 3', 'Vendor 2', 'Vendor 1', 'Acme Foods A']);
    expect(await text('parts', 1)).toEqual(['Grease cartridge A', 'Bearing 6204 A']);
  });
});

describe('organisation archive', () => {
  it("gives an admin a ZIP of a CSV per list and the organisation's uploaded files, never another organisation's; managers and workers get 403", async () => {
    const { a, b } = await twoOrgs();
    const storage = t.app.deps.storage;
    const mine = await storage.put(a.orgId, Buffer.from('%PDF-1.4 file of A'), 'pdf');
    const theirs = await storage.put(b.orgId, Buffer.from('%PDF-1.4 file of B'), 'pdf');

    const res = await t.app.inject({
      method: 'GET',
      url: '/api/data-transfer/export-organisation',
      headers: { host: a.host, authorization: `Bearer ${a.admin.token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const entries = unzip(res.rawPayload);
    // Every name a plain path inside the archive: a folder and a file name, no `..`, nothing absolute.
    expect([...entries.keys()].filter((n) => !/^(lists|files|data)\/[\w.-]+$/.test(n) || n.includes('..'))).toEqual([]);
    const lists = [...entries.keys()].filter((n) => n.startsWith('lists/'));
    expect(lists).toEqual(EXPORT_LISTS.map((l) => `lists/${l}.csv`));
    expect(rowsOf(entries.get('lists/parts.csv')!.toString('utf8'))).toEqual([
      ['Name', 'SKU', 'Type', 'Category', 'Sales Price', 'Quantity on Hand', 'Minimum Quantity', 'Unit of Measure'],
      ['Grease cartridge A', '', 'stockable', 'Spares A', '10', '0', '0', 'Each A'],
      ['Bearing 6204 A', '', 'stockable', 'Spares A', '10', '0', '0', 'Each A'],
    ]);
    const files = [...entries.keys()].filter((n) => n.startsWith('files/'));
    expect(files).toEqual([`files/${mine.split('/').pop()}`]);
    expect(entries.get(files[0])!.toString()).toBe('%PDF-1.4 file of A');
    expect(JSON.stringify([...entries.keys()])).not.toContain(theirs.split('/').pop());
    expect([...entries.values()].some((v) => v.toString('latin1').includes('of B'))).toBe(false);

    const manager = await a.as('manager');
    const worker = await a.as('worker');
    expect((await manager.get('/api/data-transfer/export-organisation')).status).toBe(403);
    expect((await worker.get('/api/data-transfer/export-organisation')).status).toBe(403);
  });
});
