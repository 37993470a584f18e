import type { Database } from '../db/client';
import type { VapidKeys, WebhookSettings } from '../env';
import type { JobQueue } from './queue';
import { PUSH_QUEUE, usePushQueue, type PushJob } from '../../features/push/push.service';
import { deliverPush } from '../../features/push/push.delivery';

/**
 * Web Push deliveries (decision 075): one job per message and device, sent in the transaction of the event
 * (`queuePush`). A failed try throws and pg-boss retries it with the webhooks' base delay, doubled each time.
 * Outbound addresses follow the webhooks' rule (WEBHOOK_ALLOW_PRIVATE_ADDRESSES). Returns the function that
 * stops this queue carrying new pushes.
 */
export async function registerPushDelivery(
  queue: JobQueue,
  database: Database,
  vapid: VapidKeys,
  webhooks: Pick<WebhookSettings, 'allowPrivate' | 'timeoutMs' | 'retryBaseSeconds'>,
  log: { warn(obj: object, msg: string): void },
) {
  await queue.createQueue(PUSH_QUEUE);
  const release = usePushQueue(queue, webhooks.retryBaseSeconds);
  await queue.work<PushJob>(PUSH_QUEUE, { batchSize: 1 }, async ([job]) => {
    if (!job) return;
    const outcome = await deliverPush(database.db, job.data, { vapid, allowPrivate: webhooks.allowPrivate, timeoutMs: webhooks.timeoutMs });
    // The line holds ids only: never the endpoint (it is a bearer capability) nor the message.
    if (outcome === 'gone') log.warn({ orgId: job.data.orgId, subscriptionId: job.data.subscriptionId }, 'push subscription gone: dropped');
  });
  return release;
}
