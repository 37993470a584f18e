import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { withTenant } from '../../server/db/client';
import { meterReadings, meters, workOrders } from '../../server/db/schema';
import { createOrg, useTestApp, type TestOrg } from '../../server/test/harness';
import { twoAssets } from './test-fixtures';
import { badRequestIssues, issuesOf } from '../../server/test/issues-of';

const t = useTestApp();

const B = '/api/meters';

async function setup() {
  const org = await createOrg(t);
  const { pump, press } = await twoAssets(t, org.orgId);
  return { org, pump, press };
}

const rowsOf = (org: TestOrg) =>
  withTenant(t.database.db, org.orgId, async (tx) =>
    JSON.stringify([await tx.select().from(meters).orderBy(meters.id), await tx.select().from(meterReadings).orderBy(meterReadings.id)]),
  );

describe('meters API', () => {
  it('a manager adds, renames and deletes a meter (with its readings); everyone enters readings and reads them', async () => {
    const { org, pump } = await setup();
    const manager = await org.as('manager', { firstName: 'Mona', lastName: 'Manager' });
    const worker = await org.as('worker', { firstName: 'Walid', lastName: 'Worker' });
    const add = await manager.post(`${B}/add-meter`, {
      assetId: pump.id,
      name: 'Running hours',
      kind: 'counter',
      unit: 'h',
      description: 'Hour meter on the panel',
    });
    expect(add.status).toBe(201);
    expect(add.body).toMatchObject({
      message: 'Meter added successfully',
      meter: { assetId: pump.id, name: 'Running hours', kind: 'counter', unit: 'h', latestReading: null, version: 1 },
    });
    expect(add.body.meters).toHaveLength(1);
    const id = add.body.meter.id;

    const r = await worker.post(`${B}/add-meter-reading`, { meterId: id, value: '1200.5', readAt: '2026-01-10T08:00:00Z' });
    expect(r.status).toBe(201);
    expect(r.body.reading).toMatchObject({
      value: 1200.5,
      total: 1200.5,
      source: 'manual',
      recordedById: worker.userId,
      recordedBy: 'Walid Worker',
      readAt: '2026-01-10T08:00:00.000Z',
    });
    expect(r.body.meters[0].latestReading.value).toBe(1200.5);
    const now = await manager.post(`${B}/add-meter-reading`, { meterId: id, value: 1300 });
    expect(now.status).toBe(201);
    expect(Math.abs(Date.parse(now.body.reading.readAt) - Date.now())).toBeLessThan(60_000);

    const list = await worker.get(`${B}/list-meters?assetId=${pump.id}`);
    expect(list.status).toBe(200);
    expect(list.body.meters.map((m: { name: string; latestReading: { value: number } }) => [m.name, m.latestReading.value])).toEqual([['Running hours', 1300]]);
    const readings = await worker.get(`${B}/list-meter-readings/${id}`);
    expect(readings.status).toBe(200);
    expect(readings.body.readings.map((x: { value: number }) => x.value)).toEqual([1200.5, 1300]);
    expect(readings.body).toMatchObject({ meter: { id, name: 'Running hours' }, limited: false });

    const upd = await manager.put(`${B}/update-meter/${id}`, { name: 'Hours run', kind: 'counter', unit: 'hours', version: 1 });
    expect(upd.status).toBe(200);
    expect(upd.body.meter).toMatchObject({ name: 'Hours run', unit: 'hours', description: null, version: 2 });
    const stale = await manager.put(`${B}/update-meter/${id}`, { name: 'Old', kind: 'counter', unit: 'h', version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.current).toMatchObject({ name: 'Hours run' });
    const kind = await manager.put(`${B}/update-meter/${id}`, { name: 'Hours run', kind: 'gauge', unit: 'h' });
    expect(badRequestIssues(kind)).toEqual({ kind: 'The kind of a meter with readings cannot change' });

    const del = await manager.del(`${B}/delete-meter/${id}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ message: 'Meter deleted successfully', meters: [] });
    expect(await withTenant(t.database.db, org.orgId, (tx) => tx.select().from(meterReadings))).toEqual([]);
  });

  it('workers cannot add, change or delete meters (403, nothing changes)', async () => {
    const { org, pump } = await setup();
    const { body } = await org.admin.post(`${B}/add-meter`, { assetId: pump.id, name: 'Cycles', kind: 'counter', unit: 'cycles' });
    const worker = await org.as('worker');
    const before = await rowsOf(org);
    expect((await worker.post(`${B}/add-meter`, { assetId: pump.id, name: 'Other', kind: 'gauge', unit: 'bar' })).status).toBe(403);
    expect((await worker.put(`${B}/update-meter/${body.meter.id}`, { name: 'Renamed', kind: 'counter', unit: 'x' })).status).toBe(403);
    expect((await worker.del(`${B}/delete-meter/${body.meter.id}`)).status).toBe(403);
    expect(await rowsOf(org)).toBe(before);
    expect((await org.anonymous.get(`${B}/list-meters?assetId=${pump.id}`)).status).toBe(401);
  });

  it('another organisation gets 404 on every route and changes nothing', async () => {
    const org = await createOrg(t);
    // This organisation's ids start at 501, above anything the other one has: the same number names none of its rows.
    await t.database.db.execute(sql`
      insert into org_counters (org_id, table_name, last_id)
      select ${org.orgId}, name, 500 from unnest(array['assets', 'asset_categories', 'meters', 'meter_readings']) as name
      on conflict (org_id, table_name) do update set last_id = 500`);
    const { pump } = await twoAssets(t, org.orgId);
    const { body } = await org.admin.post(`${B}/add-meter`, { assetId: pump.id, name: 'Temperature', kind: 'gauge', unit: '°C' });
    const id = body.meter.id;
    expect(id).toBeGreaterThan(500);
    await org.admin.post(`${B}/add-meter-reading`, { meterId: id, value: 40, readAt: '2026-01-01T00:00:00Z' });
    const before = await rowsOf(org);
    const other = await createOrg(t);
    // The other organisation has assets and a meter of its own (ids 1, 2…).
    const mine = await twoAssets(t, other.orgId);
    await other.admin.post(`${B}/add-meter`, { assetId: mine.pump.id, name: 'Temperature', kind: 'gauge', unit: 'bar' });
    const otherBefore = await rowsOf(other);
    const calls = [
      other.admin.get(`${B}/list-meters?assetId=${pump.id}`),
      other.admin.get(`${B}/list-meter-readings/${id}`),
      other.admin.put(`${B}/update-meter/${id}`, { name: 'Stolen', kind: 'gauge', unit: 'x' }),
      other.admin.del(`${B}/delete-meter/${id}`),
      other.admin.post(`${B}/add-meter-reading`, { meterId: id, value: 1 }),
      other.admin.post(`${B}/add-meter`, { assetId: pump.id, name: 'Sneaky', kind: 'gauge', unit: 'x' }),
      other.admin.post(`${B}/import-meter-readings`, { assetId: pump.id, csv: 'meter,value,read at\nTemperature,1,2026-01-02' }),
    ];
    for (const res of await Promise.all(calls)) expect(res.status, JSON.stringify(res.body)).toBe(404);
    // A file naming the first organisation's asset and meter by number finds nothing either.
    const byNumber = await other.admin.post(`${B}/import-meter-readings`, { csv: `asset,meter,value,read at\n${pump.id},${id},1,2026-01-02` });
    expect(byNumber.status).toBe(400);
    expect(await rowsOf(org)).toBe(before);
    expect(await rowsOf(other)).toBe(otherBefore);
  });

  it('refuses bad input with field messages', async () => {
    const { org, pump } = await setup();
    const empty = await org.admin.post(`${B}/add-meter`, {});
    expect(badRequestIssues(empty)).toMatchObject({
      assetId: 'Asset is required',
      name: 'Name is required',
      kind: 'Kind must be counter or gauge',
      unit: 'Unit is required',
    });
    const long = await org.admin.post(`${B}/add-meter`, { assetId: pump.id, name: 'x'.repeat(101), kind: 'dial', unit: 'x'.repeat(21) });
    expect(issuesOf(long.body)).toMatchObject({
      name: 'Name must be at most 100 characters',
      kind: 'Kind must be counter or gauge',
      unit: 'Unit must be at most 20 characters',
    });
    expect((await org.admin.post(`${B}/add-meter`, { assetId: 999, name: 'A', kind: 'gauge', unit: 'x' })).status).toBe(404);
    const first = await org.admin.post(`${B}/add-meter`, { assetId: pump.id, name: 'Pressure', kind: 'Gauge', unit: 'bar' });
    expect(first.body.meter.kind).toBe('gauge');
    const twice = await org.admin.post(`${B}/add-meter`, { assetId: pump.id, name: ' pressure ', kind: 'gauge', unit: 'bar' });
    expect(twice.status).toBe(409);
    expect(issuesOf(twice.body)).toEqual({ name: 'This asset already has a meter with this name' });

    const id = first.body.meter.id;
    const bad = await org.admin.post(`${B}/add-meter-reading`, { meterId: id, value: 'twelve', readAt: 'yesterday', source: 'csv' });
    expect(badRequestIssues(bad)).toEqual({
      value: 'Value must be a number',
      readAt: 'Read at must be a valid date',
      source: 'Source must be manual or work-order',
    });
    const missing = await org.admin.post(`${B}/add-meter-reading`, { meterId: id });
    expect(issuesOf(missing.body)).toEqual({ value: 'Value is required' });
    const huge = await org.admin.post(`${B}/add-meter-reading`, { meterId: id, value: 1e12 });
    expect(issuesOf(huge.body)).toEqual({ value: 'Value must be between -99999999999 and 99999999999' });
    const future = await org.admin.post(`${B}/add-meter-reading`, { meterId: id, value: 1, readAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect(issuesOf(future.body)).toEqual({ readAt: 'Read at cannot be in the future' });
    const year = await org.admin.post(`${B}/add-meter-reading`, { meterId: id, value: 1, readAt: '1800-01-01T00:00:00Z' });
    expect(issuesOf(year.body)).toEqual({ readAt: 'Read at must be a date between 1900 and 9999' });
    const range = await org.admin.get(`${B}/list-meter-readings/${id}?from=2026-02-01&to=2026-01-01`);
    expect(issuesOf(range.body)).toEqual({ to: 'From must be before To' });
    expect(await withTenant(t.database.db, org.orgId, (tx) => tx.select().from(meterReadings))).toEqual([]);
  });

  it('a reading from a work order names a work order of the organisation', async () => {
    const { org, pump } = await setup();
    const { body } = await org.admin.post(`${B}/add-meter`, { assetId: pump.id, name: 'Odometer', kind: 'counter', unit: 'km' });
    const [wo] = await withTenant(t.database.db, org.orgId, (tx) =>
      tx.insert(workOrders).values({ orgId: org.orgId, title: 'Service', assetId: pump.id }).returning(),
    );
    const ok = await org.admin.post(`${B}/add-meter-reading`, { meterId: body.meter.id, value: 10, source: 'work-order', workOrderId: wo.id });
    expect(ok.body.reading).toMatchObject({ source: 'work-order', workOrderId: wo.id });
    const none = await org.admin.post(`${B}/add-meter-reading`, { meterId: body.meter.id, value: 11, source: 'work-order' });
    expect(issuesOf(none.body)).toEqual({ workOrderId: 'A reading from a work order names the work order' });
  });
});

describe('CSV import', () => {
  async function withMeters() {
    const s = await setup();
    const hours = (await s.org.admin.post(`${B}/add-meter`, { assetId: s.pump.id, name: 'Running hours', kind: 'counter', unit: 'h' })).body.meter;
    const temp = (await s.org.admin.post(`${B}/add-meter`, { assetId: s.pump.id, name: 'Temperature', kind: 'gauge', unit: '°C' })).body.meter;
    const cycles = (await s.org.admin.post(`${B}/add-meter`, { assetId: s.press.id, name: 'Cycles', kind: 'counter', unit: 'cycles' })).body.meter;
    return { ...s, hours, temp, cycles };
  }

  it('imports every row from the asset (by meter name or id, rows in any order, local times in the given zone)', async () => {
    const s = await withMeters();
    const worker = await s.org.as('worker');
    const csv = [
      '\uFEFFMeter,Value,Read at',
      'running hours,120,2026-01-02 08:00',
      `${s.temp.id},-4.5,2026-01-02T09:00:00Z`,
      'Running Hours,100,2026-01-01',
      '',
    ].join('\r\n');
    const res = await worker.post(`${B}/import-meter-readings`, { assetId: s.pump.id, csv, timeZone: 'Asia/Dubai' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ message: 'Imported 3 readings', imported: 3 });
    const hours = (await worker.get(`${B}/list-meter-readings/${s.hours.id}`)).body.readings;
    // Dubai is UTC+4: midnight and 08:00 there are 20:00 and 04:00 UTC.
    expect(hours.map((r: { value: number; readAt: string; source: string; total: number }) => [r.value, r.readAt, r.source, r.total])).toEqual([
      [100, '2025-12-31T20:00:00.000Z', 'csv', 100],
      [120, '2026-01-02T04:00:00.000Z', 'csv', 120],
    ]);
    expect(res.body.meters.find((m: { id: number }) => m.id === s.temp.id).latestReading.value).toBe(-4.5);
  });

  it('imports across assets by asset number and meter name, with resets', async () => {
    const s = await withMeters();
    const csv = `asset,meter,value,read at,reset\nAS-${String(s.press.id).padStart(4, '0')},Cycles,500,2026-01-01,\n${s.press.id},cycles,20,2026-02-01,yes\n${s.pump.id},Temperature,55,2026-02-01,no`;
    const res = await s.org.admin.post(`${B}/import-meter-readings`, { csv });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.imported).toBe(3);
    const cycles = (await s.org.admin.get(`${B}/list-meter-readings/${s.cycles.id}`)).body.readings;
    expect(cycles.map((r: { value: number; reset: boolean; total: number }) => [r.value, r.reset, r.total])).toEqual([
      [500, false, 500],
      [20, true, 520],
    ]);
  });

  it('refuses the whole file with a message per row and column, formulas flagged', async () => {
    const s = await withMeters();
    const before = await rowsOf(s.org);
    const csv = [
      'meter,value,read at',
      'Running hours,100,2026-01-01', // fine on its own
      'Running hours,=1+2,2026-01-02', // a formula
      '@SUM(A1),5,2026-01-02', // a formula as a meter
      'Nope,5,2026-01-02', // no such meter
      'Temperature,abc,31/01/2026', // not a number, not a date we read
      'Running hours,90,2026-01-03', // a counter going down
      'Temperature,5,2999-01-01', // in the future
      'Temperature,,', // blanks
    ].join('\n');
    const res = await s.org.admin.post(`${B}/import-meter-readings`, { assetId: s.pump.id, csv });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('The file has 9 errors; nothing was imported');
    expect(res.body.issues).toEqual([
      { path: 'rows.3.value', message: 'Cell starts with = + - or @ and is not a number: formulas are not accepted' },
      { path: 'rows.4.meter', message: 'Cell starts with = + - or @ and is not a number: formulas are not accepted' },
      { path: 'rows.5.meter', message: `Asset AS-${String(s.pump.id).padStart(4, '0')} has no such meter` },
      { path: 'rows.6.value', message: 'Value must be a number' },
      { path: 'rows.6.read at', message: 'Read at must be a date like 2026-03-31 or 2026-03-31 14:30' },
      { path: 'rows.7.value', message: expect.stringMatching(/^A counter only goes up/) },
      { path: 'rows.8.read at', message: 'Read at cannot be in the future' },
      { path: 'rows.9.value', message: 'Value is required' },
      { path: 'rows.9.read at', message: 'Read at is required' },
    ]);
    expect(await rowsOf(s.org)).toBe(before);
  });

  it('refuses files without the needed columns, empty files and unknown columns', async () => {
    const s = await withMeters();
    const noCols = await s.org.admin.post(`${B}/import-meter-readings`, { csv: 'colour,value\nred,1' });
    expect(noCols.status).toBe(400);
    expect(noCols.body.issues).toEqual([
      { path: 'rows.1.colour', message: 'Unknown column: use meter, asset, value, read at and reset' },
      { path: 'rows.1.meter', message: 'The file needs a meter column' },
      { path: 'rows.1.read at', message: 'The file needs a read at column' },
      { path: 'rows.1.asset', message: 'The file needs an asset column (or import from the asset)' },
    ]);
    const headerOnly = await s.org.admin.post(`${B}/import-meter-readings`, { assetId: s.pump.id, csv: 'meter,value,read at\n' });
    expect(headerOnly.body.issues).toEqual([{ path: 'rows.2.value', message: 'The file has no readings' }]);
    const blank = await s.org.admin.post(`${B}/import-meter-readings`, { assetId: s.pump.id, csv: '' });
    expect(issuesOf(blank.body)).toEqual({ csv: 'The file is empty' });
    const zone = await s.org.admin.post(`${B}/import-meter-readings`, { assetId: s.pump.id, csv: 'x', timeZone: 'Mars/Olympus' });
    expect(issuesOf(zone.body)).toEqual({ timeZone: 'Unknown time zone' });
    const ragged = await s.org.admin.post(`${B}/import-meter-readings`, { assetId: s.pump.id, csv: 'meter,value,read at\nTemperature,1,2026-01-01,extra' });
    expect(ragged.body.issues).toEqual([{ path: 'rows.2.(row)', message: 'This row does not have one cell per column' }]);
  });
});
