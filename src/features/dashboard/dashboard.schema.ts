import { z } from '../../shared/zod-setup';
import { blankToUndefined } from '../../shared/reference-fields';
import { timeZoneField } from '../../shared/dates';
import { recentActivitySchema } from '../activity/activity.schema';

/** GET /api/dashboard/get-attention: the reader's time zone decides where "today" starts. */
export const attentionQuerySchema = z.object({
  timeZone: z.preprocess(blankToUndefined, timeZoneField.optional()),
});

/** What needs attention (decision 066); a worker's work-order figures are their own orders. */
export const attentionSchema = z.object({
  /** Open work orders due before now. */
  overdue: z.number(),
  /** Open work orders due from now to the end of today. */
  dueToday: z.number(),
  /** Maintenance requests new, approved or in progress. */
  openRequests: z.number(),
  /** Open work orders of preventive-maintenance plans due from now to the end of the sixth day after today. */
  pmDueThisWeek: z.number(),
  /** Stockable parts under their minimum quantity. */
  partsBelowMinimum: z.number(),
});
export type Attention = z.infer<typeof attentionSchema>;

/** The maintenance-request states counted as open. */
export const OPEN_REQUEST_STATES = ['new', 'approved', 'in-progress'] as const;

/** One line of the latest activity: repeats of the same change to the same record by the same person merged. */
export const latestActivitySchema = recentActivitySchema.extend({
  /** The record's own name (a work order's title, a user's name), null when it is gone. */
  name: z.string().nullable(),
  /** How many entries this line stands for (1 when it was not repeated). */
  repeats: z.number(),
});
export type LatestActivity = z.infer<typeof latestActivitySchema>;

export const dashboardAnswers = {
  attention: z.object({ attention: attentionSchema }),
  latest: z.object({ activities: z.array(latestActivitySchema) }),
};
