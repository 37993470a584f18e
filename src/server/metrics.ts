import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { count, isNull } from 'drizzle-orm';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { withoutTenant, type Database } from './db/client';
import { mailOutbox } from './db/schema';
import type { JobQueue } from './jobs/queue';

/** Where the figures read at each scrape come from; the queue once the app made it. */
export interface MetricSources {
  database: Database;
  queue: () => JobQueue | undefined;
  log: { warn(obj: object, msg: string): void };
}

/**
 * Prometheus metrics of one app (decision 067), in a registry of its own (tests run several apps in one process):
 * request durations by route pattern and status, 503 answers, the database pools, the job queue, failed jobs and
 * webhook tries, the mail outbox's backlog, and prom-client's process metrics. Served by `serveMetrics` on
 * METRICS_PORT, a listener of its own, never the public port.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requestDuration = new Histogram({
    name: 'cmms_http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern (not the URL: bounded label values) and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const unavailable = new Counter({
    name: 'cmms_http_503_total',
    help: 'Answers 503 (database time limits, lost connections, not ready)',
    registers: [registry],
  });
  const jobsFailed = new Counter({
    name: 'cmms_jobs_failed_total',
    help: 'Runs of a background job handler that failed (pg-boss retries them), by queue',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  const webhooksFailed = new Counter({
    name: 'cmms_webhook_deliveries_failed_total',
    help: 'Webhook delivery tries that failed, by outcome: retrying (another try is queued) or failed (given up)',
    labelNames: ['status'] as const,
    registers: [registry],
  });
  return {
    registry,
    /** The job layer's hooks (JobsOptions). */
    jobHooks: {
      onJobFailed: (queue: string) => jobsFailed.inc({ queue }),
      onWebhookFailed: (status: 'retrying' | 'failed') => webhooksFailed.inc({ status }),
    },
    /** Times every answer of `app` (its onResponse hook) and adds the figures read at each scrape. */
    watch(app: FastifyInstance, sources: MetricSources) {
      app.addHook('onResponse', (req, reply, done) => {
        // The route's pattern (`/api/work-orders/get-work-order/:id`), or `unmatched` for a 404 of no route.
        requestDuration.observe(
          { method: req.method, route: req.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) },
          reply.elapsedTime / 1000,
        );
        if (reply.statusCode === 503) unavailable.inc();
        done();
      });
      // A figure that cannot be read (the database away) is left out of that scrape, not the whole scrape.
      const safely = async (what: string, read: () => Promise<void>) => {
        try {
          await read();
        } catch (err) {
          sources.log.warn({ err: (err as Error).message, metric: what }, 'metric not read');
        }
      };
      const { database } = sources;
      if (database.pools) {
        const pools = database.pools;
        const gauge = (name: string, help: string, value: (p: ReturnType<typeof pools>[number]) => number) =>
          new Gauge({
            name,
            help,
            labelNames: ['pool'] as const,
            registers: [registry],
            collect() {
              for (const p of pools()) this.set({ pool: p.pool }, value(p));
            },
          });
        gauge(
          'cmms_db_pool_connections_in_use',
          'Connections checked out of the pool (requests: tenant scopes; owner: jobs, migrations)',
          (p) => p.total - p.idle,
        );
        gauge('cmms_db_pool_connections_idle', 'Open connections waiting in the pool', (p) => p.idle);
        gauge('cmms_db_pool_waiting', 'Callers waiting for a connection of the pool', (p) => p.waiting);
      }
      new Gauge({
        name: 'cmms_job_queue_depth',
        help: 'Jobs waiting to run (created or waiting for a retry), by queue; the whole database, every instance',
        labelNames: ['queue'] as const,
        registers: [registry],
        async collect() {
          const queue = sources.queue();
          let boss: JobQueue['boss'];
          try {
            boss = queue!.boss;
          } catch {
            return; // not started
          }
          await safely('cmms_job_queue_depth', async () => {
            for (const { name } of await boss.getQueues()) this.set({ queue: name }, await boss.getQueueSize(name));
          });
        },
      });
      new Gauge({
        name: 'cmms_mail_outbox_backlog',
        help: 'Mail in the outbox not sent yet (waiting, being retried, or kept without SMTP_URL)',
        registers: [registry],
        async collect() {
          await safely('cmms_mail_outbox_backlog', async () => {
            const [row] = await withoutTenant(database.db, (tx) => tx.select({ n: count() }).from(mailOutbox).where(isNull(mailOutbox.sentAt)));
            this.set(row?.n ?? 0);
          });
        },
      });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The metrics listener: `GET /metrics` in Prometheus's text format, 404 for anything else. */
export async function serveMetrics(registry: Registry, port: number, host: string): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${err.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
