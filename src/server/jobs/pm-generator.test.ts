import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { withTenant } from '../db/client';
import { workOrders } from '../db/schema';
import { setClockOffset } from '../clock';
import { createOrg, useTestApp } from '../test/harness';
import { insertPump } from '../test/builders';
import { dailyPlan } from '../test/fixtures';
import { PM_GENERATOR_CRON, PM_GENERATOR_QUEUE } from './pm-generator.job';

const t = useTestApp();
afterEach(() => setClockOffset(0));

describe('the preventive maintenance generator job', () => {
  it('is scheduled every 5 minutes on the queue, and a job run creates the due work orders', { timeout: 60_000 }, async () => {
    const { boss } = t.app.deps.jobs.queue;
    const schedules = await boss.getSchedules();
    expect(schedules.find((s) => s.name === PM_GENERATOR_QUEUE)?.cron).toBe(PM_GENERATOR_CRON);

    const org = await createOrg(t);
    const assetId = await withTenant(t.database.db, org.orgId, async (tx) => (await insertPump(tx, org.orgId)).id);
    setClockOffset(Date.parse('2031-05-01T10:00:00Z') - Date.now());
    const res = await org.admin.post('/api/pm-plans/add-plan', dailyPlan(assetId));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    setClockOffset(Date.parse('2031-05-03T10:00:00Z') - Date.now());
    // The job names its time: on PostgreSQL any test process's instance may run it, each with its own clock.
    await boss.send(PM_GENERATOR_QUEUE, { at: '2031-05-03T10:00:00Z' });
    const orders = async () =>
      withTenant(t.database.db, org.orgId, (tx) => tx.select({ due: workOrders.dueDate }).from(workOrders).where(eq(workOrders.orgId, org.orgId)), {
        readOnly: true,
      });
    for (const end = Date.now() + 30_000; (await orders()).length === 0 && Date.now() < end; ) await new Promise((r) => setTimeout(r, 250));
    // Due at 09:00 on its day in the organisation's zone (decision 064; signup without a zone keeps UTC).
    expect((await orders()).map((o) => o.due?.toISOString())).toEqual(['2031-05-03T09:00:00.000Z']);
  });
});
