import { and, desc, eq } from 'drizzle-orm';
import { readOrgRows } from '../../server/db/org-rows';
import type { ReadTx, Tx } from '../../server/db/client';
import type { JobQueue } from '../../server/jobs/queue';
import { pushSubscriptions } from './push.table';
import { users } from '../users/users.table';
import type { PushSubscriptionInput } from './push.schema';

/** What a push notification shows: its title and text, and the app's page a click opens. */
export type PushMessage = { title: string; body: string; url: string; tag?: string };

/** The pg-boss queue of pushes: one job per message and device. */
export const PUSH_QUEUE = 'push-deliver';
export interface PushJob {
  orgId: number;
  subscriptionId: number;
  message: PushMessage;
}
/** A failed try is retried like a webhook delivery: after the base delay, doubled each time, this many times. */
export const PUSH_RETRY_LIMIT = 8;

/**
 * The started queues that may carry pushes (registered by the push job at start), as for webhook deliveries: a
 * service deep inside a transaction has no app at hand; the job is sent on the caller's transaction.
 */
const queues: { queue: JobQueue; retryDelay: number }[] = [];
export function usePushQueue(queue: JobQueue, retryDelay: number) {
  const entry = { queue, retryDelay };
  queues.push(entry);
  return () => void queues.splice(queues.indexOf(entry) >>> 0, 1);
}

/**
 * Queues `message` to every device of the person (decision 075), in the caller's transaction: the jobs exist only if
 * it commits. A person with no subscription costs one indexed read. Without a started queue (a script) nothing is sent.
 */
export async function queuePush(tx: Tx, orgId: number, userId: number, message: PushMessage): Promise<void> {
  const entry = queues.at(-1);
  if (!entry) return;
  const devices = await tx
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.orgId, orgId), eq(pushSubscriptions.userId, userId)));
  for (const device of devices)
    await entry.queue.sendInTx(tx, PUSH_QUEUE, { orgId, subscriptionId: device.id, message } satisfies PushJob, {
      retryLimit: PUSH_RETRY_LIMIT,
      retryDelay: entry.retryDelay,
      retryBackoff: true,
    });
}

const shown = {
  id: pushSubscriptions.id,
  endpoint: pushSubscriptions.endpoint,
  userAgent: pushSubscriptions.userAgent,
  createdAt: pushSubscriptions.createdAt,
  lastSuccessAt: pushSubscriptions.lastSuccessAt,
};

/** The caller's own devices. */
export async function listMySubscriptions(tx: ReadTx, orgId: number, userId: number) {
  const subscriptions = await tx
    .select(shown)
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.orgId, orgId), eq(pushSubscriptions.userId, userId)))
    .orderBy(desc(pushSubscriptions.id));
  return { subscriptions };
}

/**
 * Subscribes this device for the caller. The same endpoint again (the browser's subscription, renewed or on a
 * device another person signed in on before) is taken over: it now reaches the caller only.
 */
export async function addSubscription(tx: Tx, orgId: number, userId: number, input: PushSubscriptionInput) {
  const values = { userId, p256dh: input.keys.p256dh, auth: input.keys.auth, userAgent: input.userAgent ?? null };
  await tx
    .insert(pushSubscriptions)
    .values({ orgId, endpoint: input.endpoint, ...values })
    .onConflictDoUpdate({ target: [pushSubscriptions.orgId, pushSubscriptions.endpoint], set: { ...values, lastSuccessAt: null } });
  return listMySubscriptions(tx, orgId, userId);
}

/** Unsubscribes one of the caller's devices by its endpoint; another person's endpoint is left alone (no error: nothing of theirs to say). */
export async function deleteSubscription(tx: Tx, orgId: number, userId: number, endpoint: string) {
  await tx
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.orgId, orgId), eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
  return listMySubscriptions(tx, orgId, userId);
}

const ASSIGNED_TEXTS = {
  en: (id: number) => `Work order WO-${id} assigned to you`,
  ar: (id: number) => `أُسند إليك أمر العمل WO-${id}`,
} as const;

/**
 * The push of an assignment (decision 075), in each assignee's language: opens the order in the technician's app.
 * Until the notifications core dispatches it, the work orders service calls this where assignees are added.
 */
export async function pushWorkOrderAssigned(tx: Tx, orgId: number, workOrderId: number, title: string, userIds: number[]) {
  if (!userIds.length || !queues.length) return;
  const people = await readOrgRows(tx, users, { id: users.id, language: users.language }, orgId, userIds);
  for (const person of people)
    await queuePush(tx, orgId, person.id, {
      title: ASSIGNED_TEXTS[person.language === 'ar' ? 'ar' : 'en'](workOrderId),
      body: title,
      url: `/dashboard/my-work?open=${workOrderId}`,
      tag: `work-order-${workOrderId}`,
    });
}
