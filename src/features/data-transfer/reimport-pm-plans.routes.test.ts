/**
 * PM plans import (decision 059): one row per plan, the shape of the pm-plans export; the records a plan names are
 * looked up in the importing organisation only; an export re-imports unchanged, into another organisation as the
 * same plans, an edited cell updates its plan through `updatePlan`; bad rows answer row errors.
 */
import { describe, expect, it } from 'vitest';
import { createOrg, useTestApp, type TestOrg } from '../../server/test/harness';
import { masterRows } from '../assets/test-fixtures';
import { type ImportKind } from './data-transfer.schema';
import { asImport, exported, postImport as post, seedImport, snapshotOf, type Client } from './test-kit';

const t = useTestApp();

const snapshot = (org: TestOrg) => snapshotOf(t, org);
const seed = (client: Client, kind: ImportKind, rows: Record<string, string>[]) => seedImport(client, kind, rows, false);

/** The columns the list computes (the same in both organisations only by chance): left out of comparisons. */
const stable = (file: string[][]) => {
  const drop = ['ID', 'Next Due', 'Last Completed', 'Compliance'].map((h) => file[0].indexOf(h));
  return file.map((cells) => cells.filter((_, j) => !drop.includes(j)));
};

/** An organisation with assets (two called Twin), a station, parts, a procedure, a meter and a technician. */
async function orgWithCatalogue(name: string) {
  const org = await createOrg(t, name);
  await masterRows(t, org.orgId, 'A');
  await seed(org.admin, 'assets', [
    { name: 'Pump P-1', assetCode: 'P-1', category: 'Pumps A', date: '2024-05-01' },
    { name: 'Twin', assetCode: 'T-1', category: 'Pumps A', date: '2024-05-01' },
    { name: 'Twin', category: 'Pumps A', date: '2024-05-01' },
  ]);
  await seed(org.admin, 'work-stations', [{ code: 'WS-1', name: 'Machining bay', city: 'Riyadh', team: 'Mechanics A' }]);
  await seed(org.admin, 'parts', [
    { name: 'Bearing 6204', skuCode: 'BRG-1', type: 'stockable', category: 'Spares A', salesPrice: '12.5', unitOfMeasure: 'Each A', quantityOnHand: '40' },
    { name: 'Grease', type: 'consumable', category: 'Spares A', salesPrice: '3', unitOfMeasure: 'Each A' },
  ]);
  await seed(org.admin, 'procedures', [{ procedure: 'Pump check', kind: 'checkbox', label: 'Isolated' }]);
  expect((await org.admin.post('/api/meters/add-meter', { assetId: 1, name: 'Hours', kind: 'counter', unit: 'h' })).status).toBe(201);
  await org.as('worker', { firstName: 'Omar', lastName: 'Saleh' });
  const techEmail = `worker1@${org.subdomain}.example.com`;
  return { org, techEmail };
}

const PLANS = (techEmail: string): Record<string, string>[] => [
  {
    name: 'Pump monthly',
    title: 'Monthly pump service',
    assets: 'P-1; T-1',
    trigger: 'calendar monthly 1',
    monthDay: '5',
    startDate: '2026-01-01',
    priority: 'High',
    duration: '01:30',
    team: 'Mechanics A',
    procedure: 'pump check',
    assignees: techEmail,
    parts: '2 x BRG-1; Grease',
    leadDays: '3',
    instructions: 'Isolate first',
  },
  {
    name: 'Bay weekly',
    title: 'Clean the bay',
    workStation: 'Machining bay',
    trigger: 'calendar weekly 2',
    weekdays: 'mo; th',
    startDate: '2026-01-05',
    state: 'paused',
  },
  {
    name: 'Pump hours',
    title: 'Hours service',
    assets: 'Pump P-1',
    trigger: 'meter',
    meter: 'Hours',
    meterEvery: '500',
    meterLeadUnits: '50',
    startDate: '2026-01-01',
  },
];

describe('PM plans import', () => {
  it('new plans from names; the export re-imports unchanged, into another organisation as the same plans; an edited cell updates its plan', async () => {
    const a = await orgWithCatalogue('PM Re A');
    await seed(a.org.admin, 'pm-plans', PLANS(a.techEmail));
    const plans = (await a.org.admin.get('/api/pm-plans/get-plans')).body.plans;
    expect(
      plans
        .map(
          (p: { name: string; paused: boolean; assetIds: number[]; workStationId: number | null }) => `${p.name} ${p.paused} ${p.assetIds} ${p.workStationId}`,
        )
        .sort(),
    ).toEqual(['Bay weekly true  1', 'Pump hours false 1 null', 'Pump monthly false 1,2 null']);
    const file = await exported(a.org.admin, 'pm-plans');
    expect(file.length - 1).toBe(3);

    const same = await post(a.org.admin, 'pm-plans', asImport('pm-plans', file), { dryRun: true });
    expect(same.body, JSON.stringify(same.body.problems)).toMatchObject({ total: 3, new: 0, updated: 0, unchanged: 3, problems: [] });

    // another organisation with the same catalogue: the same plans (its people are its own: assignees left out)
    const b = await orgWithCatalogue('PM Re B');
    const people = file[0].indexOf('Assigned To');
    const noPeople = file.map((cells, i) => (i ? cells.map((c, j) => (j === people ? '' : c)) : cells));
    const before = await snapshot(b.org);
    const withPeople = await post(b.org.admin, 'pm-plans', asImport('pm-plans', file), { dryRun: true });
    expect(withPeople.body.problems).toEqual([{ row: 4, column: 'assignees', message: `No member of this organisation is ${a.techEmail}: give their e-mail` }]);
    const dry = await post(b.org.admin, 'pm-plans', asImport('pm-plans', noPeople), { dryRun: true });
    expect(dry.body, JSON.stringify(dry.body.problems)).toMatchObject({ total: 3, valid: 3, imported: 0, new: 3, updated: 0, unchanged: 0, problems: [] });
    expect(await snapshot(b.org)).toBe(before);
    const copied = await post(b.org.admin, 'pm-plans', asImport('pm-plans', noPeople));
    expect(copied.body, JSON.stringify(copied.body.problems)).toMatchObject({ imported: 3, new: 3, problems: [] });
    expect(stable(await exported(b.org.admin, 'pm-plans')).sort()).toEqual(stable(noPeople).sort());

    // one edited cell: counted by a dry run, written by the import through the plan's update
    const lead = file[0].indexOf('Lead Days');
    const edited = file.map((cells, i) => (i && cells[1] === 'Pump monthly' ? cells.map((c, j) => (j === lead ? '7' : c)) : cells));
    const beforeA = await snapshot(a.org);
    const counted = await post(a.org.admin, 'pm-plans', asImport('pm-plans', edited), { dryRun: true });
    expect(counted.body).toMatchObject({ total: 3, imported: 0, new: 0, updated: 1, unchanged: 2, problems: [] });
    expect(await snapshot(a.org)).toBe(beforeA);
    const real = await post(a.org.admin, 'pm-plans', asImport('pm-plans', edited));
    expect(real.body).toMatchObject({ imported: 1, updated: 1, unchanged: 2, problems: [] });
    expect(stable(await exported(a.org.admin, 'pm-plans')).sort()).toEqual(stable(edited).sort());
  });

  it("another organisation's records are unknown here: row errors naming the column; nothing changes", async () => {
    const a = await orgWithCatalogue('PM Iso A');
    const b = await orgWithCatalogue('PM Iso B');
    await seed(b.org.admin, 'procedures', [{ procedure: 'B only', kind: 'checkbox', label: 'X' }]);
    await seed(b.org.admin, 'assets', [{ name: 'B only asset', category: 'Pumps A', date: '2024-05-01' }]);
    const beforeA = await snapshot(a.org);
    const beforeB = await snapshot(b.org);
    const res = await post(
      a.org.admin,
      'pm-plans',
      [
        { name: 'One', title: 'T', assets: 'B only asset', procedure: 'B only', assignees: b.techEmail, startDate: '2026-01-01' },
        { name: 'Two', title: 'T', assets: 'Twin', parts: '2 x NOPE', team: 'Nobody', startDate: '2026-01-01' },
        { name: 'Three', title: 'T', workStation: 'WS-9', trigger: 'calendar fortnightly 1', state: 'sleeping', startDate: '2026-01-01' },
        { name: 'Four', title: 'T', assets: 'P-1', trigger: 'meter', meter: 'Nope', meterEvery: '10', startDate: 'soon' },
        { name: 'one', title: 'T', assets: 'P-1', startDate: '2026-01-01' },
      ],
      { dryRun: true, mode: 'valid' },
    );
    expect(res.status).toBe(200);
    expect(res.body.problems).toEqual([
      { row: 2, column: 'assets', message: 'Asset not found: give its name, its code or its Asset ID (AS-0001)' },
      { row: 2, column: 'procedure', message: 'Procedure not found' },
      { row: 2, column: 'assignees', message: `No member of this organisation is ${b.techEmail}: give their e-mail` },
      { row: 3, column: 'assets', message: 'Several assets have this name: give its code or its Asset ID (AS-0001)' },
      { row: 3, column: 'team', message: 'Team not found' },
      { row: 3, column: 'parts', message: 'Part not found: give its SKU or its name' },
      { row: 4, column: 'workStation', message: 'Work station not found' },
      { row: 4, column: 'state', message: 'State must be active or paused' },
      { row: 4, column: 'trigger', message: 'Frequency must be daily, weekly, monthly or yearly' },
      { row: 5, column: 'meter', message: 'Meter not found' },
      { row: 5, column: 'startDate', message: 'Start date must be a valid date' },
      { row: 6, column: 'name', message: 'Duplicate of row 2' },
    ]);
    expect(res.body).toMatchObject({ total: 5, valid: 0, new: 0 });
    expect(await snapshot(a.org)).toBe(beforeA);
    expect(await snapshot(b.org)).toBe(beforeB);
  });

  it('is for managers: a worker gets 403 on the import and the export', async () => {
    const { org } = await orgWithCatalogue('PM Worker');
    const worker = await org.as('worker');
    const before = await snapshot(org);
    expect((await post(worker, 'pm-plans', [{ name: 'X', title: 'Y', assets: 'P-1', startDate: '2026-01-01' }])).status).toBe(403);
    expect((await worker.get('/api/data-transfer/export/pm-plans')).status).toBe(403);
    expect(await snapshot(org)).toBe(before);
  });
});
