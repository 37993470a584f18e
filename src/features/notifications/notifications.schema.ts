import { z } from '../../shared/zod-setup';
import { messageSchema } from '../../shared/pagination';
import { idField } from '../../shared/validation';

/** What reaches a person (decision 074). */
export const NOTIFICATION_KINDS = [
  'assigned',
  'due-soon',
  'overdue',
  'status-changed',
  'mention',
  'request-approval',
  'purchase-order-approval',
  'low-stock',
  'repeat-failure',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The kinds a role can receive at all: workers approve nothing and see no stock alerts. */
export const KINDS_OF_ROLE: Record<'admin' | 'manager' | 'worker', readonly NotificationKind[]> = {
  admin: NOTIFICATION_KINDS,
  manager: NOTIFICATION_KINDS,
  worker: ['assigned', 'due-soon', 'overdue', 'status-changed', 'mention', 'repeat-failure'],
};

export const CHANNELS = ['inApp', 'email', 'push'] as const;
export type Channel = (typeof CHANNELS)[number];

const flag = z.boolean({ error: 'Choose on or off' });
export const kindChannelsSchema = z.strictObject({ inApp: flag, email: flag, push: flag, digest: flag });
export type KindChannels = z.infer<typeof kindChannelsSchema>;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const timeOfDay = z.string({ error: 'Use HH:MM' }).regex(TIME, 'Use HH:MM');

/** A person's notification preferences: each kind's channels, and quiet hours (the organisation's time zone). */
export const notificationPreferencesSchema = z
  .strictObject({
    kinds: z.strictObject(Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, kindChannelsSchema])) as Record<NotificationKind, typeof kindChannelsSchema>),
    quietStart: timeOfDay.nullable(),
    quietEnd: timeOfDay.nullable(),
  })
  .refine((p) => (p.quietStart === null) === (p.quietEnd === null) && (p.quietStart === null || p.quietStart !== p.quietEnd), {
    message: 'Quiet hours need a start and a different end',
    path: ['quietEnd'],
  });
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

const on = (inApp: boolean, email: boolean, push: boolean, digest = false): KindChannels => ({ inApp, email, push, digest });

/** The defaults of each role: a technician hears of their work on the phone, a manager of approvals by mail. */
export function defaultPreferences(role: 'admin' | 'manager' | 'worker'): NotificationPreferences {
  const worker = role === 'worker';
  return {
    kinds: {
      assigned: on(true, true, true),
      'due-soon': on(true, false, worker),
      overdue: on(true, true, worker),
      'status-changed': on(true, !worker, false),
      mention: on(true, true, true),
      'request-approval': on(true, true, false),
      'purchase-order-approval': on(true, true, false),
      'low-stock': on(true, true, false, true),
      // A machine failing again with the same problem: the people on its work hear of it; managers by e-mail.
      'repeat-failure': on(true, !worker, false),
    },
    quietStart: null,
    quietEnd: null,
  };
}

/** What a notification says, beyond its kind (shown in the bell and the mails in the reader's language). */
export interface NotificationData {
  /** The record's name: a work order's title, a part's name… */
  title?: string;
  /** Its number as people say it (WO-0004, PO-0002). */
  number?: string;
  from?: string;
  to?: string;
  /** A mention: the note's first characters. */
  excerpt?: string;
  actorName?: string;
  /** Low stock: the storeroom and the quantities. */
  location?: string;
  quantity?: number;
  reorderPoint?: number;
  dueDate?: string;
  /** Repeat failure: the asset, the problem, the earlier order and the window. */
  asset?: string;
  problem?: string;
  previous?: string;
  withinDays?: number;
  /** Assigned through a team (a PM plan's team): its name. */
  team?: string;
}

export const notificationItemSchema = z.object({
  id: z.number(),
  kind: z.enum(NOTIFICATION_KINDS),
  entityType: z.string(),
  entityId: z.number(),
  data: z.object({
    title: z.string().optional(),
    number: z.string().optional(),
    from: z.string().optional(),
    to: z.string().optional(),
    excerpt: z.string().optional(),
    actorName: z.string().optional(),
    location: z.string().optional(),
    quantity: z.number().optional(),
    reorderPoint: z.number().optional(),
    dueDate: z.string().optional(),
    asset: z.string().optional(),
    problem: z.string().optional(),
    previous: z.string().optional(),
    withinDays: z.number().optional(),
    team: z.string().optional(),
  }),
  read: z.boolean(),
  createdAt: z.string(),
});
export type NotificationItem = z.infer<typeof notificationItemSchema>;

export const notificationListQuerySchema = z.strictObject({
  unreadOnly: z.enum(['true', 'false']).optional(),
});

export const markReadInputSchema = z.strictObject({
  /** The notifications to mark read; none: all of mine. */
  ids: z.array(z.number().int().min(1).max(2147483647)).max(200).optional(),
});

export const notificationOrgSettingsSchema = z.strictObject({
  dueSoonHours: z
    .number({ error: 'Lead time must be a number of hours' })
    .int('Lead time must be a number of hours')
    .min(1, 'Lead time must be between 1 and 336 hours')
    .max(336, 'Lead time must be between 1 and 336 hours'),
  digestTime: timeOfDay,
});
export type NotificationOrgSettings = z.infer<typeof notificationOrgSettingsSchema>;
export const DEFAULT_ORG_SETTINGS: NotificationOrgSettings = { dueSoonHours: 24, digestTime: '07:00' };

export const followParamsSchema = z.strictObject({
  id: idField('Invalid id'),
});

export const mentionQuerySchema = z.strictObject({
  entityType: z.string().regex(/^[a-z-]{2,40}$/, 'Unknown record type'),
  entityId: idField('Invalid id'),
  q: z.string().max(100).optional(),
});

export const unsubscribeQuerySchema = z.strictObject({ token: z.string().min(10).max(400) });

/** A mention's handle: the name without spaces, e.g. "@JaneDoe" (Arabic letters too). */
export const mentionHandle = (user: { firstName: string; lastName: string }) => `${user.firstName}${user.lastName}`.replace(/\s+/g, '');
/** The handles a note mentions, lower-cased. */
export const mentionedHandles = (note: string) => [...note.matchAll(/(?:^|[^\p{L}\p{N}_])@([\p{L}\p{N}_.-]{2,80})/gu)].map((m) => m[1].toLowerCase());

export const notificationAnswers = {
  list: z.object({ notifications: z.array(notificationItemSchema), unread: z.number() }),
  unread: z.object({ unread: z.number() }),
  preferences: z.object({ preferences: notificationPreferencesSchema, kinds: z.array(z.enum(NOTIFICATION_KINDS)) }),
  orgSettings: z.object({ settings: notificationOrgSettingsSchema }),
  follow: z.object({ following: z.boolean() }),
  mentions: z.object({ users: z.array(z.object({ id: z.number(), firstName: z.string(), lastName: z.string(), handle: z.string() })) }),
  unsubscribed: messageSchema.extend({ kind: z.enum(NOTIFICATION_KINDS) }),
};
