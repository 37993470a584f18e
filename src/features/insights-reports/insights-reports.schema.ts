import { z } from '../../shared/zod-setup';
import { analyticsFilterFields, type DayRange } from '../analytics/analytics.schema';

export const REPORT_FREQUENCIES = ['weekly', 'monthly'] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];
/** `pdf`: the summary attached as a PDF (a short text body); `html`: the summary in the mail's body. */
export const REPORT_FORMATS = ['pdf', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const REPORT_MESSAGES = {
  frequency: 'Frequency must be weekly or monthly',
  format: 'Format must be pdf or html',
  recipients: 'Recipients must be managers of the organisation',
  added: 'Report scheduled',
  updated: 'Report updated',
  deleted: 'Report deleted',
} as const;

/** The insights screen's filters (analytics.schema.ts FILTER_KEYS); the range is the report's period. */
export const reportFiltersSchema = z.strictObject(analyticsFilterFields);
export type ReportFilters = z.output<typeof reportFiltersSchema>;

export const insightsReportInputSchema = z.strictObject({
  frequency: z.enum(REPORT_FREQUENCIES, { error: REPORT_MESSAGES.frequency }),
  format: z.enum(REPORT_FORMATS, { error: REPORT_MESSAGES.format }),
  filters: reportFiltersSchema.default({}),
  /** Other managers it also goes to (the owner always gets it). */
  recipientIds: z.array(z.coerce.number().int().positive(), { error: REPORT_MESSAGES.recipients }).max(50, REPORT_MESSAGES.recipients).default([]),
});
export type InsightsReportInput = z.input<typeof insightsReportInputSchema>;

export const insightsReportSchema = z.object({
  id: z.number(),
  frequency: z.enum(REPORT_FREQUENCIES),
  format: z.enum(REPORT_FORMATS),
  filters: reportFiltersSchema,
  recipientIds: z.array(z.number()),
  nextSendAt: z.date(),
  lastSentAt: z.date().nullable(),
  createdAt: z.date(),
});
export type InsightsReport = z.infer<typeof insightsReportSchema>;
export const insightsReportListSchema = z.object({ reports: z.array(insightsReportSchema) });
export const insightsReportSavedSchema = insightsReportListSchema.extend({ message: z.string(), report: insightsReportSchema });
export const insightsReportDeletedSchema = insightsReportListSchema.extend({ message: z.string() });

/** A report's figures (the insights screen's, for the period and filters). */
export interface ReportFigures {
  range: DayRange;
  openNow: number;
  overdueNow: number;
  created: number;
  completed: number;
  mttrHours: number | null;
  plannedShare: number | null;
  pmCompliance: number | null;
  costMinor: number;
  currency: string;
}
