import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { withTenant } from '../../server/db/client';
import { assetStateIntervals, workOrderLabors } from '../../server/db/schema';
import { setClockOffset } from '../../server/clock';
import { createOrg, createTestApp, type Client, type TestApp, type TestOrg } from '../../server/test/harness';
import { addAsset, addLocation, siteHallBay, contractorLabour, masterRows } from '../assets/test-fixtures';

/*
 * A location and everything under it (decision 072) in what is not a list of assets: the roll-up of work, cost and
 * down time to parents and locations, the calendar, the insights' filters, the availability card and the exports.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => setClockOffset(0));

/** site > hall > bay, and a depot apart; line > filler > motor in the hall, a pump in the bay, a truck at the depot. */
async function plant(org: TestOrg) {
  const m = await masterRows(t, org.orgId);
  const { site, hall, bay } = await siteHallBay(org);
  const depot = await addLocation(org, 'Depot');
  const add = (name: string, extra: Record<string, unknown>) => addAsset(org, m, name, extra);
  const line = await add('Line', { locationId: hall });
  const filler = await add('Filler', { parentId: line, locationId: hall });
  const motor = await add('Motor', { parentId: filler, locationId: hall });
  const pump = await add('Pump', { locationId: bay });
  const truck = await add('Truck', { locationId: depot });
  const order = async (title: string, assetId: number, dueDate?: string) => {
    const res = await org.admin.post('/api/work-orders/add-work-order', { title, assetId, ...(dueDate ? { dueDate } : {}) });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.workOrder.id as number;
  };
  return { site, hall, bay, depot, line, filler, motor, pump, truck, order };
}

const ok = async (c: Client, url: string) => {
  const res = await c.get(url);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe('a location and everything under it', () => {
  it('rolls work, cost and the last 30 days of down time up to parent assets and locations, as a hand computation gives', async () => {
    // The application's now: 2031-05-10 12:00:30 UTC.
    const NOW = Date.parse('2031-05-10T12:00:30Z');
    setClockOffset(NOW - Date.now());
    const at = (hhmm: string, day = '10') => `2031-05-${day}T${hhmm}:00.000Z`;
    const org = await createOrg(t);
    const p = await plant(org);
    const setState = async (id: number, state: string, when: string) =>
      expect((await org.admin.post(`/api/assets/set-asset-state/${id}`, { state, at: at(when) })).status).toBe(200);
    // The line down 08:00-09:00 takes the filler and the motor with it; the motor then down on its own 09:00-10:30.
    await setState(p.line, 'down', '08:00');
    await setState(p.line, 'running', '09:00');
    await setState(p.motor, 'down', '09:00');
    await setState(p.motor, 'running', '10:30');
    // The pump: two overlapping intervals (07:30-08:30, 08:00-09:00: 90 minutes once merged), one 40 days ago (out of
    // the 30 days), a truck down 5 minutes at the depot.
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx.insert(assetStateIntervals).values([
        { orgId: org.orgId, assetId: p.pump, state: 'down', startedAt: new Date(at('07:30')), endedAt: new Date(at('08:30')) },
        { orgId: org.orgId, assetId: p.pump, state: 'down', startedAt: new Date(at('08:00')), endedAt: new Date(at('09:00')) },
        { orgId: org.orgId, assetId: p.pump, state: 'down', startedAt: new Date('2031-03-31T08:00:00Z'), endedAt: new Date('2031-03-31T20:00:00Z') },
        { orgId: org.orgId, assetId: p.truck, state: 'down', startedAt: new Date(at('11:00')), endedAt: new Date(at('11:05')) },
      ]),
    );
    const onMotor = await p.order('Motor bearing', p.motor);
    const onPump = await p.order('Pump seal', p.pump);
    const onTruck = await p.order('Truck tyre', p.truck);
    expect((await org.admin.put(`/api/work-orders/update-status/${onPump}`, { status: 'completed' })).status).toBe(200);
    const labour = (workOrderId: number, minutes: number, rate: number) => contractorLabour(org.orgId, '2031-05-01', workOrderId, minutes, rate);
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx.insert(workOrderLabors).values([labour(onMotor, 45, 8000), labour(onPump, 60, 6000), labour(onTruck, 600, 9999)]),
    );

    // Hand computation, minutes down: line 60, filler 60 (cascade), motor 60 + 90 = 150, pump 90, truck 5.
    const asset = async (id: number) => (await ok(org.admin, `/api/assets/get-asset-summary/${id}`)).summary;
    expect((await asset(p.line)).downMinutes).toEqual({ own: 60, total: 60 + 60 + 150 });
    expect((await asset(p.filler)).downMinutes).toEqual({ own: 60, total: 210 });
    expect((await asset(p.pump)).downMinutes).toEqual({ own: 90, total: 90 });
    // Cost: motor 45 min x 80.00 = 60.00, pump 60 min x 60.00 = 60.00, truck apart.
    const location = async (c: Client, id: number) => (await ok(c, `/api/locations/get-location/${id}`)).summary;
    expect(await location(org.admin, p.hall)).toEqual({
      locations: 1,
      assets: 4,
      workStations: 0,
      workOrders: { own: 1, total: 2 },
      openWorkOrders: { own: 1, total: 1 },
      costMinor: { own: 6000, total: 12000 },
      downMinutes: { own: 270, total: 360 },
    });
    expect(await location(org.admin, p.site)).toMatchObject({
      workOrders: { own: 0, total: 2 },
      costMinor: { own: 0, total: 12000 },
      downMinutes: { own: 0, total: 360 },
    });
    expect(await location(org.admin, p.depot)).toMatchObject({ workOrders: { own: 1, total: 1 }, downMinutes: { own: 5, total: 5 } });
    // A worker reads the work and the down time, not the amounts.
    const worker = await org.as('worker');
    expect(await location(worker, p.hall)).toMatchObject({ workOrders: { total: 2 }, costMinor: null, downMinutes: { total: 360 } });
  });

  it('the calendar, the insights, the availability card, a scheduled report and the exports filter by a location and everything under it', async () => {
    const org = await createOrg(t);
    const p = await plant(org);
    const inTwoDays = new Date(Date.now() + 2 * 86_400_000).toISOString();
    await p.order('Fix motor', p.motor, inTwoDays);
    await p.order('Fix pump', p.pump, inTwoDays);
    await p.order('Fix truck', p.truck, inTwoDays);
    const anHourAgo = new Date(Date.now() - 3_600_000).toISOString();
    for (const id of [p.pump, p.truck]) expect((await org.admin.post(`/api/assets/set-asset-state/${id}`, { state: 'down', at: anHourAgo })).status).toBe(200);

    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const calendar = async (locationId: number) =>
      (await ok(org.admin, `/api/calendar/list-calendar-entries?from=${day(-1)}&to=${day(7)}&locationId=${locationId}`)).entries
        .map((e: { title: string }) => e.title)
        .sort();
    expect(await calendar(p.hall)).toEqual(['Fix motor', 'Fix pump']);
    expect(await calendar(p.bay)).toEqual(['Fix pump']);
    expect(await calendar(p.depot)).toEqual(['Fix truck']);

    const insights = (path: string, locationId: number) => ok(org.admin, `/api/analytics/${path}?range=7d&locationId=${locationId}`);
    expect((await insights('get-throughput', p.site)).created.current).toBe(2);
    expect((await insights('get-throughput', p.depot)).created.current).toBe(1);
    expect((await insights('get-backlog', p.bay)).openNow).toBe(1);
    const downAssets = async (locationId: number) =>
      (await insights('get-downtime', locationId)).byAsset
        .filter((a: { downHours: number }) => a.downHours > 0)
        .map((a: { name: string }) => a.name)
        .sort();
    expect(await downAssets(p.site)).toEqual(['Pump']);
    expect(await downAssets(p.depot)).toEqual(['Truck']);
    expect((await org.admin.get('/api/analytics/get-throughput?range=7d&locationId=abc')).status).toBe(400);
    // The availability card's answer for the hall: the four assets in it and under it.
    const from = new Date(Date.now() - 86_400_000).toISOString();
    expect(
      (await ok(org.admin, `/api/assets/get-asset-availability?from=${from}&to=${new Date().toISOString()}&locationId=${p.hall}`)).availability.assets,
    ).toBe(4);
    // A scheduled report keeps the location among its filters.
    const report = await org.admin.post('/api/insights-reports/add-report', { frequency: 'weekly', format: 'html', filters: { locationId: p.hall } });
    expect(report.status, JSON.stringify(report.body)).toBe(201);
    expect(report.body.report.filters).toEqual({ locationId: p.hall });

    const csv = async (list: string, locationId: number) => {
      const res = await org.admin.get(`/api/data-transfer/export/${list}?locationId=${locationId}`);
      expect(res.status, String(res.body)).toBe(200);
      return Papa.parse<string[]>(String(res.body).replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    };
    const column = (rows: string[][], name: string) =>
      rows
        .slice(1)
        .map((r) => r[rows[0].indexOf(name)])
        .sort();
    expect(column(await csv('work-orders', p.hall), 'Title')).toEqual(['Fix motor', 'Fix pump']);
    expect(column(await csv('assets', p.hall), 'Name')).toEqual(['Filler', 'Line', 'Motor', 'Pump']);
    expect(column(await csv('assets', p.bay), 'Name')).toEqual(['Pump']);
  });
});
