import { z } from '../../shared/zod-setup';

export const PUSH_MESSAGES = {
  endpoint: 'Endpoint must be an https URL',
  keys: 'Subscription keys are required',
  off: 'Push notifications are not configured on this server',
} as const;

const base64url = z
  .string()
  .regex(/^[A-Za-z0-9_-]+={0,2}$/, PUSH_MESSAGES.keys)
  .min(16, PUSH_MESSAGES.keys)
  .max(200, PUSH_MESSAGES.keys);

/** The browser's PushSubscription as `toJSON()` gives it (its expirationTime ignored), plus the device's user agent. */
export const pushSubscriptionInputSchema = z.strictObject({
  endpoint: z.url({ protocol: /^https?$/, error: PUSH_MESSAGES.endpoint }).max(2000, PUSH_MESSAGES.endpoint),
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({ p256dh: base64url, auth: base64url }, { error: PUSH_MESSAGES.keys }),
  userAgent: z.string().max(500).optional(),
});
export type PushSubscriptionInput = z.input<typeof pushSubscriptionInputSchema>;

export const pushUnsubscribeSchema = z.strictObject({ endpoint: z.string().min(1, PUSH_MESSAGES.endpoint).max(2000, PUSH_MESSAGES.endpoint) });

/** A subscription as its owner sees it: never its keys. */
export const pushSubscriptionSchema = z.object({
  id: z.number(),
  endpoint: z.string(),
  userAgent: z.string().nullable(),
  createdAt: z.date(),
  lastSuccessAt: z.date().nullable(),
});
export const pushSubscriptionListSchema = z.object({ subscriptions: z.array(pushSubscriptionSchema) });
export const pushPublicKeySchema = z.object({ publicKey: z.string().nullable() });
