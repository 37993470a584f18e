/**
 * Issue 42: the location tree and the asset tree in and out of files. Locations import one row per location
 * (a parent by code, path or name, of the organisation or a row above), the locations export re-imports unchanged
 * and into another organisation as the same tree; assets take a Location and a Parent (an asset the organisation
 * has or a row of the same file). Names are looked up in the importing organisation only.
 */
import { describe, expect, it } from 'vitest';
import { createOrg, useTestApp, type TestOrg } from '../../server/test/harness';
import { asImportKnown, exported, postImport as post, snapshotOf, type Client } from './test-kit';

const t = useTestApp();

const snapshot = (org: TestOrg) => snapshotOf(t, org);

/** The organisation's locations as paths with their codes, in tree order. */
async function tree(client: Client) {
  const { locations } = (await client.get('/api/locations/get-locations?pageSize=100')).body;
  return (locations as { path: string; code: string | null }[]).map((l) => `${l.path}${l.code ? ` [${l.code}]` : ''}`);
}

const PLANT: Record<string, string>[] = [
  { name: 'Plant', code: 'PL' },
  { name: 'Hall A', parent: 'Plant' },
  { name: 'Line 1', parent: 'Plant / Hall A' },
  { name: 'Hall B', code: 'HB', parent: 'PL' },
  { name: 'Line 1', parent: 'HB' },
];

describe('locations import and export', () => {
  it('builds a tree from rows naming parents by name, path or code; the export re-imports unchanged and into another organisation as the same tree', async () => {
    const a = await createOrg(t, 'Loc A');
    const dry = await post(a.admin, 'locations', PLANT, { dryRun: true });
    expect(dry.body, JSON.stringify(dry.body)).toMatchObject({ total: 5, valid: 5, imported: 0, new: 5, problems: [] });
    expect(await tree(a.admin)).toEqual([]);
    const res = await post(a.admin, 'locations', PLANT);
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ imported: 5, new: 5, problems: [] });
    expect(await tree(a.admin)).toEqual(['Plant [PL]', 'Plant / Hall A', 'Plant / Hall A / Line 1', 'Plant / Hall B [HB]', 'Plant / Hall B / Line 1']);

    const file = await exported(a.admin, 'locations');
    expect(file[0]).toEqual(['Name', 'Code', 'Parent', 'Path']);
    expect(file[3]).toEqual(['Line 1', '', 'Plant / Hall A', 'Plant / Hall A / Line 1']);
    const before = await snapshot(a);
    const same = await post(a.admin, 'locations', asImportKnown('locations', file));
    expect(same.body, JSON.stringify(same.body)).toMatchObject({ total: 5, new: 0, updated: 0, unchanged: 5, problems: [] });
    expect(await snapshot(a)).toBe(before);

    const b = await createOrg(t, 'Loc B');
    const copied = await post(b.admin, 'locations', asImportKnown('locations', file));
    expect(copied.body).toMatchObject({ imported: 5, new: 5, problems: [] });
    expect(await tree(b.admin)).toEqual(await tree(a.admin));

    // an edited cell moves a location with what is under it: Hall B under Hall A, matched by its code
    const moved = file.map((cells) => (cells[1] === 'HB' ? [cells[0], cells[1], 'Plant / Hall A', cells[3]] : cells));
    const upd = await post(a.admin, 'locations', asImportKnown('locations', moved));
    expect(upd.body, JSON.stringify(upd.body)).toMatchObject({ updated: 1, unchanged: 4, problems: [] });
    expect(await tree(a.admin)).toContain('Plant / Hall A / Hall B / Line 1');
  });

  it("refuses an unknown or ambiguous parent by row and column, and never finds another organisation's location", async () => {
    const a = await createOrg(t, 'Loc Iso A');
    expect((await post(a.admin, 'locations', PLANT)).body.problems).toEqual([]);
    const b = await createOrg(t, 'Loc Iso B');
    const beforeA = await snapshot(a);
    const res = await post(
      b.admin,
      'locations',
      [
        { name: 'Store', parent: 'PL' },
        { name: 'Site', code: 'S' },
        { name: 'Room', parent: 'Nowhere' },
        { name: 'Bay', parent: 'S' },
      ],
      { mode: 'valid' },
    );
    expect(res.body.problems).toEqual([
      { row: 2, column: 'parent', message: 'Location not found: give its code, its path (Plant / Hall A) or its name' },
      { row: 4, column: 'parent', message: 'Location not found: give its code, its path (Plant / Hall A) or its name' },
    ]);
    expect(await tree(b.admin)).toEqual(['Site [S]', 'Site / Bay']);
    expect(await snapshot(a)).toBe(beforeA);

    const amb = await post(a.admin, 'locations', [{ name: 'Cell', parent: 'Line 1' }], { dryRun: true });
    expect(amb.body.problems).toEqual([{ row: 2, column: 'parent', message: 'Several locations have this name: give its code or its path (Plant / Hall A)' }]);
  });
});

describe('assets in their place (import)', () => {
  it('takes a Location by path and a Parent from the same file; the export carries both and re-imports unchanged', async () => {
    const org = await createOrg(t, 'Loc Assets');
    expect((await post(org.admin, 'locations', PLANT)).body.problems).toEqual([]);
    const rows: Record<string, string>[] = [
      { name: 'Motor M-1', assetCode: 'MOT-1', category: 'Motors', date: '2024-01-01', parent: 'PRS-1', location: 'Plant / Hall A / Line 1' },
      { name: 'Press P-1', assetCode: 'PRS-1', category: 'Motors', date: '2024-01-01', location: 'Plant / Hall A / Line 1' },
      { name: 'Fan F-1', assetCode: 'FAN-1', category: 'Motors', date: '2024-01-01', parent: 'Motor M-1', location: 'HB' },
    ];
    const res = await post(org.admin, 'assets', rows, { createMissing: true });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ imported: 3, problems: [] });
    const { assets } = (await org.admin.get('/api/assets/get-assets?pageSize=10')).body;
    const byCode = new Map(
      (assets as { assetCode: string; id: number; parentId: number | null; Location: { name: string } | null }[]).map((x) => [x.assetCode, x]),
    );
    expect(byCode.get('MOT-1')!.parentId).toBe(byCode.get('PRS-1')!.id);
    expect(byCode.get('FAN-1')!.parentId).toBe(byCode.get('MOT-1')!.id);
    expect(byCode.get('PRS-1')!.parentId).toBeNull();
    expect(byCode.get('MOT-1')!.Location?.name).toBe('Line 1');
    expect(byCode.get('FAN-1')!.Location?.name).toBe('Hall B');

    const file = await exported(org.admin, 'assets');
    expect(file[0].slice(-2)).toEqual(['Location', 'Parent']);
    // the location as its path ("Line 1" names two), the parent as its Asset ID
    expect(file.find((cells) => cells.includes('MOT-1'))!.slice(-2)).toEqual(['Plant / Hall A / Line 1', expect.stringMatching(/^AS-\d{4}$/)]);
    const before = await snapshot(org);
    const same = await post(org.admin, 'assets', asImportKnown('assets', file), { dryRun: true });
    expect(same.body, JSON.stringify(same.body)).toMatchObject({ new: 0, updated: 0, unchanged: 3, problems: [] });
    expect(await snapshot(org)).toBe(before);

    // a cycle through the file is refused like the move route refuses it
    const loop = await post(
      org.admin,
      'assets',
      [
        { name: 'Loop A', assetCode: 'LA', category: 'Motors', date: '2024-01-01', parent: 'LB' },
        { name: 'Loop B', assetCode: 'LB', category: 'Motors', date: '2024-01-01', parent: 'LA' },
      ],
      { dryRun: true },
    );
    expect(loop.body.problems).toEqual([{ row: 3, column: 'parent', message: 'An asset cannot be moved under itself or one of its children' }]);
  });
});
