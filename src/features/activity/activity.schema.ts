import { z } from '../../shared/zod-setup';
import { requiredString, idField } from '../../shared/validation';

export const activityParamsSchema = z.strictObject({
  entityType: z.string().regex(/^[a-z-]{2,40}$/, 'Unknown record type'),
  entityId: idField('Invalid id'),
});

export const noteInputSchema = z.strictObject({
  note: requiredString('Note is required').max(5000, 'Note must be at most 5000 characters'),
});
export type NoteInput = z.infer<typeof noteInputSchema>;

/** One line of a record's history as the Note Logs tab shows it. */
export const activityItemSchema = z.object({
  id: z.number(),
  action: z.enum(['created', 'updated', 'status', 'deleted', 'note', 'attachment']),
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })).nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
  user: z.object({ id: z.number(), firstName: z.string(), lastName: z.string() }).nullable(),
  /** A contractor's name when one did it through a shared work order (shown "<name> (contractor)"). */
  contractor: z.string().nullable().optional(),
});
export type ActivityItem = z.infer<typeof activityItemSchema>;

/** One line of the organisation's latest activity (the notifications bell). */
export const recentActivitySchema = activityItemSchema.extend({
  entityType: z.string(),
  entityId: z.number(),
  /** e.g. "User #3" */
  label: z.string(),
});
export type RecentActivity = z.infer<typeof recentActivitySchema>;

/**
 * The bell's topics (notification settings): which record types each one covers. A record type in no topic
 * is always shown, so a new feature's events are never silently hidden.
 */
export const NOTIFICATION_TOPICS = {
  maintenance: ['work-order', 'maintenance-order', 'maintenance-request'],
  catalog: ['asset', 'part', 'service', 'work-station'],
  purchasing: ['quotation', 'purchase-order', 'customer-vendor'],
  people: ['user', 'team'],
  settings: ['product-category', 'tax', 'uom', 'uom-category', 'asset-category', 'time-tracking-reason'],
} as const;
export type NotificationTopic = keyof typeof NOTIFICATION_TOPICS;

const topicFlag = z.boolean({ error: 'Choose on or off' });
export const notificationSettingsSchema = z.strictObject({
  maintenance: topicFlag,
  catalog: topicFlag,
  purchasing: topicFlag,
  people: topicFlag,
  settings: topicFlag,
  /** Also show what I did myself. */
  ownActions: topicFlag,
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

/** The activity routes' answers (issue 28). */
export const activityAnswers = {
  history: z.object({ activities: z.array(activityItemSchema) }),
  recent: z.object({ activities: z.array(recentActivitySchema) }),
  settings: z.object({ notificationSettings: z.object(notificationSettingsSchema.shape) }),
};

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  maintenance: true,
  catalog: true,
  purchasing: true,
  people: true,
  settings: true,
  ownActions: true,
};
