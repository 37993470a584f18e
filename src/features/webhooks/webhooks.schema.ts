import { z } from '../../shared/zod-setup';
import { blankToUndefined } from '../../shared/reference-fields';
import { optionalString } from '../../shared/validation';
import { listAnswerSchema, messageSchema, pageQuerySchema } from '../../shared/pagination';

/**
 * The events an endpoint may subscribe to (decision 043). `request.received` is sent by the public
 * request portal when a request arrives (decision 039). Work order events carry the order as the API shows it;
 * the payloads are described in the API document's `webhooks` (webhooks.events.ts).
 */
export const WEBHOOK_EVENTS = [
  'work-order.created',
  'work-order.updated',
  'work-order.assigned',
  'work-order.status-changed',
  'work-order.completed',
  'work-order.repeat-failure',
  'maintenance-request.created',
  'maintenance-request.updated',
  'work-order-share.created',
  'work-order-share.revoked',
  'work-order-share.contractor-updated',
  'request.received',
  'part.stock-below-minimum',
  'quotation.accepted',
  'purchase-order.confirmed',
  'asset.down',
  'asset.up',
  'stock.received',
  'stock.below-reorder-point',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** pending: waiting for its first try; retrying: failed, tried again later; succeeded (2xx); failed: gave up. */
export const DELIVERY_STATUSES = ['pending', 'retrying', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A Standard Webhooks secret: `whsec_` and the base64 of 24 to 64 random bytes. */
export const SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/;

export const WEBHOOK_MESSAGES = {
  url: 'URL is required',
  urlInvalid: 'URL must be an http or https address',
  urlMax: 'URL must be at most 2000 characters',
  urlCredentials: 'URL must not contain a user name or password',
  events: 'Choose at least one event',
  event: 'Unknown event',
  secret: 'Secret must be whsec_ followed by 24 to 64 bytes in base64',
  disabled: 'The endpoint is disabled: enable it first',
} as const;

const urlField = z
  .string({ error: WEBHOOK_MESSAGES.url })
  .trim()
  .min(1, WEBHOOK_MESSAGES.url)
  .max(2000, WEBHOOK_MESSAGES.urlMax)
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return void ctx.addIssue({ code: 'custom', message: WEBHOOK_MESSAGES.urlInvalid });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') ctx.addIssue({ code: 'custom', message: WEBHOOK_MESSAGES.urlInvalid });
    else if (url.username || url.password) ctx.addIssue({ code: 'custom', message: WEBHOOK_MESSAGES.urlCredentials });
  });

const eventsField = z.array(z.enum(WEBHOOK_EVENTS, { error: WEBHOOK_MESSAGES.event }), { error: WEBHOOK_MESSAGES.events }).min(1, WEBHOOK_MESSAGES.events);

export const webhookInputSchema = z.strictObject({
  url: urlField,
  description: optionalString(200),
  events: eventsField,
  /** Left out: one is generated and shown. */
  secret: z.preprocess(blankToUndefined, z.string().trim().regex(SECRET_PATTERN, WEBHOOK_MESSAGES.secret).optional()),
});
export type WebhookInput = z.input<typeof webhookInputSchema>;

export const webhookUpdateSchema = z.strictObject({
  url: urlField,
  description: optionalString(200),
  events: eventsField,
  /** Enabling again clears the failures that disabled it. */
  enabled: z.boolean({ error: 'Enabled must be true or false' }),
});
export type WebhookUpdate = z.input<typeof webhookUpdateSchema>;

export const webhookSchema = z.object({
  id: z.number(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  /** The secret's first characters, to recognise it: the secret itself leaves only in the create and rotate answers. */
  secretHint: z.string(),
  enabled: z.boolean(),
  disabledAt: z.date().nullable(),
  disabledReason: z.string().nullable(),
  failingSince: z.date().nullable(),
  createdAt: z.date(),
});
export type Webhook = z.infer<typeof webhookSchema>;
export const webhookListSchema = z.object({ webhooks: z.array(webhookSchema) });
export const webhookSavedSchema = webhookListSchema.extend({ webhook: webhookSchema });
/** An endpoint with its signing secret: the create and rotate answers only (shown once, like an API key). */
export const webhookWithSecretSchema = webhookSchema.extend({ secret: z.string() });
export const webhookCreatedSchema = webhookListSchema.extend({ webhook: webhookWithSecretSchema });
export const webhookRotatedSchema = messageSchema.extend({ webhook: webhookWithSecretSchema });

export const deliveryListQuerySchema = pageQuerySchema.extend({
  webhookId: z.coerce.number().int().min(1).max(2147483647).optional(),
});
export type DeliveryListQuery = z.infer<typeof deliveryListQuerySchema>;

export const deliverySchema = z.object({
  id: z.number(),
  webhookId: z.number(),
  url: z.string().nullable(),
  event: z.enum(WEBHOOK_EVENTS),
  /** The webhook-id header: the same for every try of this delivery (the receiver's idempotency key). */
  messageId: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number(),
  responseCode: z.number().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.date().nullable(),
  deliveredAt: z.date().nullable(),
  createdAt: z.date(),
});
export type Delivery = z.infer<typeof deliverySchema>;
/** One delivery with the start of the receiver's last answer (at most 1 KB is kept: outbound.ts `keepBytes`). */
export const deliveryDetailSchema = z.object({ delivery: deliverySchema.extend({ responseBody: z.string().nullable() }) });
export const deliveryListSchema = listAnswerSchema('deliveries', deliverySchema);
