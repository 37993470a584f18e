import { z } from '../../shared/zod-setup';
import { workOrderDtoSchema } from '../work-orders/work-orders.schema';
import { maintenanceRequestDtoSchema } from '../maintenance-requests/maintenance-requests.schema';
import { shareDtoSchema } from '../work-order-shares/work-order-shares.schema';
import { WEBHOOK_EVENTS, type WebhookEvent } from './webhooks.schema';

/**
 * What each webhook event's `data` holds (decision 043, 058): the API document describes them (`x-webhooks`,
 * decision 060) from these schemas, and a test parses real deliveries with them, so the two cannot part.
 */
const changes = z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })).describe('Each changed field: `{ from, to }`');
const userIds = z.array(z.number().int());
const commercialDocument = (party: 'customerId' | 'vendorId') =>
  z.object({
    id: z.number().int(),
    number: z.string(),
    [party]: z.number().int().nullable(),
    partyName: z.string().nullable(),
    totalMinorUnits: z.number().int().describe("The total in the currency's minor units"),
    currency: z.string(),
    status: z.string(),
  });

const assetStateChange = z.object({
  id: z.number().int(),
  assetId: z.string(),
  name: z.string(),
  state: z.string().describe('The new state: running, down, standby or planned-maintenance'),
  reason: z.string().nullable(),
  at: z.string().describe('When the state changed (whole minutes)'),
  workOrderId: z.number().int().nullable(),
  maintenanceRequestId: z.number().int().nullable(),
  cascadedAssetIds: z.array(z.number().int()).describe('Child assets that went down with it, or came back up with it'),
});

export const WEBHOOK_EVENT_DATA: Record<WebhookEvent, { summary: string; data: z.ZodType }> = {
  'work-order.created': {
    summary: 'A work order was created',
    data: workOrderDtoSchema.extend({ source: z.string().optional().describe('When a plan made it: which plan, for which due date') }),
  },
  'work-order.updated': { summary: 'A work order was edited', data: workOrderDtoSchema.extend({ changes }) },
  'work-order.assigned': { summary: "A work order's assignees changed", data: workOrderDtoSchema.extend({ added: userIds, removed: userIds }) },
  'work-order.status-changed': { summary: "A work order's status changed", data: workOrderDtoSchema.extend({ from: z.string(), to: z.string() }) },
  'work-order.completed': { summary: 'A work order was completed', data: workOrderDtoSchema },
  'work-order.repeat-failure': {
    summary: 'A work order was closed with the same problem as an earlier one of its asset, within the repeat window (decision 080)',
    data: workOrderDtoSchema.extend({
      previousWorkOrderId: z.number().int().describe('The earlier work order of the same asset and problem'),
      problem: z.string().describe("The problem code's name"),
      withinDays: z.number().int().describe("The organisation's repeat window, in days"),
    }),
  },
  'maintenance-request.created': { summary: 'A maintenance request was created', data: maintenanceRequestDtoSchema },
  'maintenance-request.updated': { summary: 'A maintenance request was edited or changed state', data: maintenanceRequestDtoSchema.extend({ changes }) },
  'work-order-share.created': { summary: 'A work order was shared with a contractor', data: shareDtoSchema },
  'work-order-share.revoked': { summary: "A contractor's share was revoked", data: shareDtoSchema },
  'work-order-share.contractor-updated': {
    summary: 'A contractor reported on a shared work order',
    data: shareDtoSchema.extend({ change: z.string().describe('What the contractor did') }),
  },
  'request.received': {
    summary: 'The request portal received a request',
    data: z.object({
      id: z.number().int(),
      number: z.string(),
      description: z.string(),
      urgency: z.string(),
      target: z.object({ kind: z.enum(['asset', 'work-station']), id: z.number().int(), name: z.string() }).nullable(),
      photos: z.number().int().describe('How many photos came with it'),
    }),
  },
  'part.stock-below-minimum': {
    summary: "A part's stock fell below its minimum",
    data: z.object({ id: z.number().int(), name: z.string(), quantityOnHand: z.number(), minimumQuantity: z.number() }),
  },
  'quotation.accepted': { summary: 'A quotation was accepted', data: commercialDocument('customerId') },
  'purchase-order.confirmed': { summary: 'A purchase order was confirmed', data: commercialDocument('vendorId') },
  'asset.down': { summary: 'An asset went down (decision 079)', data: assetStateChange },
  'asset.up': { summary: 'An asset came back from down (decision 079)', data: assetStateChange },
  'stock.received': {
    summary: "A purchase order's parts were received into a location (decision 081)",
    data: z.object({
      purchaseOrderId: z.number().int(),
      number: z.string(),
      vendorId: z.number().int(),
      location: z.object({ id: z.number().int(), name: z.string() }),
      receivingStatus: z.enum(['not-received', 'partly-received', 'fully-received']),
      lines: z.array(z.object({ partId: z.number().int(), quantity: z.number() })),
    }),
  },
  'stock.below-reorder-point': {
    summary: 'The reorder job found a part below its reorder point at a location and drafted it (decision 081)',
    data: z.object({
      partId: z.number().int(),
      name: z.string(),
      location: z.object({ id: z.number().int(), name: z.string() }),
      available: z.number(),
      onOrder: z.number(),
      reorderPoint: z.number(),
      ordered: z.number(),
      purchaseOrderId: z.number().int(),
    }),
  },
};

/** The body of every delivery: the event, when it happened, and its data. */
export const webhookEnvelopeSchema = <T extends z.ZodType>(event: WebhookEvent, data: T) =>
  z.object({ type: z.literal(event), timestamp: z.iso.datetime({ offset: true }), data });

export const WEBHOOK_SIGNATURE_HEADERS = [
  { name: 'webhook-id', description: "The delivery's message id, the same on every retry: your idempotency key" },
  { name: 'webhook-timestamp', description: 'When it was signed, in Unix seconds: refuse one far from your clock (a replay)' },
  {
    name: 'webhook-signature',
    description:
      '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64 part of the endpoint\'s `whsec_` secret (Standard Webhooks)',
  },
] as const;

export { WEBHOOK_EVENTS };
