/**
 * The import kinds beyond assets, parts and customers (decision 042): services, work stations, users (as
 * invitations), meter readings and each kind of master data. Each: valid rows written through the feature's
 * service, a bad row reported by row and column with the form's message, another organisation's names not
 * found (and that organisation unchanged), and the role limits.
 */
import { describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { withoutTenant } from '../../server/db/client';
import { mailOutbox } from '../../server/db/schema';
import { startSmtpServer } from '../../server/test/fixtures';
import { createOrg, useTestAppWith, type TestOrg } from '../../server/test/harness';
import { publicOrigin } from '../../server/env';
import { orgSnapshot } from '../../server/test/sql';
import { masterRows } from '../assets/test-fixtures';
import { twoAssets } from '../meters/test-fixtures';
import { IMPORT_COLUMNS, IMPORT_KINDS, type ImportKind } from './data-transfer.schema';

const [t, smtp] = useTestAppWith(startSmtpServer, (mailbox) => [{ smtpUrl: mailbox.url }]);

type Client = TestOrg['admin'];
const importRows = (client: Client, kind: ImportKind, rows: Record<string, string | undefined>[], opts: Record<string, unknown> = {}) =>
  client.post(`/api/data-transfer/import/${kind}`, { rows, ...opts });
const SKIP = ['sessions', 'org_counters'];
const snapshot = (org: TestOrg) => orgSnapshot(t.database.db, org.orgId, SKIP);

/** Two organisations with the same master data, named A and B. */
async function twoOrgs() {
  const a = await createOrg(t, 'A');
  const b = await createOrg(t, 'B');
  await masterRows(t, a.orgId, 'A');
  await masterRows(t, b.orgId, 'B');
  return { a, b };
}

describe('work stations', () => {
  it("imports stations with their team by name; a bad row by row and column; another organisation's team is not found", async () => {
    const { a, b } = await twoOrgs();
    const before = await snapshot(b);
    const rows = [
      { code: 'WS-01', name: 'Machining bay', city: 'Riyadh', team: 'mechanics a' },
      { code: 'WS-02', name: '', city: 'Jeddah', team: 'Mechanics B' },
      { code: 'ws-01', name: 'Second bay', city: 'Riyadh', team: 'Electricians A' },
      { code: 'WS-04', name: 'Paint shop', city: 'Dammam', team: 'Electricians A' },
    ];
    const all = await importRows(a.admin, 'work-stations', rows);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 4, valid: 2, imported: 0, created: [] });
    expect(all.body.problems).toEqual([
      { row: 3, column: 'team', message: 'Team does not exist in this organization' },
      { row: 3, column: 'name', message: 'Name is required' },
      { row: 4, column: 'code', message: 'Duplicate of row 2' },
    ]);
    expect((await a.admin.get('/api/workstations/get-workstations')).body.workStations).toEqual([]);

    const some = await importRows(a.admin, 'work-stations', rows, { mode: 'valid' });
    expect(some.body).toMatchObject({ imported: 2, valid: 2 });
    const list = (await a.admin.get('/api/workstations/get-workstations')).body.workStations;
    expect(list.map((w: { code: string; Team: { name: string } }) => [w.code, w.Team.name]).sort()).toEqual([
      ['WS-01', 'Mechanics A'],
      ['WS-04', 'Electricians A'],
    ]);
    // A code the organisation has names the station the row updates.
    const again = await importRows(a.admin, 'work-stations', [{ code: 'ws-04', name: 'Again', city: 'Riyadh', team: 'Mechanics A' }]);
    expect(again.body).toMatchObject({ problems: [], new: 0, updated: 1, unchanged: 0 });
    const updated = (await a.admin.get('/api/workstations/get-workstations')).body.workStations.filter(
      (w: { code: string }) => w.code.toUpperCase() === 'WS-04',
    );
    expect(updated).toMatchObject([{ code: 'ws-04', name: 'Again', Team: { name: 'Mechanics A' } }]);
    expect(await snapshot(b)).toBe(before);
  });
});

describe('services', () => {
  it('imports services with their work stations by code or name, one operation for all or one per station', async () => {
    const { a, b } = await twoOrgs();
    const stations = [
      { code: 'WS-A1', name: 'Bay one', city: 'Riyadh', team: 'Mechanics A' },
      { code: 'WS-A2', name: 'Bay two', city: 'Riyadh', team: 'Mechanics A' },
    ];
    expect((await importRows(a.admin, 'work-stations', stations)).body.imported).toBe(2);
    expect((await importRows(b.admin, 'work-stations', [{ code: 'WS-B1', name: 'Bay of B', city: 'Riyadh', team: 'Mechanics B' }])).body.imported).toBe(1);
    const before = await snapshot(b);
    const rows = [
      { title: 'Pump overhaul', price: '250', workStations: 'ws-a1; Bay two', operation: 'Dismantle; Reassemble', timeRequired: '2h' },
      { title: 'Seal change', price: '-5', workStations: 'WS-A1', operation: 'Replace seal', timeRequired: '1h' },
      { title: 'Alignment', price: '80', workStations: 'WS-B1', operation: 'Align', timeRequired: '1h' },
      { title: 'Balancing', price: '80', workStations: 'WS-A1; WS-A2', operation: 'One; Two; Three', timeRequired: '1h' },
      { title: 'Inspection', price: '40', workStations: 'WS-A2', timeRequired: '30m' },
    ];
    const res = await importRows(await a.as('manager'), 'services', rows, { mode: 'valid' });
    expect(res.status).toBe(200);
    expect(res.body.imported).toBe(1);
    expect(res.body.problems).toEqual([
      { row: 3, column: 'price', message: 'Price must be a positive number' },
      { row: 4, column: 'workStations', message: 'Work station does not exist in this organization' },
      { row: 5, column: 'operation', message: 'Give one value for all the work stations, or one per work station separated by ;' },
      { row: 6, column: 'operation', message: 'Operation is required' },
    ]);
    const list = (await a.admin.get('/api/services/get-services')).body.services;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ title: 'Pump overhaul', price: 250 });
    expect(list[0].WorkStations.map((s: { code: string; operation: string; timeRequired: string }) => [s.code, s.operation, s.timeRequired])).toEqual([
      ['WS-A1', 'Dismantle', '2h'],
      ['WS-A2', 'Reassemble', '2h'],
    ]);
    expect(await snapshot(b)).toBe(before);
  });
});

describe('users', () => {
  it('invites each row through the invite function (mail through the outbox, only when saved); the invite roles only', async () => {
    const { a, b } = await twoOrgs();
    const manager = await a.as('manager');
    const before = await snapshot(b);
    const email = (who: string) => `${who}.${a.subdomain}@example.com`;
    const rows = [
      { email: email('tech'), role: 'Worker' },
      { email: email('lead'), role: 'manager' },
      { email: email('boss'), role: 'admin' },
      { email: 'not-an-email', role: 'worker' },
      { email: b.email, role: 'worker' },
    ];
    const outbox = () =>
      withoutTenant(t.database.db, (tx) =>
        tx
          .select({ to: mailOutbox.to })
          .from(mailOutbox)
          .where(
            inArray(
              mailOutbox.to,
              rows.map((r) => r.email),
            ),
          ),
      );

    const dry = await importRows(manager, 'users', rows, { mode: 'valid', dryRun: true });
    expect(dry.body).toMatchObject({ total: 5, imported: 0, dryRun: true });
    expect(dry.body.problems).toEqual([
      { row: 4, column: 'role', message: 'An invitation cannot give the admin role: invite the person as manager, then an admin changes the role' },
      { row: 5, column: 'email', message: 'Invalid email address' },
    ]);
    expect(await outbox()).toEqual([]);

    const res = await importRows(manager, 'users', rows, { mode: 'valid' });
    expect(res.body).toMatchObject({ imported: 3, valid: 3 });
    const users = (await a.admin.get('/api/user/getCompanyUsers?pageSize=100')).body.users as { email: string; role: string; inviteStatus: string }[];
    expect(
      users
        .filter((u) => u.inviteStatus === 'PENDING')
        .map((u) => [u.email, u.role])
        .sort(),
    ).toEqual(
      [
        [b.email, 'worker'],
        [email('lead'), 'manager'],
        [email('tech'), 'worker'],
      ].sort(),
    );
    const mail = await smtp().mailTo(email('tech'));
    // the configured domain's link, never the request's Host header (issue 45)
    expect(mail.text).toContain(`${publicOrigin(t.config, a.subdomain)}/complete-registration?token=`);
    expect((await outbox()).map((r) => r.to).sort()).toEqual([b.email, email('lead'), email('tech')].sort());
    // B's admin of the same address is B's: B is unchanged.
    expect(await snapshot(b)).toBe(before);
    // A member's e-mail names them: the same role is unchanged (no second invitation).
    const again = await importRows(manager, 'users', [{ email: email('TECH'), role: 'worker' }]);
    expect(again.body).toMatchObject({ imported: 0, new: 0, updated: 0, unchanged: 1, problems: [] });
    expect(
      (
        await withoutTenant(t.database.db, (tx) =>
          tx
            .select()
            .from(mailOutbox)
            .where(eq(mailOutbox.to, email('boss'))),
        )
      ).length,
    ).toBe(0);
  });
});

describe('meter readings', () => {
  it("the meters' importer in the wizard: assets by number, meters by name, times in the given zone; another organisation's meter is not found", async () => {
    const a = await createOrg(t, 'A');
    const b = await createOrg(t, 'B');
    const { pump } = await twoAssets(t, a.orgId);
    const other = await twoAssets(t, b.orgId);
    const hours = (await a.admin.post('/api/meters/add-meter', { assetId: pump.id, name: 'Running hours', kind: 'counter', unit: 'h' })).body.meter;
    const bMeter = (await b.admin.post('/api/meters/add-meter', { assetId: other.pump.id, name: 'Cycles', kind: 'counter', unit: 'c' })).body.meter;
    const before = await snapshot(b);
    const asset = `AS-${String(pump.id).padStart(4, '0')}`;
    const rows = [
      { asset, meter: 'running hours', value: '120', readAt: '2026-01-02 08:00' },
      { asset, meter: 'Running hours', value: '100', readAt: '2026-01-01' },
      { asset, meter: 'Running hours', value: 'abc', readAt: '2026-01-03' },
      { asset: `AS-${String(other.pump.id).padStart(4, '0')}`, meter: bMeter.name, value: '5', readAt: '2026-01-03' },
      { asset, meter: 'Running hours', value: '90', readAt: '2026-01-04' },
    ];
    const all = await importRows(a.admin, 'meter-readings', rows, { timeZone: 'Asia/Dubai' });
    expect(all.body).toMatchObject({ total: 5, imported: 0 });
    expect(all.body.problems).toEqual([
      { row: 4, column: 'value', message: 'Value must be a number' },
      { row: 5, column: 'meter', message: `Asset AS-${String(other.pump.id).padStart(4, '0')} has no such meter` },
      { row: 6, column: 'value', message: expect.stringMatching(/^A counter only goes up/) },
    ]);
    expect((await a.admin.get(`/api/meters/list-meter-readings/${hours.id}`)).body.readings).toEqual([]);

    const some = await importRows(a.admin, 'meter-readings', rows, { timeZone: 'Asia/Dubai', mode: 'valid' });
    expect(some.body.imported).toBe(2);
    const readings = (await a.admin.get(`/api/meters/list-meter-readings/${hours.id}`)).body.readings;
    expect(readings.map((r: { value: number; readAt: string; source: string }) => [r.value, r.readAt, r.source])).toEqual([
      [100, '2025-12-31T20:00:00.000Z', 'csv'],
      [120, '2026-01-02T04:00:00.000Z', 'csv'],
    ]);
    expect(await snapshot(b)).toBe(before);
    expect((await importRows(a.admin, 'meter-readings', rows, { timeZone: 'Mars/Olympus' })).status).toBe(400);
  });
});

describe('master data', () => {
  it('asset categories and UOM categories: the forms’ messages; an existing key updates its record', async () => {
    const { a } = await twoOrgs();
    const cats = await importRows(
      a.admin,
      'asset-categories',
      [
        { name: 'Compressors', code: 'CMP' },
        { name: 'Fa', code: 'FN' },
        { name: 'Pumps again', code: 'pmpa' },
      ],
      { mode: 'valid' },
    );
    expect(cats.body).toMatchObject({ imported: 2, new: 1, updated: 1 });
    expect(cats.body.problems).toEqual([
      { row: 3, column: 'name', message: 'Name must be at least 3 characters long' },
      { row: 3, column: 'code', message: 'Short code must be at least 3 characters long' },
    ]);
    const names = (await a.admin.get('/api/asset-categories/get-asset-categories')).body.assetCategories.map((c: { name: string }) => c.name);
    expect(names).toContain('Compressors');
    expect(names).toContain('Pumps again');
    const uomCats = await importRows(a.admin, 'uom-categories', [{ name: 'Weight' }, { name: 'Volume' }]);
    expect(uomCats.body).toMatchObject({ imported: 2, problems: [] });
  });

  it("units of measure: the category by name, or created with createMissing; another organisation's category is not found", async () => {
    const { a, b } = await twoOrgs();
    const before = await snapshot(b);
    const rows = [
      { name: 'Dozen', category: 'unit a', type: 'Bigger', ratio: '12' },
      { name: 'Kilogram', category: 'Weight', type: 'reference' },
      { name: 'Gram', category: 'Weight', type: 'lesser', ratio: '0' },
      { name: 'Crate', category: 'Unit B', type: 'bigger', ratio: '20' },
    ];
    const res = await importRows(a.admin, 'uoms', rows);
    expect(res.body).toMatchObject({ imported: 0, missing: ['Weight', 'Unit B'], created: [] });
    expect(res.body.problems).toEqual([
      { row: 3, column: 'category', message: 'UOM category not found' },
      { row: 4, column: 'category', message: 'UOM category not found' },
      { row: 4, column: 'ratio', message: 'The number must be greater than 0' },
      { row: 5, column: 'category', message: 'UOM category not found' },
    ]);
    // Created only for the rows written: an all-or-nothing dry run with a bad row would create nothing.
    const aborted = await importRows(a.admin, 'uoms', rows, { createMissing: true, dryRun: true });
    expect(aborted.body).toMatchObject({ imported: 0, created: [], missing: [] });
    const fine = [rows[0], rows[1], { name: 'Gram', category: 'weight', type: 'lesser', ratio: '0.001' }];
    const dry = await importRows(a.admin, 'uoms', fine, { createMissing: true, dryRun: true });
    expect(dry.body).toMatchObject({ imported: 0, created: ['Weight'], problems: [] });
    const real = await importRows(a.admin, 'uoms', fine, { createMissing: true });
    expect(real.body).toMatchObject({ imported: 3, created: ['Weight'], problems: [] });
    const uoms = (await a.admin.get('/api/uoms/get-uoms?pageSize=100')).body.uoms;
    expect(uoms.map((u: { name: string; category: { name: string }; ratio: number }) => `${u.name}/${u.category.name}/${u.ratio}`).sort()).toEqual(
      ['Box of 10 A/Unit A/10', 'Dozen/Unit A/12', 'Each A/Unit A/1', 'Gram/Weight/0.001', 'Kilogram/Weight/1'].sort(),
    );
    expect(await snapshot(b)).toBe(before);
  });

  it('product categories: a parent of the organisation or of an earlier row; missing ones created on request', async () => {
    const { a, b } = await twoOrgs();
    const before = await snapshot(b);
    const rows = [
      { name: 'Bearings', parent: 'spares a' },
      { name: 'Ball bearings', parent: 'Bearings' },
      { name: 'Seals', parent: 'Spares B' },
      { name: 'X' },
    ];
    const res = await importRows(a.admin, 'product-categories', rows, { mode: 'valid' });
    expect(res.body).toMatchObject({ imported: 2, missing: ['Spares B'] });
    expect(res.body.problems).toEqual([
      { row: 4, column: 'parent', message: 'Parent category not found' },
      { row: 5, column: 'name', message: 'Name must be at least 3 characters long' },
    ]);
    const list = (await a.admin.get('/api/product-categories/get-product-categories')).body.productCategories;
    expect(list.map((c: { name: string; parent: { name: string } | null }) => `${c.name}<${c.parent?.name ?? ''}`).sort()).toEqual([
      'Ball bearings<Bearings',
      'Bearings<Spares A',
      'Spares A<',
    ]);
    const created = await importRows(a.admin, 'product-categories', [{ name: 'Seals', parent: 'Spares B' }], { createMissing: true });
    expect(created.body).toMatchObject({ imported: 1, created: ['Spares B'] });
    expect(await snapshot(b)).toBe(before);
  });

  it("taxes: the tax form's messages; a group names its children (of the organisation or earlier rows), never another organisation's", async () => {
    const { a, b } = await twoOrgs();
    expect(
      (await importRows(b.admin, 'taxes', [{ name: 'VAT of B', scope: 'sales', taxComputation: 'percentage_of_price', amount: '5', isPriceIncluded: 'no' }]))
        .body.imported,
    ).toBe(1);
    const before = await snapshot(b);
    const rows = [
      { name: 'VAT 15%', scope: 'Sales', taxComputation: 'percentage_of_price', amount: '15', isPriceIncluded: 'no' },
      { name: 'City tax', scope: 'sales', taxComputation: 'fixed', amount: '2', isPriceIncluded: 'yes' },
      { name: 'VAT and city', scope: 'sales', taxComputation: 'group', isPriceIncluded: 'no', children: 'VAT 15%; City tax' },
      { name: 'Too much', scope: 'sales', taxComputation: 'percentage_of_price', amount: '150', isPriceIncluded: 'no' },
      { name: 'Borrowed', scope: 'sales', taxComputation: 'group', isPriceIncluded: 'no', children: 'VAT of B' },
      { name: 'Empty group', scope: 'sales', taxComputation: 'group', isPriceIncluded: 'no' },
    ];
    const res = await importRows(a.admin, 'taxes', rows, { mode: 'valid' });
    expect(res.body).toMatchObject({ imported: 3 });
    expect(res.body.problems).toEqual([
      { row: 5, column: 'amount', message: 'A percentage cannot be more than 100' },
      { row: 6, column: 'children', message: 'Child tax not found' },
      { row: 7, column: 'children', message: 'Child Taxes are required when Tax Computation is Group' },
    ]);
    const taxes = (await a.admin.get('/api/taxes/get-taxes')).body.taxes;
    const group = taxes.find((x: { name: string }) => x.name === 'VAT and city');
    expect(group.Children.map((c: { name: string }) => c.name).sort()).toEqual(['City tax', 'VAT 15%']);
    expect(await snapshot(b)).toBe(before);
  });

  it("time tracking reasons: type and the blocking flag with the form's messages", async () => {
    const { a } = await twoOrgs();
    const rows = [
      { name: 'Waiting for parts', type: 'Availability', isBlockingReason: 'yes' },
      { name: 'Coffee', type: 'leisure', isBlockingReason: 'no' },
      { name: 'Setup', type: 'performance' },
    ];
    const res = await importRows(a.admin, 'time-tracking-reasons', rows, { mode: 'valid' });
    expect(res.body).toMatchObject({ imported: 1 });
    expect(res.body.problems).toEqual([
      { row: 3, column: 'type', message: 'Type is required' },
      { row: 4, column: 'isBlockingReason', message: 'Type is required' },
    ]);
    const reasons = (await a.admin.get('/api/time-tracking-reasons/get-time-tracking-reasons')).body.timeTrackingReasons;
    expect(reasons).toMatchObject([{ name: 'Waiting for parts', type: 'availability', isBlockingReason: true }]);
  });
});

describe('every kind', () => {
  it('is refused to workers (403); a manager imports; each kind has a template whose example row is read back', async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker');
    const manager = await org.as('manager');
    for (const kind of IMPORT_KINDS) {
      const example = Object.fromEntries(IMPORT_COLUMNS[kind].filter((c) => c.example).map((c) => [c.key, c.example]));
      expect((await importRows(worker, kind, [example], { dryRun: true })).status, kind).toBe(403);
      const dry = await importRows(manager, kind, [example], { dryRun: true });
      expect(dry.status, kind).toBe(200);
      // The example names records this organisation may lack, never an unknown column or a formula.
      expect(
        dry.body.problems.filter((p: { message: string }) => /Unknown column|formula/.test(p.message)),
        kind,
      ).toEqual([]);
    }
  });
});
