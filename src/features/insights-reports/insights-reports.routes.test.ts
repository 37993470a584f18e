import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { emailOfUser, useOrgs, useTestApp, type TestOrg } from '../../server/test/harness';
import { withoutTenant, withTenant } from '../../server/db/client';
import { mailOutbox } from '../../server/db/schema';
import { setClockOffset } from '../../server/clock';
import { organizations } from '../organization/organization.table';
import { users } from '../users/users.table';
import { workOrders } from '../work-orders/work-orders.table';
import { sendDueReports } from './insights-reports.service';
import { reportLines } from './insights-reports.mail';
import type { ReportFigures } from './insights-reports.schema';

// Decision 075: scheduled insights reports, sent once per period at 07:00 in the organisation's time zone.

const t = useTestApp();
const [a, b] = useOrgs(t, 'Alpha', 'Beta');

beforeAll(async () => {
  await withTenant(t.database.db, a.orgId, (tx) => tx.update(organizations).set({ timeZone: 'Asia/Riyadh' }).where(eq(organizations.id, a.orgId)));
});
afterEach(() => setClockOffset(0));

const emailOf = (org: TestOrg, userId: number) => emailOfUser(t, org.orgId, userId);
const mailsTo = (email: string) => withoutTenant(t.database.db, (tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.to, email)));
const run = (org: TestOrg, at: Date) => withTenant(t.database.db, org.orgId, (tx) => sendDueReports(tx, org.orgId, t.app.deps.mailer, at));
const minutes = (d: Date, n: number) => new Date(d.getTime() + n * 60_000);

/** The insights API's figures for a range and filters, read at `at` (the clock moved there). */
async function apiFigures(org: TestOrg, range: { from: string; to: string }, filters: string, at: Date): Promise<ReportFigures> {
  setClockOffset(at.getTime() - Date.now());
  const q = `range=custom&from=${range.from}&to=${range.to}&${filters}`;
  const get = async (name: string) => (await org.admin.get(`/api/analytics/${name}?${q}`)).body;
  const [backlog, throughput, repair, planned, compliance, costs] = await Promise.all(
    ['get-backlog', 'get-throughput', 'get-repair-times', 'get-planned-share', 'get-pm-compliance', 'get-costs'].map(get),
  );
  setClockOffset(0);
  return {
    range,
    openNow: backlog.openNow,
    overdueNow: backlog.overdueNow,
    created: throughput.created.current ?? 0,
    completed: throughput.completed.current ?? 0,
    mttrHours: repair.mttr.overall.meanHours,
    plannedShare: planned.plannedOrderShare.current,
    pmCompliance: compliance.rate.current,
    costMinor: costs.total.current ?? 0,
    currency: costs.currency,
  };
}

describe('scheduled insights reports', () => {
  it('sends the weekly summary once, on Monday at 07:00 local, with the filters applied, in each recipient language', async () => {
    const manager = await a.as('manager');
    const colleague = await a.as('manager');
    const worker = await a.as('worker');
    await withTenant(t.database.db, a.orgId, (tx) =>
      tx
        .update(users)
        .set({ language: 'ar' })
        .where(and(eq(users.orgId, a.orgId), eq(users.id, colleague.userId))),
    );
    const added = await manager.post('/api/insights-reports/add-report', {
      frequency: 'weekly',
      format: 'html',
      filters: { assigneeId: worker.userId },
      recipientIds: [colleague.userId],
    });
    expect(added.status).toBe(201);
    const report = added.body.report;
    expect(report.recipientIds).toEqual([manager.userId, colleague.userId]);
    // Monday 07:00 in Riyadh (UTC+3) is 04:00 UTC.
    const sendAt = new Date(report.nextSendAt);
    expect(sendAt.getUTCDay()).toBe(1);
    expect(sendAt.toISOString().slice(11, 16)).toBe('04:00');
    expect(sendAt.getTime()).toBeGreaterThan(Date.now());
    expect(sendAt.getTime() - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);

    // The week before the Monday, in Riyadh's days; the figures are the insights API's for that range and filter.
    const monday = new Date(sendAt.getTime() + 3 * 3600_000).toISOString().slice(0, 10);
    const from = new Date(Date.parse(`${monday}T00:00:00Z`) - 7 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.parse(`${monday}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

    // Two orders of the worker (in the report) and one of nobody (filtered out), created in the reported week:
    // on its first day at noon in Riyadh, whatever the hour the test runs (late on a Sunday in UTC it is Monday there).
    const ids: number[] = [];
    for (const title of ['Mine 1', 'Mine 2'])
      ids.push(
        (await manager.post('/api/work-orders/add-work-order', { title, priority: 'low', status: 'assigned', assignees: [worker.userId] })).body.workOrder.id,
      );
    ids.push((await manager.post('/api/work-orders/add-work-order', { title: 'Not mine', priority: 'low', status: 'assigned' })).body.workOrder.id);
    await withTenant(t.database.db, a.orgId, (tx) =>
      tx
        .update(workOrders)
        .set({ createdAt: new Date(`${from}T09:00:00Z`) })
        .where(and(eq(workOrders.orgId, a.orgId), inArray(workOrders.id, ids))),
    );

    const managerEmail = await emailOf(a, manager.userId);
    const colleagueEmail = await emailOf(a, colleague.userId);
    expect(await run(a, minutes(sendAt, -1))).toBe(0);
    expect(await mailsTo(managerEmail)).toHaveLength(0);
    const at = minutes(sendAt, 3);
    expect(await run(a, at)).toBe(1);
    expect(await run(a, minutes(at, 20))).toBe(0);
    const [mail] = await mailsTo(managerEmail);
    const [arabic] = await mailsTo(colleagueEmail);
    expect(await mailsTo(managerEmail)).toHaveLength(1);
    expect(mail.subject).toContain('Weekly insights summary');
    expect(arabic.subject).toContain('ملخص المؤشرات الأسبوعي');
    expect(arabic.html).toContain('dir="rtl"');

    expect(mail.text).toContain(`Period: ${from} to ${to}`);
    const expected = await apiFigures(a, { from, to }, `assigneeId=${worker.userId}`, at);
    expect(expected.created).toBe(2);
    for (const [label, value] of reportLines('en', expected)) expect(mail.text).toContain(`${label}: ${value}`);
    for (const [label, value] of reportLines('ar', expected)) expect(arabic.text).toContain(`${label}: ${value}`);
    expect(mail.text).toContain('Work orders created: 2');

    // The next one is a week later.
    const list = await manager.get('/api/insights-reports/list-reports');
    expect(new Date(list.body.reports[0].nextSendAt).getTime()).toBe(sendAt.getTime() + 7 * 86_400_000);
    expect(list.body.reports[0].lastSentAt).not.toBeNull();
  });

  it('a monthly PDF report leaves on the 1st at 07:00 local with the summary attached', async () => {
    const manager = await a.as('manager');
    const added = await manager.post('/api/insights-reports/add-report', { frequency: 'monthly', format: 'pdf' });
    expect(added.status).toBe(201);
    const sendAt = new Date(added.body.report.nextSendAt);
    const local = new Date(sendAt.getTime() + 3 * 3600_000);
    expect(local.getUTCDate()).toBe(1);
    expect(local.toISOString().slice(11, 16)).toBe('07:00');
    await run(a, minutes(sendAt, 1));
    const [mail] = await mailsTo(await emailOf(a, manager.userId));
    expect(mail.subject).toContain('Monthly insights summary');
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments![0].contentType).toBe('application/pdf');
    const pdf = Buffer.from(mail.attachments![0].content, 'base64').toString('latin1');
    expect(pdf.startsWith('%PDF')).toBe(true);
    expect(pdf).toContain('Monthly insights summary');
  });

  it('is for managers only: workers cannot schedule, receive or be chosen; a demoted recipient gets nothing', async () => {
    const manager = await a.as('manager');
    const worker = await a.as('worker');
    expect((await worker.get('/api/insights-reports/list-reports')).status).toBe(403);
    expect((await worker.post('/api/insights-reports/add-report', { frequency: 'weekly', format: 'html' })).status).toBe(403);
    const refused = await manager.post('/api/insights-reports/add-report', { frequency: 'weekly', format: 'html', recipientIds: [worker.userId] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('Recipients must be managers of the organisation');

    const colleague = await a.as('manager');
    const added = await manager.post('/api/insights-reports/add-report', { frequency: 'weekly', format: 'html', recipientIds: [colleague.userId] });
    await withTenant(t.database.db, a.orgId, (tx) =>
      tx
        .update(users)
        .set({ role: 'worker' })
        .where(and(eq(users.orgId, a.orgId), eq(users.id, colleague.userId))),
    );
    await run(a, minutes(new Date(added.body.report.nextSendAt), 1));
    expect(await mailsTo(await emailOf(a, manager.userId))).toHaveLength(1);
    expect(await mailsTo(await emailOf(a, colleague.userId))).toHaveLength(0);
  });

  it('another organisation, or another manager, gets 404 and changes nothing', async () => {
    const manager = await a.as('manager');
    const added = await manager.post('/api/insights-reports/add-report', { frequency: 'weekly', format: 'html' });
    const id = added.body.report.id;
    const before = JSON.stringify((await manager.get('/api/insights-reports/list-reports')).body);
    const body = { frequency: 'monthly', format: 'pdf' };
    expect((await b.admin.put(`/api/insights-reports/update-report/${id}`, body)).status).toBe(404);
    expect((await b.admin.del(`/api/insights-reports/delete-report/${id}`)).status).toBe(404);
    expect((await b.admin.get('/api/insights-reports/list-reports')).body.reports).toEqual([]);
    const other = await a.as('manager');
    expect((await other.put(`/api/insights-reports/update-report/${id}`, body)).status).toBe(404);
    expect((await other.del(`/api/insights-reports/delete-report/${id}`)).status).toBe(404);
    expect(JSON.stringify((await manager.get('/api/insights-reports/list-reports')).body)).toBe(before);
    // The owner changes and deletes it.
    const updated = await manager.put(`/api/insights-reports/update-report/${id}`, body);
    expect(updated.body.report).toMatchObject({ frequency: 'monthly', format: 'pdf' });
    expect((await manager.del(`/api/insights-reports/delete-report/${id}`)).body.reports).toEqual([]);
  });
});
