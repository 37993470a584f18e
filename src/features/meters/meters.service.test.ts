import { describe, expect, it } from 'vitest';
import { withTenant } from '../../server/db/client';
import { meterReadings, meters } from '../../server/db/schema';
import { createOrg, useTestApp } from '../../server/test/harness';
import { HttpError } from '../../server/http-error';
import { latestReadings, listMeters, listReadings, recordReading } from './meters.service';
import { twoAssets } from './test-fixtures';

const t = useTestApp();

const at = (iso: string) => new Date(iso);

async function setup() {
  const org = await createOrg(t);
  const { pump, press } = await twoAssets(t, org.orgId);
  const [hours, temp] = await withTenant(t.database.db, org.orgId, (tx) =>
    tx
      .insert(meters)
      .values([
        { orgId: org.orgId, assetId: pump.id, name: 'Running hours', kind: 'counter', unit: 'h' },
        { orgId: org.orgId, assetId: pump.id, name: 'Bearing temperature', kind: 'gauge', unit: '°C' },
      ])
      .returning(),
  );
  const inTx = <T>(fn: Parameters<typeof withTenant<T>>[2]) => withTenant(t.database.db, org.orgId, fn);
  return { org, pump, press, hours, temp, inTx };
}

/** The error a call throws, for its status and message. */
async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    if (err instanceof HttpError) return { status: err.statusCode, message: err.message, field: err.issues?.[0]?.path };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('recordReading', () => {
  it('records a counter reading with who, when and where from, and keeps its total across resets', async () => {
    const s = await setup();
    const r1 = await s.inTx((tx) =>
      recordReading(tx, s.org.orgId, { meterId: s.hours.id, value: 100, readAt: at('2026-01-01T08:00:00Z'), source: 'manual' }, 1),
    );
    expect(r1).toMatchObject({
      meterId: s.hours.id,
      value: 100,
      total: 100,
      reset: false,
      readAt: '2026-01-01T08:00:00.000Z',
      source: 'manual',
      recordedById: 1,
      workOrderId: null,
    });
    expect(r1.recordedBy).toMatch(/\S/);
    const r2 = await s.inTx((tx) =>
      recordReading(tx, s.org.orgId, { meterId: s.hours.id, value: 250.5, readAt: at('2026-02-01T08:00:00Z'), source: 'csv' }, 1),
    );
    expect(r2.total).toBe(250.5);
    // Replaced hour meter: starts at 10 again; usage goes on from 250.5.
    const r3 = await s.inTx((tx) =>
      recordReading(tx, s.org.orgId, { meterId: s.hours.id, value: 10, readAt: at('2026-03-01T08:00:00Z'), source: 'manual', reset: true }, 1),
    );
    expect(r3).toMatchObject({ value: 10, reset: true, total: 260.5 });
  });

  it('refuses a counter going down unless reset, a negative counter, and a reset of a gauge', async () => {
    const s = await setup();
    await s.inTx((tx) => recordReading(tx, s.org.orgId, { meterId: s.hours.id, value: 100, readAt: at('2026-01-01T08:00:00Z'), source: 'manual' }, 1));
    expect(
      await failure(
        s.inTx((tx) => recordReading(tx, s.org.orgId, { meterId: s.hours.id, value: 99, readAt: at('2026-01-02T08:00:00Z'), source: 'manual' }, 1)),
      ),
    ).toMatchObject({
      status: 400,
      field: 'value',
      message: expect.stringMatching(/^A counter only goes up: this reading is lower/),
    });
    expect(await failure(s.inTx((tx) => recordReading(tx, s.org.orgId, { meterId: s.hours.id, value: -1, source: 'manual', reset: true }, 1)))).toMatchObject({
      status: 400,
      message: 'A counter reading cannot be negative',
    });
    expect(await failure(s.inTx((tx) => recordReading(tx, s.org.orgId, { meterId: s.temp.id, value: 5, source: 'manual', reset: true }, 1)))).toMatchObject({
      status: 400,
      field: 'reset',
      message: 'Only a counter can be reset',
    });
    // A gauge goes up and down, negative too.
    await s.inTx((tx) => recordReading(tx, s.org.orgId, { meterId: s.temp.id, value: 60, readAt: at('2026-01-01T08:00:00Z'), source: 'manual' }, 1));
    const low = await s.inTx((tx) =>
      recordReading(tx, s.org.orgId, { meterId: s.temp.id, value: -12.25, readAt: at('2026-01-02T08:00:00Z'), source: 'manual' }, 1),
    );
    expect(low).toMatchObject({ value: -12.25, total: null });
  });

  it('a reading added in the past fits between its neighbours and moves later totals only when it changes them', async () => {
    const s = await setup();
    const add = (value: number, iso: string, reset = false) =>
      s.inTx((tx) => recordReading(tx, s.org.orgId, { meterId: s.hours.id, value, readAt: at(iso), source: 'manual', reset }, 1));
    await add(100, '2026-01-01T00:00:00Z');
    await add(300, '2026-03-01T00:00:00Z');
    expect(await failure(add(350, '2026-02-01T00:00:00Z'))).toMatchObject({
      status: 400,
      message: 'A counter only goes up: this reading is higher than a later one',
    });
    expect((await add(200, '2026-02-01T00:00:00Z')).total).toBe(200);
    // A reset in the past: the later readings' usage grows by what ran before the reset.
    expect((await add(50, '2026-02-15T00:00:00Z', true)).total).toBe(250);
    const totals = await s.inTx((tx) =>
      tx.select({ value: meterReadings.value, total: meterReadings.total }).from(meterReadings).orderBy(meterReadings.readAt),
    );
    expect(totals).toEqual([
      { value: 100, total: 100 },
      { value: 200, total: 200 },
      { value: 50, total: 250 },
      { value: 300, total: 500 },
    ]);
  });

  it('refuses a reading in the future beyond the tolerance, an invalid date, and a work order of another asset', async () => {
    const s = await setup();
    const soon = new Date(Date.now() + 60_000);
    expect((await s.inTx((tx) => recordReading(tx, s.org.orgId, { meterId: s.temp.id, value: 1, readAt: soon, source: 'manual' }, 1))).readAt).toBe(
      soon.toISOString(),
    );
    const later = new Date(Date.now() + 10 * 60_000);
    expect(await failure(s.inTx((tx) => recordReading(tx, s.org.orgId, { meterId: s.temp.id, value: 1, readAt: later, source: 'manual' }, 1)))).toMatchObject({
      status: 400,
      field: 'readAt',
      message: 'Read at cannot be in the future',
    });
    expect(
      await failure(s.inTx((tx) => recordReading(tx, s.org.orgId, { meterId: s.temp.id, value: 1, readAt: new Date('x'), source: 'manual' }, 1))),
    ).toMatchObject({
      status: 400,
      message: 'Read at must be a valid date',
    });
    expect(await failure(s.inTx((tx) => recordReading(tx, s.org.orgId, { meterId: s.temp.id, value: 1, source: 'work-order' }, 1)))).toMatchObject({
      status: 400,
      message: 'A reading from a work order names the work order',
    });
    expect(
      await failure(s.inTx((tx) => recordReading(tx, s.org.orgId, { meterId: s.temp.id, value: 1, source: 'work-order', workOrderId: 999 }, 1))),
    ).toMatchObject({
      status: 400,
      message: 'Work order does not exist in this organization',
    });
    const { workOrders } = await import('../../server/db/schema');
    const [wo] = await s.inTx((tx) => tx.insert(workOrders).values({ orgId: s.org.orgId, title: 'Press service', assetId: s.press.id }).returning());
    expect(
      await failure(s.inTx((tx) => recordReading(tx, s.org.orgId, { meterId: s.temp.id, value: 1, source: 'work-order', workOrderId: wo.id }, 1))),
    ).toMatchObject({
      status: 400,
      message: 'The work order is for another asset',
    });
  });

  it("another organisation's meter is not found and gets no reading", async () => {
    const s = await setup();
    const other = await createOrg(t);
    expect(
      await failure(withTenant(t.database.db, other.orgId, (tx) => recordReading(tx, other.orgId, { meterId: s.hours.id, value: 1, source: 'manual' }, 1))),
    ).toMatchObject({
      status: 404,
      message: 'Meter not found',
    });
    expect(await s.inTx((tx) => tx.select().from(meterReadings))).toEqual([]);
  });
});

describe('latestReadings and listMeters', () => {
  it("gives each meter its latest reading by read time, not by entry, and only the organisation's", async () => {
    const s = await setup();
    const add = (meterId: number, value: number, iso: string) =>
      s.inTx((tx) => recordReading(tx, s.org.orgId, { meterId, value, readAt: at(iso), source: 'manual' }, 1));
    await add(s.hours.id, 500, '2026-05-01T00:00:00Z');
    await add(s.hours.id, 400, '2026-04-01T00:00:00Z');
    await add(s.temp.id, 70, '2026-05-02T00:00:00Z');
    const latest = await s.inTx((tx) => latestReadings(tx, s.org.orgId, [s.hours.id, s.temp.id]));
    expect(latest.get(s.hours.id)?.value).toBe(500);
    expect(latest.get(s.temp.id)?.value).toBe(70);
    const list = await s.inTx((tx) => listMeters(tx, s.org.orgId, s.pump.id));
    expect(list.meters.map((m) => [m.name, m.latestReading?.value])).toEqual([
      ['Bearing temperature', 70],
      ['Running hours', 500],
    ]);
    expect((await s.inTx((tx) => listMeters(tx, s.org.orgId, s.press.id))).meters).toEqual([]);
    const other = await createOrg(t);
    expect((await withTenant(t.database.db, other.orgId, (tx) => latestReadings(tx, other.orgId, [s.hours.id]))).size).toBe(0);
    expect(await failure(withTenant(t.database.db, other.orgId, (tx) => listMeters(tx, other.orgId, s.pump.id)))).toMatchObject({
      status: 404,
      message: 'Asset not found',
    });
  });

  it('listReadings gives the range oldest first and says when the limit left readings out', async () => {
    const s = await setup();
    for (const [v, d] of [
      [1, '01'],
      [2, '02'],
      [3, '03'],
      [4, '04'],
    ] as const) {
      await s.inTx((tx) => recordReading(tx, s.org.orgId, { meterId: s.temp.id, value: v, readAt: at(`2026-06-${d}T00:00:00Z`), source: 'manual' }, 1));
    }
    const all = await s.inTx((tx) => listReadings(tx, s.org.orgId, s.temp.id, { limit: 500 }));
    expect(all.readings.map((r) => r.value)).toEqual([1, 2, 3, 4]);
    expect(all.limited).toBe(false);
    const some = await s.inTx((tx) => listReadings(tx, s.org.orgId, s.temp.id, { from: at('2026-06-02T00:00:00Z'), to: at('2026-06-04T00:00:00Z'), limit: 2 }));
    expect(some.readings.map((r) => r.value)).toEqual([3, 4]);
    expect(some.limited).toBe(true);
  });
});
