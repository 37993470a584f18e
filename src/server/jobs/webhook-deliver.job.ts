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
export async function registerWebhookDelivery(
  queue: JobQueue,
  database: Database,
  settings: WebhookSettings,
  mailer: Mailer,
  log: { warn(obj: object, msg: string): void },
  onFailed?: (status: 'retrying' | 'failed') => void,
) {
  await queue.createQueue(WEBHOOK_QUEUE);
  const release = useDeliveryQueue(queue);
  await queue.work<DeliveryJob>(WEBHOOK_QUEUE, { batchSize: 10 }, async (jobs) => {
    const results = await Promise.allSettled(
      jobs.map(async ({ data }) => {
        const failure = await deliverWebhook(database.db, data, { settings, mailer });
        // One line per failed try (decision 067): ids, the try's number and outcome, the reason; never the URL,
        // the secret or the body.
        if (failure) {
          log.warn(
            {
              orgId: data.orgId,
              deliveryId: data.deliveryId,
              endpointId: failure.endpointId,
              attempt: failure.attempt,
              status: failure.status,
              reason: failure.error,
            },
            'webhook delivery failed',
          );
          onFailed?.(failure.status);
        }
      }),
    );
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
