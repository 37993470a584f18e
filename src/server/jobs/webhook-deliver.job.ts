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
    const failed = results.filter((r) => r.status === 'rejected');
    for (const r of failed) log.warn({ err: (r.reason as Error).message }, 'webhook delivery failed to record');
    // The batch fails, so pg-boss tries its jobs again: a delivery whose try could not be read or recorded (the
    // database away for a moment) would otherwise stay pending with no job behind it. The ones that settled are
    // skipped on the retry (their status); one sent but not recorded is sent again with the same webhook-id,
    // which receivers use to drop repeats (Standard Webhooks).
    if (failed.length) throw new Error(`${failed.length} webhook deliveries could not be recorded`);
  });
  return release;
}
