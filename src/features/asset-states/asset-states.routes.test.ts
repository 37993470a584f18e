import { afterEach, describe, expect, it } from 'vitest';
import { withTenant } from '../../server/db/client';
import { assetStateIntervals } from '../../server/db/schema';
import { setClockOffset } from '../../server/clock';
import { pgCode } from '../../server/db/pg-code';
import { createOrg, useTestApp, type Client, type TestOrg } from '../../server/test/harness';
import { addAsset, siteHallBay, masterRows } from '../assets/test-fixtures';
import { correctiveRequest } from '../../server/test/fixtures';

const t = useTestApp();
afterEach(() => setClockOffset(0));

/** The application's now: 2031-05-10 12:00:30 UTC (whole minute 12:00). */
const NOW = Date.parse('2031-05-10T12:00:30Z');
const at = (hhmm: string) => `2031-05-10T${hhmm}:00.000Z`;
const setNow = () => setClockOffset(NOW - Date.now());

async function plant(org: TestOrg) {
  const m = await masterRows(t, org.orgId);
  const { site, hall, bay } = await siteHallBay(org);
  const add = (name: string, extra: Record<string, unknown> = {}) => addAsset(org, m, name, extra);
  const line = await add('Line', { locationId: hall });
  const machine = await add('Filler', { parentId: line, locationId: hall });
  const motor = await add('Motor', { parentId: machine, locationId: hall, assetCategoryId: m.assetCategory2.id });
  const sensor = await add('Sensor', { parentId: machine, independent: true, assetCategoryId: m.assetCategory2.id });
  const probe = await add('Probe', { parentId: sensor });
  const pump = await add('Pump', { locationId: bay });
  return { m, site, hall, bay, line, machine, motor, sensor, probe, pump };
}

const setState = async (c: Client, id: number, state: string, when: string, reason?: string) => {
  const res = await c.post(`/api/assets/set-asset-state/${id}`, { state, at: at(when), reason });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

const availability = async (c: Client, query: string) => {
  const res = await c.get(`/api/assets/get-asset-availability?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.availability;
};

describe('asset state over time and availability (decision 079)', () => {
  it('computes availability minute-exact from the intervals: cascade, independent child, adjacent and overlapping, clipping, open', async () => {
    setNow();
    const org = await createOrg(t);
    const p = await plant(org);
    // 08:00 the line stops: the filler and the motor go down with it; the independent sensor (and its probe) do not.
    await setState(org.admin, p.line, 'down', '08:00', 'Jam');
    // 09:00 the line is back: the cascaded intervals close; the motor goes down on its own at once (adjacent).
    await setState(org.admin, p.line, 'running', '09:00');
    await setState(org.admin, p.motor, 'down', '09:00', 'Bearing');
    await setState(org.admin, p.motor, 'running', '10:30');
    // 11:00 the sensor goes down and stays down (open, up to now 12:00): its probe goes with it.
    await setState(org.admin, p.sensor, 'down', '11:00', 'Dirty lens');
    // The pump's history, written straight into the table: overlapping, adjacent, before the period, not down.
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx.insert(assetStateIntervals).values([
        { orgId: org.orgId, assetId: p.pump, state: 'down', startedAt: new Date(at('06:00')), endedAt: new Date(at('07:10')) },
        { orgId: org.orgId, assetId: p.pump, state: 'down', startedAt: new Date(at('07:30')), endedAt: new Date(at('08:30')) },
        { orgId: org.orgId, assetId: p.pump, state: 'down', startedAt: new Date(at('08:00')), endedAt: new Date(at('09:00')) },
        { orgId: org.orgId, assetId: p.pump, state: 'down', startedAt: new Date(at('09:00')), endedAt: new Date(at('09:15')) },
        { orgId: org.orgId, assetId: p.pump, state: 'standby', startedAt: new Date(at('10:00')), endedAt: new Date(at('11:00')) },
      ]),
    );
    const period = `from=${at('07:00')}&to=${at('13:00')}`; // 360 minutes
    // Hand computation (minutes down in 07:00-13:00):
    //   line 08:00-09:00 = 60; filler (cascade) 60; motor 08:00-09:00 cascade + 09:00-10:30 own, adjacent = 150;
    //   sensor 11:00-now 12:00 = 60 (13:00 is in the future); probe (cascaded from the sensor) 60;
    //   pump 07:00-07:10 (clipped) = 10, 07:30-09:15 (overlap and adjacent merged) = 105, standby 0: 115.
    const one = async (id: number) => availability(org.admin, `${period}&assetId=${id}`);
    expect(await one(p.line)).toMatchObject({ periodMinutes: 360, assets: 1, downMinutes: 60, availability: 300 / 360 });
    expect((await one(p.machine)).downMinutes).toBe(60);
    expect(await one(p.motor)).toMatchObject({ downMinutes: 150, availability: 210 / 360 });
    expect((await one(p.sensor)).downMinutes).toBe(60);
    expect((await one(p.probe)).downMinutes).toBe(60);
    expect(await one(p.pump)).toMatchObject({ downMinutes: 115, availability: 245 / 360 });
    // The hall and everything under it: line, filler, motor (hall) and the pump (bay, under the hall).
    const hall = await availability(org.admin, `${period}&locationId=${p.hall}`);
    expect(hall).toMatchObject({ assets: 4, downMinutes: 60 + 60 + 150 + 115, availability: (4 * 360 - 385) / (4 * 360) });
    expect(hall.byAsset.map((a: { name: string; downMinutes: number }) => [a.name, a.downMinutes])).toEqual([
      ['Motor', 150],
      ['Pump', 115],
      ['Line', 60],
      ['Filler', 60],
    ]);
    // The bay alone: the pump.
    expect(await availability(org.admin, `${period}&locationId=${p.bay}`)).toMatchObject({ assets: 1, downMinutes: 115 });
    // Category "Motors": the motor and the sensor.
    expect(await availability(org.admin, `${period}&assetCategoryId=${p.m.assetCategory2.id}`)).toMatchObject({
      assets: 2,
      downMinutes: 210,
      availability: (720 - 210) / 720,
    });
    // Clipping: 08:30-09:30 the motor was down all the time (cascade then its own, adjacent).
    expect(await availability(org.admin, `from=${at('08:30')}&to=${at('09:30')}&assetId=${p.motor}`)).toMatchObject({ downMinutes: 60, availability: 0 });
    // The open interval counts up to now: 11:30-12:30 the sensor was down 30 minutes of 60.
    expect(await availability(org.admin, `from=${at('11:30')}&to=${at('12:30')}&assetId=${p.sensor}`)).toMatchObject({ downMinutes: 30, availability: 0.5 });
    // A location without assets has no availability.
    expect((await availability(org.admin, `${period}&locationId=${p.site}`)).assets).toBe(4);

    // The timeline: newest first, with who set it and where a cascade came from.
    const motor = (await org.admin.get(`/api/assets/list-asset-states/${p.motor}?${period}`)).body;
    expect(motor.state).toBe('running');
    expect(
      motor.intervals.map((i: { state: string; startedAt: string; endedAt: string | null; reason: string | null }) => [
        i.state,
        i.startedAt,
        i.endedAt,
        i.reason,
      ]),
    ).toEqual([
      ['running', at('10:30'), null, null],
      ['down', at('09:00'), at('10:30'), 'Bearing'],
      ['running', at('09:00'), at('09:00'), null],
      ['down', at('08:00'), at('09:00'), null],
    ]);
    expect(motor.intervals[3].cascadedFrom).not.toBeNull();
    expect(motor.intervals[1].setBy).toMatchObject({ id: expect.any(Number) });
    expect((await org.admin.get(`/api/assets/get-asset/${p.probe}`)).body.asset).toMatchObject({ state: 'down', independent: false });
    expect((await org.admin.get(`/api/assets/get-asset/${p.sensor}`)).body.asset).toMatchObject({ state: 'down', independent: true });
  });

  it('cascades one level at a time: line > filler > motor, top-down and bottom-up, overlapping, minute-exact (079 addendum)', async () => {
    setNow();
    const org = await createOrg(t);
    const p = await plant(org);
    const period = `from=${at('07:00')}&to=${at('13:00')}`;
    const downOf = async (id: number) => (await availability(org.admin, `${period}&assetId=${id}`)).downMinutes;
    const stateOf = async (id: number) => (await org.admin.get(`/api/assets/list-asset-states/${id}?${period}`)).body;
    // Top-down. 07:20-07:40 the line stops: the filler (its child) and the motor (the filler's child) go with it and come back.
    await setState(org.admin, p.line, 'down', '07:20', 'Jam');
    const first = (await stateOf(p.machine)).intervals[0];
    expect((await stateOf(p.motor)).intervals[0]).toMatchObject({ state: 'down', cascadedFrom: first.id });
    await setState(org.admin, p.line, 'running', '07:40');
    expect([(await stateOf(p.machine)).state, (await stateOf(p.motor)).state]).toEqual(['running', 'running']);
    // 08:00 the line stops again.
    await setState(org.admin, p.line, 'down', '08:00', 'Jam');
    // 08:30 someone sets the filler down by hand (it was down by the cascade): the motor stays down, now the filler's.
    await setState(org.admin, p.machine, 'down', '08:30', 'Seal');
    // 09:00 the line is back: the filler stays down (set by hand), so the motor under it stays down too.
    await setState(org.admin, p.line, 'running', '09:00');
    expect([(await stateOf(p.machine)).state, (await stateOf(p.motor)).state]).toEqual(['down', 'down']);
    // 10:00 the filler is back: the motor comes up with it.
    await setState(org.admin, p.machine, 'running', '10:00');
    expect((await stateOf(p.motor)).state).toBe('running');
    // Hand computation: line 20 + 08:00-09:00 = 80; filler 20 + 08:00-08:30 cascade + 08:30-10:00 own = 140; motor 20 + 08:00-10:00 = 140.
    expect([await downOf(p.line), await downOf(p.machine), await downOf(p.motor)]).toEqual([80, 140, 140]);
    // The motor was down once, without a gap at 08:30 or 09:00.
    expect(
      (await stateOf(p.motor)).intervals.map((i: { state: string; startedAt: string; endedAt: string | null }) => [i.state, i.startedAt, i.endedAt]),
    ).toEqual([
      ['running', at('10:00'), null],
      ['down', at('08:00'), at('10:00')],
      ['running', at('07:40'), at('08:00')],
      ['down', at('07:20'), at('07:40')],
    ]);

    // Bottom-up: a second tree (press > die > heater), overlapping intervals.
    const add = async (name: string, parentId?: number) =>
      (await org.admin.post('/api/assets/add-asset', { name, date: '2024-01-01', assetCategoryId: p.m.assetCategory.id, parentId })).body.asset.id as number;
    const press = await add('Press');
    const die = await add('Die', press);
    const heater = await add('Heater', die);
    // 10:00 the heater is set down by hand; 10:30 the die by hand; 11:00 the press (its children are down already).
    await setState(org.admin, heater, 'down', '10:00', 'Element');
    await setState(org.admin, die, 'down', '10:30', 'Crack');
    await setState(org.admin, press, 'down', '11:00', 'Hydraulics');
    // 11:15 the press is back: the die and the heater, set down by hand, stay down.
    await setState(org.admin, press, 'running', '11:15');
    expect([(await stateOf(die)).state, (await stateOf(heater)).state]).toEqual(['down', 'down']);
    // 11:30 the die is back: the heater (set down by hand, not by the die) stays down; 11:45 the heater.
    await setState(org.admin, die, 'running', '11:30');
    expect((await stateOf(heater)).state).toBe('down');
    await setState(org.admin, heater, 'running', '11:45');
    // Hand computation: press 11:00-11:15 = 15; die 10:30-11:30 = 60; heater 10:00-11:45 = 105.
    expect([await downOf(press), await downOf(die), await downOf(heater)]).toEqual([15, 60, 105]);

    // A work order holds the die down (the heater with it); the press's cascade over it changes nothing below.
    const wo = await org.admin.post('/api/work-orders/add-work-order', { title: 'Die change', assetId: die, assetDown: true }); // 12:00
    expect(wo.status, JSON.stringify(wo.body)).toBe(201);
    expect((await stateOf(heater)).state).toBe('down');
    setClockOffset(NOW + 10 * 60_000 - Date.now());
    await setState(org.admin, press, 'down', '12:10');
    setClockOffset(NOW + 20 * 60_000 - Date.now());
    await setState(org.admin, press, 'running', '12:20');
    expect([(await stateOf(die)).state, (await stateOf(heater)).state]).toEqual(['down', 'down']);
    // 12:40 the order is completed: the die comes up, and the heater with it.
    setClockOffset(NOW + 40 * 60_000 - Date.now());
    expect((await org.admin.put(`/api/work-orders/update-status/${wo.body.workOrder.id}`, { status: 'completed' })).status).toBe(200);
    expect([(await stateOf(die)).state, (await stateOf(heater)).state]).toEqual(['running', 'running']);
    // Hand computation, 07:00-13:00: press 15 + 10 = 25; die 60 + 40 = 100; heater 105 + 40 = 145.
    expect([await downOf(press), await downOf(die), await downOf(heater)]).toEqual([25, 100, 145]);
  });

  it('keeps one open interval per asset and refuses a start in the future or before the current state', async () => {
    setNow();
    const org = await createOrg(t);
    const p = await plant(org);
    await setState(org.admin, p.pump, 'standby', '10:00');
    const future = await org.admin.post(`/api/assets/set-asset-state/${p.pump}`, { state: 'down', at: at('12:05') });
    expect(future.status).toBe(400);
    expect(future.body.issues).toEqual([{ path: 'at', message: 'The time a state starts cannot be in the future' }]);
    const before = await org.admin.post(`/api/assets/set-asset-state/${p.pump}`, { state: 'down', at: at('09:59') });
    expect(before.body.issues).toEqual([{ path: 'at', message: 'The time must be after the start of the current state' }]);
    expect((await org.admin.post(`/api/assets/set-asset-state/${p.pump}`, { state: 'broken' })).status).toBe(400);
    let code: string | undefined;
    try {
      await withTenant(t.database.db, org.orgId, (tx) =>
        tx.insert(assetStateIntervals).values({ orgId: org.orgId, assetId: p.pump, state: 'down', startedAt: new Date(at('11:00')) }),
      );
    } catch (err) {
      code = pgCode(err);
    }
    expect(code).toBe('23505');
  });

  it('a request marks the motor down, completing the work order brings it back; a work order and a request close their own', async () => {
    setNow();
    const org = await createOrg(t);
    const p = await plant(org);
    const state = async (id: number) => (await org.admin.get(`/api/assets/list-asset-states/${id}`)).body;
    // A request with "Asset is down": the motor's interval opens with the request as source.
    const req = await org.admin.post(
      '/api/maintenance-requests/add-maintenance-request',
      correctiveRequest({ asset: { id: p.motor } } as never, { assetDown: true }),
    );
    expect(req.status, JSON.stringify(req.body)).toBe(201);
    expect(req.body.maintenanceRequest.assetDown).toBe(true);
    let motor = await state(p.motor);
    expect(motor.state).toBe('down');
    expect(motor.intervals[0]).toMatchObject({ state: 'down', maintenanceRequestId: req.body.maintenanceRequest.id, endedAt: null, startedAt: at('12:00') });
    // A work order on the motor, completed 45 minutes later: the motor runs again.
    const wo = await org.admin.post('/api/work-orders/add-work-order', { title: 'Replace bearing', assetId: p.motor });
    expect(wo.status).toBe(201);
    setClockOffset(NOW + 45 * 60_000 - Date.now());
    expect((await org.admin.put(`/api/work-orders/update-status/${wo.body.workOrder.id}`, { status: 'completed' })).status).toBe(200);
    motor = await state(p.motor);
    expect(motor.state).toBe('running');
    expect(motor.intervals[1]).toMatchObject({ state: 'down', startedAt: at('12:00'), endedAt: at('12:45') });
    expect(motor.intervals[0]).toMatchObject({ state: 'running', workOrderId: wo.body.workOrder.id, endedAt: null });
    expect(await availability(org.admin, `from=${at('12:00')}&to=${at('13:00')}&assetId=${p.motor}`)).toMatchObject({ downMinutes: 45, availability: 0.25 });

    // A work order with "Asset is down" on the line: the line, filler and motor go down; completing it brings them back.
    const wo2 = await org.admin.post('/api/work-orders/add-work-order', { title: 'Line overhaul', assetId: p.line, assetDown: true });
    expect(wo2.body.workOrder.assetDown).toBe(true);
    expect((await state(p.motor)).state).toBe('down');
    expect((await state(p.sensor)).state).toBe('running');
    setClockOffset(NOW + 75 * 60_000 - Date.now());
    await org.admin.put(`/api/work-orders/update-status/${wo2.body.workOrder.id}`, { status: 'completed' });
    for (const id of [p.line, p.machine, p.motor]) expect((await state(id)).state).toBe('running');
    expect(await availability(org.admin, `from=${at('12:00')}&to=${at('13:30')}&assetId=${p.motor}`)).toMatchObject({ downMinutes: 45 + 30 });

    // A hand-set down is not lifted by a work order; a request closed without an order lifts its own.
    await setState(org.admin, p.pump, 'down', '13:00', 'Leak');
    const wo3 = await org.admin.post('/api/work-orders/add-work-order', { title: 'Look at the pump', assetId: p.pump });
    await org.admin.put(`/api/work-orders/update-status/${wo3.body.workOrder.id}`, { status: 'completed' });
    expect((await state(p.pump)).state).toBe('down');
    const req2 = await org.admin.post(
      '/api/maintenance-requests/add-maintenance-request',
      correctiveRequest({ asset: { id: p.probe } } as never, { assetDown: true }),
    );
    expect((await state(p.probe)).state).toBe('down');
    await org.admin.put(`/api/maintenance-requests/update-state/${req2.body.maintenanceRequest.id}`, { state: 'cancelled' });
    expect((await state(p.probe)).state).toBe('running');
    // Unticking "Asset is down" on the work order's edit closes its interval.
    const wo4 = await org.admin.post('/api/work-orders/add-work-order', { title: 'Check the sensor', assetId: p.sensor, assetDown: true });
    expect((await state(p.sensor)).state).toBe('down');
    const edited = await org.admin.put(`/api/work-orders/update-work-order/${wo4.body.workOrder.id}`, { title: 'Check the sensor', assetDown: false });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.workOrder.assetDown).toBe(false);
    expect((await state(p.sensor)).state).toBe('running');
    // Unticking it on an order whose asset is held down by someone else (by hand) leaves the asset down.
    const wo5 = await org.admin.post('/api/work-orders/add-work-order', { title: 'Pump again', assetId: p.pump, assetDown: true });
    expect((await state(p.pump)).state).toBe('down');
    const unticked = await org.admin.put(`/api/work-orders/update-work-order/${wo5.body.workOrder.id}`, { title: 'Pump again', assetDown: false });
    expect(unticked.status, JSON.stringify(unticked.body)).toBe(200);
    expect((await state(p.pump)).state).toBe('down');
    expect((await state(p.pump)).intervals[0]).toMatchObject({ state: 'down', reason: 'Leak', endedAt: null });
  });

  it("the insights' downtime is the assets' down time from the intervals (labour stays labour)", async () => {
    const org = await createOrg(t);
    const p = await plant(org);
    const down = (assetId: number, from: string, to: string) => ({
      orgId: org.orgId,
      assetId,
      state: 'down' as const,
      startedAt: new Date(from),
      endedAt: new Date(to),
    });
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .insert(assetStateIntervals)
        .values([
          down(p.motor, '2026-03-05T10:00:00Z', '2026-03-05T13:00:00Z'),
          down(p.motor, '2026-03-05T12:00:00Z', '2026-03-05T12:30:00Z'),
          down(p.pump, '2026-03-31T23:00:00Z', '2026-04-01T01:00:00Z'),
          down(p.motor, '2026-02-10T00:00:00Z', '2026-02-10T00:30:00Z'),
        ]),
    );
    const q = 'range=custom&from=2026-03-01&to=2026-03-31';
    const r = (await org.admin.get(`/api/analytics/get-downtime?${q}`)).body;
    // March: motor 3 h (the overlapping half hour once), pump 1 h (clipped at the range's end); February: 0.5 h.
    expect(r.availabilityHours).toEqual({ current: 4, previous: 0.5 });
    expect(r.byAsset.map((a: { name: string; downHours: number; availabilityLoss: number }) => [a.name, a.downHours, a.availabilityLoss])).toEqual([
      ['Motor', 3, Math.round((180 / (31 * 1440)) * 10_000) / 10_000],
      ['Pump', 1, Math.round((60 / (31 * 1440)) * 10_000) / 10_000],
    ]);
    expect((await org.admin.get(`/api/analytics/get-downtime?${q}&assetCategoryId=${p.m.assetCategory2.id}`)).body.availabilityHours).toEqual({
      current: 3,
      previous: 0.5,
    });
  });

  it('isolation: another organisation gets 404 and changes nothing', async () => {
    setNow();
    const a = await createOrg(t, 'Alpha');
    const b = await createOrg(t, 'Beta');
    const p = await plant(a);
    await setState(a.admin, p.motor, 'down', '11:00', 'Noise');
    const before = (await a.admin.get(`/api/assets/list-asset-states/${p.motor}`)).body;
    expect((await b.admin.get(`/api/assets/list-asset-states/${p.motor}`)).status).toBe(404);
    expect((await b.admin.post(`/api/assets/set-asset-state/${p.motor}`, { state: 'running' })).status).toBe(404);
    expect((await b.admin.get(`/api/assets/get-asset-availability?assetId=${p.motor}`)).status).toBe(404);
    // b's organisation-wide figure knows nothing of a's assets
    expect(await availability(b.admin, '')).toMatchObject({ assets: 0, downMinutes: 0, availability: null });
    expect((await a.admin.get(`/api/assets/list-asset-states/${p.motor}`)).body).toEqual(before);
    // a worker sets and reads states
    const worker = await a.as('worker');
    expect((await worker.post(`/api/assets/set-asset-state/${p.motor}`, { state: 'running' })).status).toBe(200);
  });
});
