/**
 * Issue 42: failure codes in and out of files. One row a code, problem > cause > remedy, a parent by its codes
 * (LEAK, LEAK > SEAL), the problem's asset category; written through the failure-codes service. The export
 * re-imports unchanged and into another organisation; names are looked up in the importing organisation only.
 */
import { describe, expect, it } from 'vitest';
import { createOrg, useTestApp, type TestOrg } from '../../server/test/harness';
import { asImportKnown, exported, postImport as post, snapshotOf, type Client } from './test-kit';

const t = useTestApp();

const snapshot = (org: TestOrg) => snapshotOf(t, org);

const CODES = [
  { kind: 'problem', code: 'LEAK', name: 'Leak', assetCategory: 'Pumps' },
  { kind: 'cause', code: 'SEAL', name: 'Worn seal', parent: 'LEAK', assetCategory: 'Pumps' },
  { kind: 'remedy', code: 'REPL', name: 'Replace the part', parent: 'LEAK > SEAL', assetCategory: 'Pumps' },
  { kind: 'problem', code: 'LEAK', name: 'Oil leak', assetCategory: 'Motors' },
  { kind: 'cause', code: 'GASK', name: 'Gasket', parent: 'LEAK', assetCategory: 'MOT' },
  { kind: 'remedy', code: 'REPL', name: 'Replace the part', parent: 'GASK', assetCategory: 'Motors' },
  { kind: 'problem', code: 'NOISE', name: 'Noise' },
];

async function withCategories(org: TestOrg) {
  const res = await org.admin.post('/api/data-transfer/import/asset-categories', {
    rows: [
      { code: 'PMP', name: 'Pumps' },
      { code: 'MOT', name: 'Motors' },
    ],
  });
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ imported: 2, problems: [] });
}

/** The organisation's codes as "kind code name < parent code [category]", sorted. */
async function codes(client: Client) {
  const list = (await client.get('/api/failure-codes/get-failure-codes')).body.failureCodes as {
    id: number;
    kind: string;
    code: string;
    name: string;
    parentId: number | null;
    assetCategory: string | null;
  }[];
  const byId = new Map(list.map((c) => [c.id, c]));
  return list.map((c) => `${c.kind} ${c.code} ${c.name} < ${c.parentId ? byId.get(c.parentId)!.code : '-'} [${c.assetCategory ?? ''}]`).sort();
}

describe('failure codes import and export', () => {
  it('builds problem > cause > remedy from parents by code; the export re-imports unchanged and into another organisation', async () => {
    const a = await createOrg(t, 'Codes A');
    await withCategories(a);
    const dry = await post(a.admin, 'failure-codes', CODES, { dryRun: true });
    expect(dry.body, JSON.stringify(dry.body)).toMatchObject({ total: 7, valid: 7, imported: 0, new: 7, problems: [] });
    expect(await codes(a.admin)).toEqual([]);
    const res = await post(a.admin, 'failure-codes', CODES);
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ imported: 7, new: 7, problems: [] });
    expect(await codes(a.admin)).toEqual([
      'cause GASK Gasket < LEAK []',
      'cause SEAL Worn seal < LEAK []',
      'problem LEAK Leak < - [Pumps]',
      'problem LEAK Oil leak < - [Motors]',
      'problem NOISE Noise < - []',
      'remedy REPL Replace the part < GASK []',
      'remedy REPL Replace the part < SEAL []',
    ]);

    const file = await exported(a.admin, 'failure-codes');
    expect(file[0]).toEqual(['Kind', 'Code', 'Name', 'Parent', 'Asset Category']);
    expect(file).toContainEqual(['remedy', 'REPL', 'Replace the part', 'LEAK > SEAL', 'Pumps']);
    const before = await snapshot(a);
    const same = await post(a.admin, 'failure-codes', asImportKnown('failure-codes', file));
    expect(same.body, JSON.stringify(same.body)).toMatchObject({ total: 7, new: 0, updated: 0, unchanged: 7, problems: [] });
    expect(await snapshot(a)).toBe(before);

    const b = await createOrg(t, 'Codes B');
    await withCategories(b);
    const copied = await post(b.admin, 'failure-codes', asImportKnown('failure-codes', file));
    expect(copied.body, JSON.stringify(copied.body)).toMatchObject({ imported: 7, new: 7, problems: [] });
    expect(await codes(b.admin)).toEqual(await codes(a.admin));

    // an edited name updates the code it names (by place and code)
    const renamed = file.map((cells) => (cells[1] === 'SEAL' ? [cells[0], cells[1], 'Worn mechanical seal', cells[3], cells[4]] : cells));
    const upd = await post(a.admin, 'failure-codes', asImportKnown('failure-codes', renamed));
    expect(upd.body, JSON.stringify(upd.body)).toMatchObject({ updated: 1, unchanged: 6, problems: [] });
    expect(await codes(a.admin)).toContain('cause SEAL Worn mechanical seal < LEAK []');
  });

  it("names unknown parents and categories by row and column, never finds another organisation's, and is refused to workers", async () => {
    const a = await createOrg(t, 'Codes Iso A');
    await withCategories(a);
    expect((await post(a.admin, 'failure-codes', CODES)).body.problems).toEqual([]);
    const b = await createOrg(t, 'Codes Iso B');
    const beforeA = await snapshot(a);
    const res = await post(
      b.admin,
      'failure-codes',
      [
        { kind: 'cause', code: 'SEAL', name: 'Worn seal', parent: 'LEAK' },
        { kind: 'problem', code: 'LEAK', name: 'Leak', assetCategory: 'Pumps' },
        { kind: 'remedy', code: 'X', name: 'X' },
        { kind: 'fix', code: 'Y', name: 'Y' },
      ],
      { mode: 'valid' },
    );
    expect(res.body.problems).toEqual([
      {
        row: 2,
        column: 'parent',
        message: 'Parent not found: give the code of the problem (LEAK) or, for a remedy, of the problem and the cause (LEAK > SEAL), with the asset category',
      },
      { row: 3, column: 'assetCategory', message: 'Asset category does not exist in this organization' },
      { row: 4, column: 'parent', message: 'A cause belongs to a problem and a remedy to a cause' },
      { row: 5, column: 'kind', message: 'Kind must be one of problem, cause, remedy' },
    ]);
    expect(await codes(b.admin)).toEqual([]);
    expect(await snapshot(a)).toBe(beforeA);

    // LEAK names two problems when no category says which
    const amb = await post(a.admin, 'failure-codes', [{ kind: 'cause', code: 'AIR', name: 'Air', parent: 'LEAK' }], { dryRun: true });
    expect(amb.body.problems).toEqual([
      { row: 2, column: 'parent', message: 'Several codes match this parent: give the problem and the cause (LEAK > SEAL) and the asset category' },
    ]);

    const worker = await a.as('worker');
    expect((await post(worker, 'failure-codes', CODES, { dryRun: true })).status).toBe(403);
    expect((await worker.get('/api/data-transfer/export/failure-codes')).status).toBe(403);
  });
});
