import type { Database } from '../db/client';
import type { WebhookSettings } from '../env';
import type { Mailer } from '../mailer';
import type { JobQueue } from './queue';
import { useDeliveryQueue, WEBHOOK_QUEUE, type DeliveryJob } from '../../features/webhooks/webhooks.service';
import { deliverWebhook } from '../../features/webhooks/webhooks.delivery';

/**
 * Webhook deliveries (decision 043): one job per try, sent in the transaction of the event (or of the try before,
 * with its backoff as `startAfter`). Up to ten tries run at once per instance, so one slow receiver does not
 * hold up the others. Returns the function that stops this queue carrying new deliveries.
 */
export async function registerWebhookDelivery(queue: JobQueue, database: Database, settings: WebhookSettings, mailer: Mailer, log: { warn(obj: object, msg: string): void }) {
  await queue.createQueue(WEBHOOK_QUEUE);
  const release = useDeliveryQueue(queue);
  await queue.boss.work<DeliveryJob>(WEBHOOK_QUEUE, { batchSize: 10 }, async (jobs) => {
    const results = await Promise.allSettled(jobs.map((job) => deliverWebhook(database.db, job.data, { settings, mailer })));
    for (const r of results) if (r.status === 'rejected') log.warn({ err: (r.reason as Error).message }, 'webhook delivery failed to record');
  });
  return release;
}
