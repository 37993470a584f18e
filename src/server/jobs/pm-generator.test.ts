import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { withTenant } from '../db/client';
import { assetCategories, assets, workOrders } from '../db/schema';
import { setClockOffset } from '../clock';
import { createOrg, useTestApp } from '../test/harness';
import { PM_GENERATOR_CRON, PM_GENERATOR_QUEUE } from './pm-generator.job';

const t = useTestApp();
afterEach(() => setClockOffset(0));

describe('the preventive maintenance generator job', () => {
  it('is scheduled every 5 minutes on the queue, and a job run creates the due work orders', { timeout: 60_000 }, async () => {
    const { boss } = t.app.deps.jobs.queue;
    const schedules = await boss.getSchedules();
    expect(schedules.find((s) => s.name === PM_GENERATOR_QUEUE)?.cron).toBe(PM_GENERATOR_CRON);

    const org = await createOrg(t);
    const assetId = await withTenant(t.database.db, org.orgId, async (tx) => {
      const [category] = await tx.insert(assetCategories).values({ orgId: org.orgId, name: 'Pumps', code: 'PMP' }).returning();
      const [asset] = await tx.insert(assets).values({ orgId: org.orgId, name: 'Pump', date: '2024-01-01', assetCategoryId: category.id }).returning();
      return asset.id;
    });
    setClockOffset(Date.parse('2031-05-01T10:00:00Z') - Date.now());
    const res = await org.admin.post('/api/pm-plans/add-plan', {
      name: 'Daily',
      assetIds: [assetId],
      title: 'Check the pump',
      frequency: 'daily',
      startDate: '2031-05-03',
    });
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
