import { randomBytes, randomUUID } from 'node:crypto';
import { chunksOf } from '../../server/db/chunks';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import type { JobQueue } from '../../server/jobs/queue';
import { conflict, notFound } from '../../server/http-error';
import { now } from '../../server/clock';
import { pageAndTotal, totalOver } from '../../server/db/paging';
import { pagination } from '../../shared/pagination';
import { webhookDeliveries, webhookEndpoints } from './webhooks.table';
import {
  WEBHOOK_MESSAGES,
  webhookInputSchema,
  webhookUpdateSchema,
  type Delivery,
  type DeliveryListQuery,
  type Webhook,
  type WebhookEvent,
  type WebhookInput,
  type WebhookUpdate,
} from './webhooks.schema';

/** The pg-boss queue of deliveries: one job per try of one delivery. */
export const WEBHOOK_QUEUE = 'webhook-deliver';
export interface DeliveryJob {
  orgId: number;
  deliveryId: number;
  /** Must equal the delivery's `jobSeq`, or the job stands down (a redelivery took over). */
  seq: number;
}

/**
 * The started queues that may carry deliveries (registered by the delivery job at start). A service deep inside a
 * work order's transaction has no app at hand: any started queue of the default schema builds the same insert,
 * and it runs on the caller's transaction, so on the caller's database.
 */
const queues: JobQueue[] = [];
export function useDeliveryQueue(queue: JobQueue) {
  queues.push(queue);
  return () => void queues.splice(queues.indexOf(queue) >>> 0, 1);
}
function deliveryQueue() {
  const queue = queues.at(-1);
  if (!queue) throw new Error('Webhook deliveries need a started job queue');
  return queue;
}

/** Sends the job of a delivery's next try in `tx`, after `delaySeconds`. */
export async function scheduleDelivery(tx: Tx, job: DeliveryJob, delaySeconds = 0) {
  await deliveryQueue().sendInTx(tx, WEBHOOK_QUEUE, job, delaySeconds > 0 ? { startAfter: new Date(Date.now() + delaySeconds * 1000) } : {});
}

export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** An event's data, or a function reading it: called only when an endpoint listens (no read for nobody). */
export type EventData<T> = T | (() => Promise<T>);

/**
 * Announces an event to the organisation's enabled endpoints that subscribe to it: one delivery row and its job
 * per endpoint, in the caller's transaction (they exist only if it commits). Call it where the event happens,
 * with what a receiver needs to act (the record as the API shows it, the change), never a secret.
 */
export async function emitWebhookEvent(tx: Tx, orgId: number, event: WebhookEvent, payload: EventData<Record<string, unknown>>) {
  await emitWebhookEvents(tx, orgId, event, typeof payload === 'function' ? async () => [await payload()] : [payload]);
}

/** `emitWebhookEvent` for many records at once (a plan generating work orders): one read of the endpoints. */
export async function emitWebhookEvents(tx: Tx, orgId: number, event: WebhookEvent, data: EventData<Record<string, unknown>[]>) {
  if (Array.isArray(data) && data.length === 0) return;
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.orgId, orgId), eq(webhookEndpoints.enabled, true), sql`${webhookEndpoints.events} @> ${JSON.stringify([event])}::jsonb`));
  if (endpoints.length === 0) return;
  const payloads = typeof data === 'function' ? await data() : data;
  const at = now();
  const rows = endpoints.flatMap((e) =>
    payloads.map((one) => ({
      orgId,
      endpointId: e.id,
      event,
      messageId: `msg_${randomUUID().replaceAll('-', '')}`,
      // The Standard Webhooks body: type, timestamp, data.
      payload: { type: event, timestamp: at.toISOString(), data: one },
      windowStart: at,
    })),
  );
  for (const chunk of chunksOf(rows, 500)) {
    const created = await tx.insert(webhookDeliveries).values(chunk).returning({ id: webhookDeliveries.id });
    for (const d of created) await scheduleDelivery(tx, { orgId, deliveryId: d.id, seq: 1 });
  }
}

/** `whsec_` and 4 characters: enough to tell two secrets apart, far too little to sign with. */
const SECRET_HINT_LENGTH = 10;

const endpointColumns = {
  id: webhookEndpoints.id,
  url: webhookEndpoints.url,
  description: webhookEndpoints.description,
  events: webhookEndpoints.events,
  // never the secret: it leaves once, in the create and rotate answers
  secretHint: sql<string>`left(${webhookEndpoints.secret}, ${SECRET_HINT_LENGTH})`,
  enabled: webhookEndpoints.enabled,
  disabledAt: webhookEndpoints.disabledAt,
  disabledReason: webhookEndpoints.disabledReason,
  failingSince: webhookEndpoints.failingSince,
  createdAt: webhookEndpoints.createdAt,
};

export async function listWebhooks(tx: ReadTx, orgId: number): Promise<{ webhooks: Webhook[] }> {
  const rows = await tx.select(endpointColumns).from(webhookEndpoints).where(eq(webhookEndpoints.orgId, orgId)).orderBy(desc(webhookEndpoints.id));
  return { webhooks: rows };
}

async function withOne(tx: Tx, orgId: number, id: number) {
  const list = await listWebhooks(tx, orgId);
  const webhook = list.webhooks.find((w) => w.id === id);
  if (!webhook) throw notFound('Webhook');
  return { ...list, webhook };
}

/** Registers an endpoint; its secret is the one given or a new one, answered this once. */
export async function addWebhook(tx: Tx, orgId: number, input: WebhookInput) {
  const data = webhookInputSchema.parse(input);
  const secret = data.secret ?? newWebhookSecret();
  const [row] = await tx
    .insert(webhookEndpoints)
    .values({ orgId, url: data.url, description: data.description ?? null, events: [...new Set(data.events)], secret })
    .returning({ id: webhookEndpoints.id });
  const saved = await withOne(tx, orgId, row.id);
  return { ...saved, webhook: { ...saved.webhook, secret } };
}

/**
 * Replaces an endpoint's signing secret with a new one, answered this once. Every try from now on (retries of
 * older deliveries included) is signed with it.
 */
export async function rotateWebhookSecret(tx: Tx, orgId: number, id: number) {
  const secret = newWebhookSecret();
  const rows = await tx
    .update(webhookEndpoints)
    .set({ secret })
    .where(and(eq(webhookEndpoints.orgId, orgId), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  if (rows.length === 0) throw notFound('Webhook');
  const { webhook } = await withOne(tx, orgId, id);
  return { message: 'Signing secret rotated', webhook: { ...webhook, secret } };
}

/** Changes an endpoint; enabling it again forgets the failures that disabled it. */
export async function updateWebhook(tx: Tx, orgId: number, id: number, input: WebhookUpdate) {
  const data = webhookUpdateSchema.parse(input);
  const rows = await tx
    .update(webhookEndpoints)
    .set({
      url: data.url,
      description: data.description ?? null,
      events: [...new Set(data.events)],
      enabled: data.enabled,
      ...(data.enabled ? { disabledAt: null, disabledReason: null, failingSince: null } : { disabledAt: sql`coalesce(${webhookEndpoints.disabledAt}, now())` }),
    })
    .where(and(eq(webhookEndpoints.orgId, orgId), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  if (rows.length === 0) throw notFound('Webhook');
  return withOne(tx, orgId, id);
}

/** Deletes an endpoint and its deliveries. */
export async function deleteWebhook(tx: Tx, orgId: number, id: number) {
  const rows = await tx
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.orgId, orgId), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  if (rows.length === 0) throw notFound('Webhook');
  return listWebhooks(tx, orgId);
}

const deliveryColumns = {
  id: webhookDeliveries.id,
  webhookId: webhookDeliveries.endpointId,
  url: webhookEndpoints.url,
  event: webhookDeliveries.event,
  messageId: webhookDeliveries.messageId,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  responseCode: webhookDeliveries.responseCode,
  lastError: webhookDeliveries.lastError,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  deliveredAt: webhookDeliveries.deliveredAt,
  createdAt: webhookDeliveries.createdAt,
};

/** Deliveries, newest first, of one endpoint or all; page and total in one statement. */
export async function listDeliveries(tx: ReadTx, orgId: number, query: DeliveryListQuery) {
  const d = webhookDeliveries;
  const where = and(eq(d.orgId, orgId), query.webhookId ? eq(d.endpointId, query.webhookId) : undefined);
  const { rows, total } = await pageAndTotal({ limit: query.pageSize, offset: (query.page - 1) * query.pageSize }, ({ limit, offset }) =>
    tx
      .select({ ...deliveryColumns, total: totalOver() })
      .from(d)
      .leftJoin(webhookEndpoints, and(eq(webhookEndpoints.orgId, d.orgId), eq(webhookEndpoints.id, d.endpointId)))
      .where(where)
      .orderBy(desc(d.id))
      .limit(limit)
      .offset(offset),
  );
  const deliveries: Delivery[] = rows.map(({ total: _total, ...r }) => r);
  return { deliveries, pagination: pagination(total, query.page, query.pageSize) };
}

/** One delivery and the start of its last answer's body; 404 when it is not the organisation's. */
export async function getDelivery(tx: ReadTx, orgId: number, id: number) {
  const d = webhookDeliveries;
  const [row] = await tx
    .select({ ...deliveryColumns, responseBody: d.responseBody })
    .from(d)
    .leftJoin(webhookEndpoints, and(eq(webhookEndpoints.orgId, d.orgId), eq(webhookEndpoints.id, d.endpointId)))
    .where(and(eq(d.orgId, orgId), eq(d.id, id)));
  if (!row) throw notFound('Delivery');
  return { delivery: row };
}

/**
 * Sends a delivery again now, with the same message id (the receiver's idempotency key), and gives it a new
 * retry window. A retry already queued stands down (`jobSeq`).
 */
export async function redeliver(tx: Tx, orgId: number, id: number) {
  const d = webhookDeliveries;
  const [row] = await tx
    .select({ enabled: webhookEndpoints.enabled })
    .from(d)
    .innerJoin(webhookEndpoints, and(eq(webhookEndpoints.orgId, d.orgId), eq(webhookEndpoints.id, d.endpointId)))
    .where(and(eq(d.orgId, orgId), eq(d.id, id)));
  if (!row) throw notFound('Delivery');
  if (!row.enabled) throw conflict(WEBHOOK_MESSAGES.disabled);
  const [updated] = await tx
    .update(d)
    .set({ status: 'pending', jobSeq: sql`${d.jobSeq} + 1`, nextAttemptAt: null, windowStart: now() })
    .where(and(eq(d.orgId, orgId), eq(d.id, id)))
    .returning({ jobSeq: d.jobSeq });
  await scheduleDelivery(tx, { orgId, deliveryId: id, seq: updated.jobSeq });
  const [delivery] = await tx
    .select(deliveryColumns)
    .from(d)
    .leftJoin(webhookEndpoints, and(eq(webhookEndpoints.orgId, d.orgId), eq(webhookEndpoints.id, d.endpointId)))
    .where(and(eq(d.orgId, orgId), eq(d.id, id)));
  return { message: 'Delivery queued', delivery };
}
