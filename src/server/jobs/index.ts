import type { Database } from '../db/client';
import type { Config } from '../env';
import { registerWebhookDelivery } from './webhook-deliver.job';
import { registerPushDelivery } from './push-deliver.job';
import { registerInsightsReports } from './insights-reports.job';
import { createMailer, deliverOutboxBatch, MAIL_BATCH, MAIL_QUEUE, smtpSender, type Mail, type MailLog, type Mailer } from '../mailer';
import { registerCleanup } from './cleanup.job';
import { registerAuditRetention } from './audit-retention.job';
import { createAnchorKeys } from '../../features/audit/audit-anchor';
import { registerPmGenerator } from './pm-generator.job';
import { registerNotifications } from './notifications.job';
import { registerStockReorder } from './stock-reorder.job';
import { createJobQueue, type JobQueue, type JobQueueOptions } from './queue';

/**
 * Background work (decision 027): one pg-boss queue per kind of job, each registered here. To add one: a
 * `<name>.job.ts` beside this file with its queue name, handler and (when periodic) its cron, registered in
 * `start` below (its worker through `queue.work`, which logs and counts a failure: decision 067); enqueue it with
 * `queue.sendInTx(tx, name, data)` from the transaction that causes it.
 */
export interface Jobs {
  queue: JobQueue;
  mailer: Mailer;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** True once `start` finished and until `stop` (`/api/ready`). */
  ready?(): boolean;
}

export interface JobsOptions extends Omit<JobQueueOptions, 'databaseUrl'> {
  /** Seconds before the first retry of a mail that failed; doubled at each further one (pg-boss's backoff). */
  mailRetryDelaySeconds?: number;
  mailRetryLimit?: number;
  /** Sends one mail; SMTP_URL's nodemailer transport by default, none (mail kept in the outbox) without it. */
  send?: (mail: Mail) => Promise<void>;
  /** A webhook delivery's try failed (the metrics, decision 067). */
  onWebhookFailed?: (status: 'retrying' | 'failed') => void;
}

export function createJobs(
  database: Database,
  config: Pick<Config, 'databaseUrl' | 'smtpUrl'> &
    Partial<Pick<Config, 'webhooks' | 'vapid' | 'jwtSecret' | 'publicScheme' | 'publicPort' | 'baseDomain' | 'encryptionKeys'>>,
  log: MailLog,
  options: JobsOptions = {},
): Jobs {
  // The database the app opened, not the environment's: a benchmark or test opens one of its own.
  const queue = createJobQueue(database, { log, ...options, databaseUrl: database.directUrl ?? database.url ?? config.databaseUrl });
  const send = options.send ?? (config.smtpUrl ? smtpSender(config.smtpUrl) : undefined);
  const retryLimit = options.mailRetryLimit ?? 10;
  const mailRetry = { retryLimit, retryDelay: options.mailRetryDelaySeconds ?? 30, retryBackoff: true };
  const mailer = createMailer(queue, {
    // Without SMTP no instance would send it: no job, the row and the log are the record.
    deliver: Boolean(send),
    log,
    retry: mailRetry,
  });
  let releaseWebhooks: (() => void) | undefined;
  let releasePush: (() => void) | undefined;
  let started = false;
  return {
    queue,
    mailer,
    ready: () => started,
    async start() {
      await queue.start();
      await queue.createQueue(MAIL_QUEUE);
      // Only an instance that can send fetches mail jobs.
      if (send) {
        await queue.work<{ id: number }>(MAIL_QUEUE, { batchSize: MAIL_BATCH }, (batch) =>
          deliverOutboxBatch(
            database.db,
            batch.map((job) => job.data.id),
            send,
            log,
            {
              attempts: retryLimit + 1,
              // A mail waiting for an earlier one to its address: a new job after the first retry's delay (not one of its retries).
              later: async (id) => void (await queue.boss.send(MAIL_QUEUE, { id }, { ...mailRetry, startAfter: mailRetry.retryDelay })),
            },
          ),
        );
      }
      await registerCleanup(queue, database, log);
      await registerPmGenerator(queue, database, log);
      // People's notifications (decision 074): their mail links need the public address and the app's secret.
      const { jwtSecret, publicScheme, publicPort, baseDomain } = config;
      if (jwtSecret && publicScheme && baseDomain)
        await registerNotifications(queue, database, { mailer, config: { jwtSecret, publicScheme, publicPort: publicPort ?? null, baseDomain } }, log);
      await registerInsightsReports(queue, database, mailer, log);
      await registerStockReorder(queue, database, log);
      // The anchors are signed under ENCRYPTION_KEY's derived key; JWT_SECRET still verifies older ones (decision 083).
      if (config.encryptionKeys) await registerAuditRetention(queue, database, createAnchorKeys(config.encryptionKeys, config.jwtSecret ?? ''), log);
      if (config.webhooks) releaseWebhooks = await registerWebhookDelivery(queue, database, config.webhooks, mailer, log, options.onWebhookFailed);
      if (config.webhooks && config.vapid) releasePush = await registerPushDelivery(queue, database, config.vapid, config.webhooks, log);
      started = true;
    },
    async stop() {
      started = false;
      releaseWebhooks?.();
      releasePush?.();
      await queue.stop();
    },
  };
}
