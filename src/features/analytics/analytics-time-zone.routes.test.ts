import { describe, expect, it } from 'vitest';
import { withTenant, type ReadTx } from '../../server/db/client';
import { timeTrackingReasons, workOrderLabors, workOrders } from '../../server/db/schema';
import { createOrg, useTestApp } from '../../server/test/harness';
import { insertAssetIn, setHourlyRate } from '../../server/test/builders';
import { workerRateMinor } from '../work-orders/work-orders.service';
import { backlogFigures, costFigures, throughputFigures } from './analytics.service';

/** Days in a time zone (decision 063): the service counts days, weeks and months of the zone it is given. */
const t = useTestApp();

describe('analytics days in a time zone', () => {
  it('an order logged at 01:30 in Riyadh (22:30 UTC the day before) lands on the Riyadh day', async () => {
    const org = await createOrg(t, 'Riyadh');
    const fitter = await org.as('worker', { firstName: 'Rami', lastName: 'Zone' });
    const o = org.orgId;
    await withTenant(t.database.db, o, async (tx) => {
      const { asset } = await insertAssetIn(tx, o, { name: 'Pumps', code: 'PMP' }, 'Pump');
      const [reason] = await tx.insert(timeTrackingReasons).values({ orgId: o, name: 'Repair', type: 'availability' }).returning();
      // 2026-03-31T22:30Z is 01:30 on 1 April in Riyadh (UTC+3): another day, another ISO week and another month.
      const [w] = await tx
        .insert(workOrders)
        .values({ orgId: o, title: 'Late call', assetId: asset.id, createdAt: new Date('2026-03-31T22:30:00Z') })
        .returning();
      await setHourlyRate(tx, o, fitter.userId, 6000);
      await tx.insert(workOrderLabors).values({
        orgId: o,
        workOrderId: w.id,
        workerId: fitter.userId,
        reasonId: reason.id,
        rateMinor: workerRateMinor(o, fitter.userId),
        startDate: new Date('2026-03-31T22:30:00Z'),
        endDate: new Date('2026-03-31T23:30:00Z'),
      });
    });
    const read = <T>(fn: (tx: ReadTx) => Promise<T>) => withTenant(t.database.db, o, fn, { readOnly: true });
    const day = (d: string) => ({ from: d, to: d });
    const created = async (d: string, tz: string) => (await read((tx) => throughputFigures(tx, o, day(d), day('2026-01-01'), {}, tz))).created.current;
    expect([await created('2026-04-01', 'Asia/Riyadh'), await created('2026-03-31', 'Asia/Riyadh')]).toEqual([1, 0]);
    expect([await created('2026-04-01', 'UTC'), await created('2026-03-31', 'UTC')]).toEqual([0, 1]);
    // Weeks: Tuesday 31 March UTC and Wednesday 1 April in Riyadh are the same ISO week (Monday 30 March).
    const weeks = (await read((tx) => throughputFigures(tx, o, { from: '2026-03-30', to: '2026-04-05' }, day('2026-01-01'), {}, 'Asia/Riyadh'))).weeks;
    expect(weeks).toEqual([{ week: '2026-03-30', created: 1, completed: 0 }]);
    // Months: the hour of labour is April's in Riyadh, March's in UTC.
    const months = async (tz: string) => (await read((tx) => costFigures(tx, o, { from: '2026-03-01', to: '2026-04-30' }, day('2026-01-01'), {}, tz))).byMonth;
    expect(await months('Asia/Riyadh')).toEqual([{ month: '2026-04', labor: 6000, parts: 0, total: 6000 }]);
    expect(await months('UTC')).toEqual([{ month: '2026-03', labor: 6000, parts: 0, total: 6000 }]);
    // The backlog's end of day: open at the end of 31 March in Riyadh is 0 (created on 1 April there), 1 in UTC.
    const openOn31 = async (tz: string) =>
      (await read((tx) => backlogFigures(tx, o, day('2026-03-31'), {}, new Date('2026-04-02T00:00:00Z'), tz))).overTime[0].open;
    expect([await openOn31('Asia/Riyadh'), await openOn31('UTC')]).toEqual([0, 1]);

    // The routes count in the organisation's own zone (company settings, decision 064): UTC first, then Riyadh.
    const createdOn = async (d: string) => (await org.admin.get(`/api/analytics/get-throughput?range=custom&from=${d}&to=${d}`)).body.created.current;
    expect([await createdOn('2026-04-01'), await createdOn('2026-03-31')]).toEqual([0, 1]);
    const { company } = (await org.admin.get('/api/company/get-company-data')).body;
    expect((await org.admin.put(`/api/company/update-company/${company.id}`, { organization: company.organization, timeZone: 'Asia/Riyadh' })).status).toBe(
      200,
    );
    expect([await createdOn('2026-04-01'), await createdOn('2026-03-31')]).toEqual([1, 0]);
  });
});
