/**
 * Procedures import (decision 059): one row per step, grouped by the procedure's name; the procedure-steps export
 * re-imports unchanged, into another organisation as the same procedures, an edited step updates its procedure
 * through `updateProcedure`, a name is looked up in the importing organisation only, bad rows answer row errors.
 */
import { describe, expect, it } from 'vitest';
import { createOrg, useTestApp, type TestOrg } from '../../server/test/harness';
import { asImport, exported, postImport as post, snapshotOf, type Client } from './test-kit';

const t = useTestApp();

const snapshot = (org: TestOrg) => snapshotOf(t, org);

/** The organisation's procedures as the library shows them, ids and times left out. */
async function library(client: Client) {
  const { procedures } = (await client.get('/api/procedures/list-procedures?pageSize=50')).body;
  const whole = [];
  for (const p of procedures as { id: number }[]) {
    const { procedure } = (await client.get(`/api/procedures/get-procedure/${p.id}`)).body;
    whole.push({ name: procedure.name, description: procedure.description, steps: procedure.steps.map(({ id: _id, ...s }: { id: number }) => s) });
  }
  return whole;
}

const PUMP = {
  name: 'Pump monthly',
  description: 'Feed pumps, monthly',
  steps: [
    { kind: 'heading', label: 'Before' },
    { kind: 'checkbox', label: 'Isolated', required: true },
    { kind: 'number', label: 'Pressure', unit: 'bar', min: 2, max: 6, followUpOnFailure: true, meterName: 'Pressure' },
    { kind: 'choice', label: 'Noise', options: ['none', 'some', 'loud'] },
  ],
};
const BOILER = {
  name: 'Boiler weekly',
  steps: [
    { kind: 'pass-fail', label: 'Flame', required: true },
    { kind: 'text', label: 'Notes' },
  ],
};

async function withLibrary(name: string) {
  const org = await createOrg(t, name);
  for (const p of [PUMP, BOILER]) expect((await org.admin.post('/api/procedures/add-procedure', p)).status).toBe(201);
  return org;
}

describe('procedures import', () => {
  it('the export re-imports unchanged, into another organisation as the same library, and an edited step updates its procedure', async () => {
    const a = await withLibrary('Proc A');
    const file = await exported(a.admin, 'procedure-steps');
    expect(file[0]).toEqual([
      'Procedure',
      'Description',
      'Step Type',
      'Label',
      'Required',
      'Unit',
      'Min',
      'Max',
      'Options',
      'Follow-up on Failure',
      'Meter Name',
    ]);
    expect(file.length - 1).toBe(6);

    // the untouched file: two procedures, both unchanged
    const same = await post(a.admin, 'procedures', asImport('procedures', file), { dryRun: true });
    expect(same.body, JSON.stringify(same.body.problems)).toMatchObject({ total: 6, new: 0, updated: 0, unchanged: 2, problems: [] });

    // into another organisation: the same library
    const b = await createOrg(t, 'Proc B');
    const dry = await post(b.admin, 'procedures', asImport('procedures', file), { dryRun: true });
    expect(dry.body).toMatchObject({ total: 6, valid: 6, imported: 0, new: 2, updated: 0, unchanged: 0, problems: [] });
    expect(await library(b.admin)).toEqual([]);
    const copied = await post(b.admin, 'procedures', asImport('procedures', file));
    expect(copied.body).toMatchObject({ imported: 2, new: 2, problems: [] });
    expect(await library(b.admin)).toEqual(await library(a.admin));
    expect(await exported(b.admin, 'procedure-steps')).toEqual(file);

    // one edited cell: a dry run counts it and writes nothing, the import updates that procedure (its version claimed)
    const max = file[0].indexOf('Max');
    const edited = file.map((cells) => (cells[3] === 'Pressure' ? cells.map((c, j) => (j === max ? '8' : c)) : cells));
    const before = await snapshot(a);
    const counted = await post(a.admin, 'procedures', asImport('procedures', edited), { dryRun: true });
    expect(counted.body).toMatchObject({ total: 6, imported: 0, new: 0, updated: 1, unchanged: 1, problems: [] });
    expect(await snapshot(a)).toBe(before);
    const real = await post(a.admin, 'procedures', asImport('procedures', edited));
    expect(real.body).toMatchObject({ imported: 1, new: 0, updated: 1, unchanged: 1, problems: [] });
    expect(await exported(a.admin, 'procedure-steps')).toEqual(edited);
    const pump = (await a.admin.get('/api/procedures/list-procedures?name=Pump')).body.procedures[0];
    expect(pump.version).toBe(2);
  });

  it("rows name steps by the step's own checks; another organisation's procedure is never touched; a shared name is refused", async () => {
    const a = await withLibrary('Proc Iso A');
    const b = await withLibrary('Proc Iso B');
    const beforeB = await snapshot(b);
    const beforeA = await snapshot(a);
    const res = await post(
      a.admin,
      'procedures',
      [
        { procedure: 'New one', kind: 'number', label: 'Level', min: '9', max: '3' },
        { procedure: 'New one', kind: 'dance', label: 'Bad kind' },
        { procedure: 'Other', kind: 'choice', label: 'Colour', options: 'red', required: 'perhaps' },
        { procedure: 'Fine', kind: 'checkbox', label: 'Done' },
      ],
      { dryRun: true, mode: 'valid' },
    );
    expect(res.status).toBe(200);
    expect(res.body.problems).toEqual([
      { row: 2, column: 'max', message: 'The minimum must not be above the maximum' },
      { row: 3, column: 'kind', message: 'Step type must be one of checkbox, pass-fail, number, text, choice, photo, signature, sign-off, heading' },
      { row: 4, column: 'required', message: 'Write yes or no' },
      { row: 4, column: 'options', message: 'A choice step needs at least two options' },
    ]);
    expect(res.body).toMatchObject({ total: 4, valid: 1, new: 1 });

    // B's procedure of the same name as A's: A's is updated, B's stays as it was
    const file = await exported(b.admin, 'procedure-steps');
    const renamed = file.map((cells, i) => (i && cells[3] === 'Notes' ? cells.map((c, j) => (j === 3 ? 'Remarks' : c)) : cells));
    expect((await post(a.admin, 'procedures', asImport('procedures', renamed))).body).toMatchObject({ updated: 1, unchanged: 1, problems: [] });
    expect(await snapshot(b)).toBe(beforeB);
    expect(await snapshot(a)).not.toBe(beforeA);

    // two procedures of one name: the file cannot say which
    expect((await a.admin.post('/api/procedures/add-procedure', BOILER)).status).toBe(201);
    const twice = await post(a.admin, 'procedures', [
      { procedure: 'boiler weekly', kind: 'checkbox', label: 'Done' },
      { procedure: 'Boiler Weekly', kind: 'text', label: 'Notes' },
    ]);
    expect(twice.body).toMatchObject({
      imported: 0,
      problems: [
        { row: 2, column: 'procedure', message: 'Several procedures have this name: rename one before importing' },
        { row: 3, column: 'procedure', message: 'Several procedures have this name: rename one before importing' },
      ],
    });
  });

  it('is for managers: a worker gets 403 and the export is refused', async () => {
    const org = await withLibrary('Proc Worker');
    const worker = await org.as('worker');
    const before = await snapshot(org);
    expect((await post(worker, 'procedures', [{ procedure: 'X', kind: 'checkbox', label: 'Y' }])).status).toBe(403);
    expect((await worker.get('/api/data-transfer/export/procedure-steps')).status).toBe(403);
    expect(await snapshot(org)).toBe(before);
  });
});
