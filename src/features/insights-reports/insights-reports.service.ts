import { and, desc, eq, inArray, lte } from 'drizzle-orm';
import type { Database, ReadTx, Tx } from '../../server/db/client';
import { withTenant } from '../../server/db/client';
import { badRequest, notFound } from '../../server/http-error';
import type { Mailer } from '../../server/mailer';
import { now } from '../../server/clock';
import { mailLanguage } from '../../server/mail-language';
import { organizations } from '../organization/organization.table';
import { users } from '../users/users.table';
import {
  backlogFigures,
  complianceFigures,
  costFigures,
  mttrFigures,
  orgTimeZone,
  plannedShareFigures,
  throughputFigures,
} from '../analytics/analytics.service';
import type { DayRange } from '../analytics/analytics.schema';
import { insightsReports } from './insights-reports.table';
import {
  insightsReportInputSchema,
  REPORT_MESSAGES,
  type InsightsReportInput,
  type ReportFilters,
  type ReportFigures,
  type ReportFrequency,
} from './insights-reports.schema';
import { nextSendAt, reportPeriod } from './insights-reports.schedule';
import { reportMail } from './insights-reports.mail';
import { pick } from '../../shared/pick';
import { eachOrganisation, organisationIds } from '../../server/jobs/per-organisation';

const r = insightsReports;
const shown = {
  ...pick(r, 'id', 'frequency', 'format', 'filters', 'recipientIds', 'nextSendAt', 'lastSentAt', 'createdAt'),
};
const own = (orgId: number, ownerId: number, id: number) => and(eq(r.orgId, orgId), eq(r.ownerId, ownerId), eq(r.id, id));

/** The caller's scheduled reports (each manager keeps their own). */
export async function listInsightsReports(tx: ReadTx, orgId: number, ownerId: number) {
  const reports = await tx
    .select(shown)
    .from(r)
    .where(and(eq(r.orgId, orgId), eq(r.ownerId, ownerId)))
    .orderBy(desc(r.id));
  return { reports };
}

/** Managers and admins of the organisation among `ids`, active. */
async function managersAmong(tx: ReadTx, orgId: number, ids: number[]) {
  if (!ids.length) return [];
  return tx
    .select({ id: users.id, email: users.email, language: users.language })
    .from(users)
    .where(and(eq(users.orgId, orgId), inArray(users.id, ids), inArray(users.role, ['admin', 'manager']), eq(users.inviteStatus, 'ACTIVE')));
}

/** The recipients: the owner first, then the other managers chosen; anyone else is refused. */
async function checkedRecipients(tx: ReadTx, orgId: number, ownerId: number, ids: number[]) {
  const wanted = [...new Set([ownerId, ...ids])];
  const found = await managersAmong(tx, orgId, wanted);
  if (found.length !== wanted.length) throw badRequest(REPORT_MESSAGES.recipients, 'recipientIds');
  return wanted;
}

const cleanFilters = (f: ReportFilters): ReportFilters =>
  Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== null)) as ReportFilters;

export async function addInsightsReport(tx: Tx, orgId: number, ownerId: number, body: InsightsReportInput) {
  const input = insightsReportInputSchema.parse(body);
  const recipientIds = await checkedRecipients(tx, orgId, ownerId, input.recipientIds);
  const zone = await orgTimeZone(tx, orgId);
  const [created] = await tx
    .insert(r)
    .values({
      orgId,
      ownerId,
      frequency: input.frequency,
      format: input.format,
      filters: cleanFilters(input.filters),
      recipientIds,
      nextSendAt: nextSendAt(input.frequency, now(), zone),
    })
    .returning({ id: r.id });
  return { message: REPORT_MESSAGES.added, report: await readReport(tx, orgId, ownerId, created.id), ...(await listInsightsReports(tx, orgId, ownerId)) };
}

async function readReport(tx: ReadTx, orgId: number, ownerId: number, id: number) {
  const [row] = await tx
    .select(shown)
    .from(r)
    .where(own(orgId, ownerId, id));
  if (!row) throw notFound('Report');
  return row;
}

export async function updateInsightsReport(tx: Tx, orgId: number, ownerId: number, id: number, body: InsightsReportInput) {
  const input = insightsReportInputSchema.parse(body);
  const before = await readReport(tx, orgId, ownerId, id);
  const recipientIds = await checkedRecipients(tx, orgId, ownerId, input.recipientIds);
  const zone = await orgTimeZone(tx, orgId);
  await tx
    .update(r)
    .set({
      frequency: input.frequency,
      format: input.format,
      filters: cleanFilters(input.filters),
      recipientIds,
      // Another frequency: its own next send; the same: the send already planned stays.
      ...(input.frequency !== before.frequency ? { nextSendAt: nextSendAt(input.frequency, now(), zone) } : {}),
    })
    .where(own(orgId, ownerId, id));
  return { message: REPORT_MESSAGES.updated, report: await readReport(tx, orgId, ownerId, id), ...(await listInsightsReports(tx, orgId, ownerId)) };
}

export async function deleteInsightsReport(tx: Tx, orgId: number, ownerId: number, id: number) {
  const [gone] = await tx
    .delete(r)
    .where(own(orgId, ownerId, id))
    .returning({ id: r.id });
  if (!gone) throw notFound('Report');
  return { message: REPORT_MESSAGES.deleted, ...(await listInsightsReports(tx, orgId, ownerId)) };
}

/** The summary's figures, read with the insights screen's own functions for the period and filters. */
export async function reportFigures(
  tx: ReadTx,
  orgId: number,
  period: { current: DayRange; previous: DayRange },
  f: ReportFilters,
  at: Date,
  zone: string,
): Promise<ReportFigures> {
  const { current, previous } = period;
  const backlog = await backlogFigures(tx, orgId, current, f, at, zone);
  const throughput = await throughputFigures(tx, orgId, current, previous, f, zone);
  const mttr = await mttrFigures(tx, orgId, current, previous, f, zone);
  const planned = await plannedShareFigures(tx, orgId, current, previous, f, zone);
  const compliance = await complianceFigures(tx, orgId, current, previous, f, at, zone);
  const costs = await costFigures(tx, orgId, current, previous, f, zone);
  return {
    range: current,
    openNow: backlog.openNow,
    overdueNow: backlog.overdueNow,
    created: throughput.created.current ?? 0,
    completed: throughput.completed.current ?? 0,
    mttrHours: mttr.overall.meanHours,
    plannedShare: planned.plannedOrderShare.current,
    pmCompliance: compliance.rate.current,
    costMinor: costs.total.current ?? 0,
    currency: costs.currency,
  };
}

/**
 * The reports of one organisation whose send time has come (the `insights-reports` job): each is claimed by moving
 * its `nextSendAt` on (to the next period after now: a server down for weeks sends one report, not a backlog), and
 * its mail, one per recipient in their language, goes into the outbox in the same transaction: once per period.
 * Recipients who are no longer managers get nothing.
 */
export async function sendDueReports(tx: Tx, orgId: number, mailer: Mailer, at: Date = now()): Promise<number> {
  const due = await tx
    .select()
    .from(r)
    .where(and(eq(r.orgId, orgId), lte(r.nextSendAt, at)));
  if (!due.length) return 0;
  const zone = await orgTimeZone(tx, orgId);
  const [org] = await tx.select({ name: organizations.organization }).from(organizations).where(eq(organizations.id, orgId));
  let sent = 0;
  for (const report of due) {
    const [claimed] = await tx
      .update(r)
      .set({ nextSendAt: nextSendAt(report.frequency as ReportFrequency, at, zone), lastSentAt: at })
      .where(and(eq(r.orgId, orgId), eq(r.id, report.id), eq(r.nextSendAt, report.nextSendAt)))
      .returning({ id: r.id });
    if (!claimed) continue;
    const period = reportPeriod(report.frequency as ReportFrequency, report.nextSendAt, zone);
    const figures = await reportFigures(tx, orgId, period, report.filters, at, zone);
    const recipients = await managersAmong(tx, orgId, report.recipientIds);
    for (const person of recipients) {
      const mail = await reportMail(mailLanguage(person.language), report.format, report.frequency as ReportFrequency, org?.name ?? '', figures);
      await mailer.send({ to: person.email, ...mail }, tx);
    }
    sent++;
  }
  return sent;
}

/** One run over every organisation, each in its own transaction; a failing one is logged and the others go on. */
export async function runInsightsReports(database: Database, mailer: Mailer, log?: { warn(obj: object, msg: string): void }, at: Date = now()) {
  const orgIds = await organisationIds(database.db);
  let sent = 0;
  const failed = await eachOrganisation(orgIds, 'insights reports', log, async (orgId) => {
    sent += await withTenant(database.db, orgId, (tx) => sendDueReports(tx, orgId, mailer, at), { long: true });
  });
  if (failed.length) throw new Error(`insights reports: ${failed.length} organisation(s) failed`);
  return { sent };
}
