import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { orgChildKeys } from '../../server/db/org-keys';
import { createdAtColumn, orgRowColumns, updatedAtColumn } from '../../server/db/columns';

import { users } from '../users/users.table';
import { REPORT_FORMATS, REPORT_FREQUENCIES, type ReportFilters } from './insights-reports.schema';

/**
 * Scheduled insights reports (decision 075): a manager's weekly or monthly summary of the insights screen with
 * its filters, mailed to them and the managers they chose. `nextSendAt` is the next send instant (Monday or the
 * 1st, 07:00 in the organisation's time zone); the job claims it, so each period is sent once.
 */
export const insightsReports = pgTable(
  'insights_reports',
  {
    ...orgRowColumns(),
    ownerId: integer().notNull(),
    frequency: text({ enum: REPORT_FREQUENCIES }).notNull(),
    format: text({ enum: REPORT_FORMATS }).notNull(),
    filters: jsonb().$type<ReportFilters>().notNull(),
    /** Users (managers or admins of the organisation) it goes to; the owner among them. */
    recipientIds: jsonb().$type<number[]>().notNull(),
    nextSendAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    lastSentAt: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [
    ...orgChildKeys(t, t.ownerId, users),
    index('insights_reports_org_owner_idx').on(t.orgId, t.ownerId),
    index('insights_reports_org_next_send_idx').on(t.orgId, t.nextSendAt),
  ],
);
