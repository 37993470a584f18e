import { describe, expect, it } from 'vitest';
import { createOrg, useTestApp, type TestOrg } from '../../server/test/harness';
import { orgSnapshot } from '../../server/test/sql';
import { masterRows } from '../assets/test-fixtures';
import { csvCell, looksLikeFormula } from '../../shared/csv';

const t = useTestApp();

const asset = (over: Record<string, string> = {}) => ({ name: 'Feed Pump', category: 'Pumps A', date: '2024-05-01', ...over });
const importAssets = (org: TestOrg, rows: Record<string, string>[], opts: Record<string, unknown> = {}) =>
  org.admin.post('/api/data-transfer/import/assets', { rows, ...opts });
const assetNames = async (org: TestOrg) => (await org.admin.get('/api/assets/get-assets?pageSize=100')).body.assets.map((a: { name: string }) => a.name).sort();

/** Parses our own CSV (quoted cells, CRLF) back into rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n') {
      row.push(cell.replace(/\r$/, ''));
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  return rows;
}

describe('import', () => {
  it('imports assets by category name or code and owner name, with history, and reports nothing wrong', async () => {
    const org = await createOrg(t);
    await masterRows(t, org.orgId);
    const res = await importAssets(org, [
      asset({ assetCode: 'A-1', owner: 'Bearing World A', status: 'not operational' }),
      asset({ name: 'Motor', category: 'motA', assetCode: 'A-2' }),
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 2, valid: 2, imported: 2, problems: [], dryRun: false });
    const list = (await org.admin.get('/api/assets/get-assets')).body.assets;
    expect(list.map((a: { name: string; AssetCategory: { name: string } }) => [a.name, a.AssetCategory.name])).toEqual([
      ['Motor', 'Motors A'],
      ['Feed Pump', 'Pumps A'],
    ]);
    expect(list[1]).toMatchObject({ status: 'Not_Operational', CustomerVendor: { name: 'Bearing World A' }, assetCode: 'A-1' });
    const history = await org.admin.get(`/api/activities/asset/${list[0].id}`);
    expect(JSON.stringify(history.body)).toContain('created');
  });

  it("reports each row's problems by file row and column, with the forms' messages, and writes nothing (all or nothing)", async () => {
    const org = await createOrg(t);
    await masterRows(t, org.orgId);
    const res = await importAssets(org, [
      asset({ assetCode: 'A-1' }),
      asset({ name: '', date: '2024-13-01' }),
      asset({ category: 'Nope', owner: 'Nobody' }),
      asset({ assetCode: 'a-1', description: '=HYPERLINK("http://x")' }),
    ]);
    expect(res.status).toBe(200);
    expect(res.body.imported).toBe(0);
    expect(res.body.valid).toBe(1);
    expect(res.body.missing).toEqual(['Nope']);
    expect(res.body.problems).toEqual(
      expect.arrayContaining([
        { row: 3, column: 'name', message: 'Name is required' },
        { row: 3, column: 'date', message: 'Date must be a valid date' },
        { row: 4, column: 'category', message: 'Category does not exist in this organization' },
        { row: 4, column: 'owner', message: 'Customer/Vendor does not exist in this organization' },
        { row: 5, column: 'assetCode', message: 'Duplicate of row 2' },
        { row: 5, column: 'description', message: expect.stringContaining('formula') },
      ]),
    );
    expect(await assetNames(org)).toEqual([]);
  });

  it('imports the valid rows in "valid" mode and returns the rejected ones; a second run updates the record of an existing key', async () => {
    const org = await createOrg(t);
    await masterRows(t, org.orgId);
    const rows = [asset({ name: 'Good one', assetCode: 'G-1' }), asset({ name: 'Bad one', date: '' }), asset({ name: 'Good two', assetCode: 'G-2' })];
    const res = await importAssets(org, rows, { mode: 'valid', firstRow: 10 });
    expect(res.body).toMatchObject({ total: 3, valid: 2, imported: 2, problems: [{ row: 11, column: 'date', message: 'Date is required' }] });
    expect(await assetNames(org)).toEqual(['Good one', 'Good two']);
    const again = await importAssets(org, [asset({ name: 'Good again', assetCode: 'g-1' })], { mode: 'valid' });
    expect(again.body).toMatchObject({ imported: 1, new: 0, updated: 1, unchanged: 0, problems: [] });
    expect(await assetNames(org)).toEqual(['Good again', 'Good two']);
  });

  it('a dry run checks and writes, then undoes everything; createMissing creates the named categories', async () => {
    const org = await createOrg(t);
    await masterRows(t, org.orgId);
    const before = await orgSnapshot(t.database.db, org.orgId, ['sessions', 'org_counters']);
    const dry = await importAssets(org, [asset({ category: 'Compressors' }), asset({ category: 'compressors', name: 'Second' })], {
      dryRun: true,
      createMissing: true,
    });
    expect(dry.body).toMatchObject({ total: 2, valid: 2, imported: 0, dryRun: true, created: ['Compressors'], problems: [] });
    expect(await orgSnapshot(t.database.db, org.orgId, ['sessions', 'org_counters'])).toBe(before);
    // An all-or-nothing import with a bad row creates nothing, so it says nothing is created (dry run or not).
    for (const dryRun of [true, false]) {
      const aborted = await importAssets(org, [asset({ category: 'Compressors' }), asset({ name: '' })], { dryRun, createMissing: true });
      expect(aborted.body).toMatchObject({ imported: 0, created: [], missing: [], problems: [{ row: 3, column: 'name' }] });
    }
    expect(await orgSnapshot(t.database.db, org.orgId, ['sessions', 'org_counters'])).toBe(before);
    const real = await importAssets(org, [asset({ category: 'Compressors' }), asset({ category: 'compressors', name: 'Second' })], { createMissing: true });
    expect(real.body).toMatchObject({ imported: 2, created: ['Compressors'] });
    const cats = (await org.admin.get('/api/asset-categories/get-asset-categories')).body.assetCategories.map(
      (c: { name: string; code: string }) => `${c.name}/${c.code}`,
    );
    expect(cats).toContain('Compressors/COMPRESSORS');
  });

  it('imports parts with opening stock through the parts service, and refuses per row what the service refuses', async () => {
    const org = await createOrg(t);
    const m = await masterRows(t, org.orgId);
    const rows = [
      {
        name: 'Bearing 6204',
        skuCode: 'BRG-1',
        type: 'stockable',
        category: 'Spares A',
        salesPrice: '12.5',
        unitOfMeasure: m.each.name,
        quantityOnHand: '40',
        minimumQuantity: '10',
      },
      { name: 'Grease', type: 'consumable', category: 'Spares A', salesPrice: '3', unitOfMeasure: 'Litre', quantityOnHand: '5' },
      { name: 'Oil', type: 'consumable', category: 'Spares A', salesPrice: '3', unitOfMeasure: m.each.name, quantityOnHand: '5' },
    ];
    const res = await org.admin.post('/api/data-transfer/import/parts', { rows, mode: 'valid' });
    expect(res.status).toBe(200);
    expect(res.body.imported).toBe(1);
    expect(res.body.problems).toEqual([
      { row: 3, column: 'unitOfMeasure', message: 'Unit of measure does not exist in this organization' },
      { row: 3, column: 'unitOfMeasure', message: 'Purchase unit of measure does not exist in this organization' },
      { row: 4, column: 'quantityOnHand', message: 'Only stockable parts keep a quantity on hand' },
    ]);
    const parts = (await org.admin.get('/api/parts/get-parts')).body.parts;
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatchObject({ name: 'Bearing 6204', quantityOnHand: 40, minimumQuantity: 10, skuCode: 'BRG-1' });
    const moves = await org.admin.get(`/api/parts/get-stock-moves/${parts[0].id}`);
    expect(JSON.stringify(moves.body)).toContain('Opening stock');
  });

  it('all or nothing: a row the service refuses rolls back the rows written before it', async () => {
    const org = await createOrg(t);
    const m = await masterRows(t, org.orgId);
    const good = { name: 'Bearing', type: 'stockable', category: 'Spares A', salesPrice: '1', unitOfMeasure: m.each.name };
    const res = await org.admin.post('/api/data-transfer/import/parts', { rows: [good, { ...good, name: 'Oil', type: 'consumable', quantityOnHand: '5' }] });
    expect(res.body).toMatchObject({ imported: 0, problems: [{ row: 3, column: 'quantityOnHand' }] });
    expect((await org.admin.get('/api/parts/get-parts')).body.parts).toEqual([]);
  });

  it('imports customers and vendors with a parent by name; a duplicate e-mail in the file is refused, an existing one updates its record', async () => {
    const org = await createOrg(t);
    await masterRows(t, org.orgId);
    const rows = [
      { name: 'Gulf Pumps', email: 'Sales@gulf.example.com', type: 'Vendor', category: 'company', parent: 'Bearing World A', phone: '+966 55 123 4567' },
      { name: 'Al', email: 'x@y', type: 'buyer', category: 'company' },
      { name: 'Gulf Again', email: 'sales@gulf.example.com', type: 'vendor', category: 'company' },
      { name: 'Acme Two', email: 'buyerA@acme.example.com', type: 'customer', category: 'company' },
    ];
    const res = await org.admin.post('/api/data-transfer/import/customer-vendors', { rows, mode: 'valid' });
    expect(res.body).toMatchObject({ imported: 2, new: 1, updated: 1, unchanged: 0 });
    expect(res.body.problems).toEqual([
      { row: 3, column: 'name', message: 'Name must be at least 3 characters long' },
      { row: 3, column: 'email', message: 'Invalid email format' },
      { row: 3, column: 'type', message: 'Type is required' },
      { row: 4, column: 'email', message: 'Duplicate of row 2' },
    ]);
    expect((await org.admin.get('/api/customer-vendors/get-customer-vendors?name=buyerA')).body.customerVendors).toMatchObject([
      { name: 'Acme Two', type: 'customer' },
    ]);
    const list = (await org.admin.get('/api/customer-vendors/get-customer-vendors?name=gulf')).body.customerVendors;
    expect(list).toMatchObject([
      { name: 'Gulf Pumps', email: 'sales@gulf.example.com', type: 'vendor', Parent: { name: 'Bearing World A' }, phone: '+966 55 123 4567' },
    ]);
  });

  it('refuses workers (403), unknown kinds and bad bodies (400)', async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker');
    expect((await worker.post('/api/data-transfer/import/assets', { rows: [asset()] })).status).toBe(403);
    expect((await worker.get('/api/data-transfer/mapping/assets')).status).toBe(403);
    expect((await (await org.as('manager')).post('/api/data-transfer/import/assets', { rows: [asset()] })).status).toBe(200);
    expect((await org.admin.post('/api/data-transfer/import/things', { rows: [asset()] })).status).toBe(400);
    expect((await org.admin.post('/api/data-transfer/import/assets', { rows: [] })).status).toBe(400);
    expect((await org.admin.post('/api/data-transfer/import/assets', { rows: [asset()], mode: 'some' })).status).toBe(400);
  });

  it('an import into A resolves names in A only and never touches B; the mapping is remembered per organisation', async () => {
    const a = await createOrg(t, 'A');
    const b = await createOrg(t, 'B');
    await masterRows(t, b.orgId, 'B');
    await masterRows(t, a.orgId, 'A');
    const before = await orgSnapshot(t.database.db, b.orgId, ['sessions', 'org_counters']);
    const res = await importAssets(a, [asset({ category: 'Pumps B', owner: 'Bearing World B' })], { createMissing: false });
    expect(res.body.problems.map((p: { column: string }) => p.column).sort()).toEqual(['category', 'owner']);
    await importAssets(a, [asset({ category: 'Pumps B' })], { createMissing: true });
    expect(await orgSnapshot(t.database.db, b.orgId, ['sessions', 'org_counters'])).toBe(before);

    expect((await a.admin.put('/api/data-transfer/mapping/assets', { mapping: { 'Asset Name': 'name' } })).status).toBe(200);
    expect((await a.admin.get('/api/data-transfer/mapping/assets')).body).toEqual({ mapping: { 'Asset Name': 'name' } });
    expect((await b.admin.get('/api/data-transfer/mapping/assets')).body).toEqual({ mapping: {} });
  });
});

describe('export', () => {
  it('streams a filtered list as CSV with the visible columns, neutralising formulas, never another organisation', async () => {
    const a = await createOrg(t, 'A');
    const b = await createOrg(t, 'B');
    await masterRows(t, a.orgId);
    await masterRows(t, b.orgId, 'B');
    await importAssets(a, [
      asset({ name: 'Pump, "big"', assetCode: 'P1' }),
      asset({ name: 'Motor 1', category: 'Motors A' }),
      asset({ name: 'Pump small', status: 'Not_Operational' }),
    ]);
    await importAssets(b, [asset({ name: 'Pump of B', category: 'Pumps B' })]);
    // A formula-like name can only arrive through the form (the import refuses it): the export neutralises it.
    await a.admin.post('/api/assets/add-asset', { name: '=1+2', date: '2024-01-01', assetCategoryId: 1 });
    const res = await a.admin.get('/api/data-transfer/export/assets?name=pump&status=Operational&columns=name,category,assetCode');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(String(res.body).startsWith('\uFEFF')).toBe(true);
    expect(parseCsv(String(res.body).slice(1))).toEqual([
      ['Name', 'Category', 'Asset Code'],
      ['Pump, "big"', 'Pumps A', 'P1'],
    ]);
    const all = parseCsv(String((await a.admin.get('/api/data-transfer/export/assets')).body).slice(1));
    expect(all).toHaveLength(5);
    expect(all.map((r) => r[1])).toContain("'=1+2");
    expect(JSON.stringify(all)).not.toContain('of B');
    expect((await a.admin.get('/api/data-transfer/export/assets?status=Broken')).status).toBe(400);
    expect((await a.admin.get('/api/data-transfer/export/things')).status).toBe(400);
  });

  it('exports work orders in batches, newest first, and a worker only the orders assigned to them', async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker');
    for (let i = 1; i <= 3; i++) {
      await org.admin.post('/api/work-orders/add-work-order', { title: `Order ${i}`, ...(i === 2 ? { assignees: [worker.userId] } : {}) });
    }
    const csv = parseCsv(String((await org.admin.get('/api/data-transfer/export/work-orders?columns=workOrderId,title,status')).body).slice(1));
    expect(csv).toEqual([
      ['WO-ID', 'Title', 'Status'],
      ['WO-0003', 'Order 3', 'assigned'],
      ['WO-0002', 'Order 2', 'assigned'],
      ['WO-0001', 'Order 1', 'assigned'],
    ]);
    const mine = parseCsv(String((await worker.get('/api/data-transfer/export/work-orders?columns=title')).body).slice(1));
    expect(mine).toEqual([['Title'], ['Order 2']]);
    const filtered = parseCsv(String((await org.admin.get('/api/data-transfer/export/work-orders?columns=title&title=order%201')).body).slice(1));
    expect(filtered).toEqual([['Title'], ['Order 1']]);
  });
});

describe('cells', () => {
  it('flags formulas but not numbers or phone numbers, and neutralises them on export', () => {
    for (const f of ['=1+1', '@SUM(A1)', '+cmd|calc', '-2+3*A1', '\tx']) expect(looksLikeFormula(f), f).toBe(true);
    for (const ok of ['-5', '12.5', '+966 55 123 4567', '(02) 555-0123', 'Pump', '']) expect(looksLikeFormula(ok), ok).toBe(false);
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('-5')).toBe('-5');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
  });
});
