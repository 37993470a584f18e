/**
 * Re-importing an edited export (decision 055): every exported list's header is an import header, a row names
 * its record by its key or its ID column and updates it, the dry run counts new, updated and unchanged rows,
 * and another organisation's ids and keys never reach its records.
 */
import { describe, expect, it } from 'vitest';
import { withTenant } from '../../server/db/client';
import { assets } from '../../server/db/schema';
import { createOrg, useTestApp, type TestOrg } from '../../server/test/harness';
import { masterRows } from '../assets/test-fixtures';
import { type ExportList, type ImportKind } from './data-transfer.schema';
import { asImport, editRoundTrip, exported, postImport as post, seedImport as seed, snapshotOf } from './test-kit';

const t = useTestApp();

const snapshot = (org: TestOrg) => snapshotOf(t, org);
const roundTrip = (
  org: TestOrg,
  kind: ImportKind,
  list: ExportList,
  header: string,
  match: (row: Record<string, string>) => boolean,
  value: string,
  client = org.admin,
) => editRoundTrip(t, org, { kind, list, header, match, value }, { client });

describe('an edited export re-imports as updates', () => {
  it('assets: by asset code, and by the Asset ID column when the asset has no code', async () => {
    const org = await createOrg(t, 'Re A');
    await masterRows(t, org.orgId, 'A');
    await seed(org.admin, 'assets', [
      { name: 'Pump P-1', assetCode: 'P-1', category: 'Pumps A', date: '2024-05-01', owner: 'Bearing World A', serial: 'S1' },
      { name: 'Pump P-2', assetCode: 'P-2', category: 'Pumps A', date: '2024-05-02', status: 'Not_Operational' },
      { name: 'Motor without code', category: 'Motors A', date: '2024-05-03', description: '+966 55 123 4567' },
    ]);
    await roundTrip(org, 'assets', 'assets', 'Name', (r) => r['Asset Code'] === 'P-2', 'Pump P-2 renamed');
    await roundTrip(org, 'assets', 'assets', 'Serial', (r) => r.Name === 'Motor without code', 'SER-9');
    await roundTrip(org, 'assets', 'assets', 'Status', (r) => r.Name === 'Pump P-1', 'Not_Operational');
  });

  it('parts: by SKU; a changed stock is booked by the part itself', async () => {
    const org = await createOrg(t, 'Re P');
    await masterRows(t, org.orgId, 'A');
    await seed(org.admin, 'parts', [
      {
        name: 'Bearing 6204',
        skuCode: 'BRG-1',
        type: 'stockable',
        category: 'Spares A',
        salesPrice: '12.5',
        unitOfMeasure: 'Each A',
        purchaseUnitOfMeasure: 'Box of 10 A',
        quantityOnHand: '40',
        minimumQuantity: '10',
      },
      { name: 'Grease', skuCode: 'GR-1', type: 'consumable', category: 'Spares A', salesPrice: '3', unitOfMeasure: 'Each A' },
    ]);
    await roundTrip(org, 'parts', 'parts', 'Sales Price', (r) => r.SKU === 'GR-1', '4.25');
    await roundTrip(org, 'parts', 'parts', 'Quantity on Hand', (r) => r.SKU === 'BRG-1', '35');
    const part = (await org.admin.get('/api/parts/get-parts?name=BRG-1')).body.parts[0];
    // the purchase unit is not in the export: kept
    expect(part).toMatchObject({ quantityOnHand: 35, purchaseUnitOfMeasure: { name: 'Box of 10 A' } });
  });

  it('customers and vendors: by e-mail; the columns the export lacks are kept', async () => {
    const org = await createOrg(t, 'Re C');
    await masterRows(t, org.orgId, 'A');
    await seed(org.admin, 'customer-vendors', [
      {
        name: 'Gulf Pumps',
        email: 'sales@gulf.example.com',
        type: 'vendor',
        category: 'company',
        street: '1 Industrial Way',
        phone: '+966 55 123 4567',
        parent: 'Bearing World A',
      },
    ]);
    await roundTrip(org, 'customer-vendors', 'customer-vendors', 'City', (r) => r.Email === 'sales@gulf.example.com', 'Jeddah');
    const [cv] = (await org.admin.get('/api/customer-vendors/get-customer-vendors?name=gulf')).body.customerVendors;
    expect(cv).toMatchObject({ city: 'Jeddah', street: '1 Industrial Way', phone: '+966 55 123 4567', mobile: null, Parent: { name: 'Bearing World A' } });
  });

  it('users: by e-mail, the role through the user rules; an admin row is unchanged, a new admin refused by its reason', async () => {
    const org = await createOrg(t, 'Re U');
    await seed(org.admin, 'users', [
      { email: `tech.${org.subdomain}@example.com`, role: 'worker' },
      { email: `lead.${org.subdomain}@example.com`, role: 'manager' },
    ]);
    await roundTrip(org, 'users', 'users', 'Role', (r) => r.Email.startsWith('tech.'), 'manager');
    await roundTrip(org, 'users', 'users', 'Role', (r) => r.Email.startsWith('tech.'), 'admin');
    // a manager cannot give the admin role; a new admin is refused with the reason
    const manager = await org.as('manager');
    const res = await post(
      manager,
      'users',
      [
        { email: `lead.${org.subdomain}@example.com`, role: 'admin' },
        { email: `boss.${org.subdomain}@example.com`, role: 'admin' },
      ],
      { mode: 'valid' },
    );
    expect(res.body).toMatchObject({ imported: 0, new: 0, updated: 0 });
    expect(res.body.problems).toEqual([
      { row: 2, column: null, message: 'Only an admin can change an admin role' },
      { row: 3, column: 'role', message: 'An invitation cannot give the admin role: invite the person as manager, then an admin changes the role' },
    ]);
  });

  it('master data: each kind by its name (asset categories by code)', async () => {
    const org = await createOrg(t, 'Re M');
    await masterRows(t, org.orgId, 'A');
    await seed(org.admin, 'product-categories', [{ name: 'Bearings', parent: 'Spares A' }]);
    await seed(org.admin, 'taxes', [
      { name: 'VAT 15%', scope: 'sales', taxComputation: 'percentage_of_price', amount: '15', isPriceIncluded: 'no' },
      { name: 'Eco fee', scope: 'sales', taxComputation: 'fixed', amount: '2', isPriceIncluded: 'yes', sequence: '3' },
      { name: 'VAT and fee', scope: 'sales', taxComputation: 'group', isPriceIncluded: 'no', children: 'VAT 15%; Eco fee' },
    ]);
    await seed(org.admin, 'uom-categories', [{ name: 'Weight' }]);
    await seed(org.admin, 'time-tracking-reasons', [
      { name: 'Waiting for parts', type: 'availability', isBlockingReason: 'yes' },
      { name: 'Setup', type: 'performance', isBlockingReason: 'no' },
    ]);
    await roundTrip(org, 'asset-categories', 'asset-categories', 'Name', (r) => r.Code === 'MOTA', 'Electric motors');
    await roundTrip(org, 'product-categories', 'product-categories', 'Parent', (r) => r.Name === 'Bearings', '');
    await roundTrip(org, 'taxes', 'taxes', 'Value', (r) => r.Name === 'VAT 15%', '5');
    // A UOM category has its name only (a renamed one is a new one): its export re-imports unchanged, the
    // computed column ignored.
    const file = await exported(org.admin, 'uom-categories');
    const before = await snapshot(org);
    const again = await post(
      org.admin,
      'uom-categories',
      asImport(
        'uom-categories',
        file.map((r, i) => (i ? [r[0], 'whatever'] : r)),
      ),
    );
    expect(again.body).toMatchObject({ total: 2, imported: 0, new: 0, updated: 0, unchanged: 2, problems: [] });
    expect(await snapshot(org)).toBe(before);
    await roundTrip(org, 'uoms', 'uoms', 'Ratio', (r) => r.Name === 'Box of 10 A', '12');
    await roundTrip(org, 'time-tracking-reasons', 'time-tracking-reasons', 'Blocking Reason', (r) => r.Name === 'Setup', 'true');
    const vat = (await org.admin.get('/api/taxes/get-taxes')).body.taxes.find((x: { name: string }) => x.name === 'VAT 15%');
    // the price-included flag is not in the export: kept
    expect(vat).toMatchObject({ amount: 5, isPriceIncluded: false });
  });

  it('work stations by code, services by title (their stations, operations and times kept)', async () => {
    const org = await createOrg(t, 'Re W');
    await masterRows(t, org.orgId, 'A');
    await seed(org.admin, 'work-stations', [
      { code: 'WS-01', name: 'Machining bay', city: 'Riyadh', team: 'Mechanics A' },
      { code: 'WS-02', name: 'Paint shop', city: 'Dammam', team: 'Electricians A' },
    ]);
    await seed(org.admin, 'services', [
      {
        title: 'Pump overhaul',
        price: '250',
        workStations: 'WS-01; WS-02',
        operation: 'Dismantle; Paint',
        timeRequired: '2h; 1h',
        operations: 'Full overhaul',
      },
      { title: 'Motor check', price: '80', workStations: 'WS-01', operation: 'Check', timeRequired: '1h' },
    ]);
    await roundTrip(org, 'work-stations', 'work-stations', 'City', (r) => r.Code === 'WS-02', 'Jeddah');
    await roundTrip(org, 'services', 'services', 'Price', (r) => r.Name === 'Pump overhaul', '275');
    const svc = (await org.admin.get('/api/services/get-services?title=Pump')).body.services[0];
    expect(svc.WorkStations.map((w: { code: string; operation: string }) => `${w.code} ${w.operation}`)).toEqual(['WS-01 Dismantle', 'WS-02 Paint']);
  });
});

describe('matching stays inside the organisation', () => {
  it("another organisation's export (its ids and keys) creates records here and never changes its own", async () => {
    const a = await createOrg(t, 'Iso A');
    const b = await createOrg(t, 'Iso B');
    await masterRows(t, a.orgId, 'A');
    await masterRows(t, b.orgId, 'A');
    await seed(a.admin, 'assets', [
      { name: 'A pump', assetCode: 'P-1', category: 'Pumps A', date: '2024-05-01' },
      { name: 'A motor', category: 'Motors A', date: '2024-05-03' },
    ]);
    const file = await exported(a.admin, 'assets');
    const beforeA = await snapshot(a);
    // edited in B: the same Asset IDs and codes, other names
    const edited = file.map((cells, i) => (i === 0 ? cells : cells.map((c, j) => (file[0][j] === 'Name' ? `${c} (B)` : c))));
    const res = await post(b.admin, 'assets', asImport('assets', edited));
    expect(res.body).toMatchObject({ imported: 2, new: 2, updated: 0, unchanged: 0, problems: [] });
    expect(await snapshot(a)).toBe(beforeA);
    expect(
      (await exported(a.admin, 'assets'))
        .slice(1)
        .map((r) => r[1])
        .sort(),
    ).toEqual(['A motor', 'A pump']);
    expect(
      (await exported(b.admin, 'assets'))
        .slice(1)
        .map((r) => r[1])
        .sort(),
    ).toEqual(['A motor (B)', 'A pump (B)']);
  });

  it('odd ids and keys: an unknown or malformed id is no match, an id and a key naming two records or a key two records share is refused', async () => {
    const org = await createOrg(t, 'Odd');
    const m = await masterRows(t, org.orgId, 'A');
    await seed(org.admin, 'assets', [
      { name: 'One', assetCode: 'K-1', category: 'Pumps A', date: '2024-05-01' },
      { name: 'Two', assetCode: 'K-2', category: 'Pumps A', date: '2024-05-01' },
    ]);
    const [, ...rows] = await exported(org.admin, 'assets');
    const idOf = (name: string) => rows.find((r) => r[1] === name)![0];
    const before = await snapshot(org);
    const row = (o: Record<string, string | null>) => ({ name: 'X', category: 'Pumps A', date: '2024-05-01', ...o });
    const res = await post(
      org.admin,
      'assets',
      [
        row({ assetId: idOf('One'), assetCode: 'K-2' }),
        row({ assetId: 'AS-99999999999', assetCode: null }),
        row({ assetId: "'=1+1", assetCode: 'K-9' }),
        row({ assetId: idOf('Two'), name: 'Two again' }),
        row({ assetId: idOf('Two'), assetCode: '', name: 'Two thrice' }),
      ],
      { dryRun: true, mode: 'valid' },
    );
    expect(res.body.problems).toEqual([
      { row: 2, column: 'assetCode', message: 'Another record already has this value' },
      { row: 6, column: 'assetCode', message: 'Duplicate of row 5' },
    ]);
    expect(res.body).toMatchObject({ new: 2, updated: 1, unchanged: 0 });
    expect(await snapshot(org)).toBe(before);

    // two records with one code (codes are not unique): the code alone cannot say which
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .insert(assets)
        .values([1, 2].map((n) => ({ orgId: org.orgId, name: `Shared ${n}`, assetCode: 'K-3', assetCategoryId: m.assetCategory.id, date: '2024-05-01' }))),
    );
    const shared = await post(org.admin, 'assets', [row({ assetCode: 'k-3' })], { dryRun: true });
    expect(shared.body.problems).toEqual([{ row: 2, column: 'assetCode', message: 'Several records have this value: add the ID column to say which one' }]);
  });
});
