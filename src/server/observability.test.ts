import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { withoutTenant } from './db/client';
import { mailOutbox } from './db/schema';
import { createOrg, createTestApp, type TestApp, type TestOrg } from './test/harness';
import { until } from './test/fixtures';
import { freePort } from './test/server-process';
import { REQUEST_ID_PATTERN } from './request-id';

// Decision 067: what an operator watches. One app with metrics on a port of its own, a log captured line by
// line, a pg-boss schema of its own (its jobs are fetched by it alone, on either database), a built SPA folder.

let t: TestApp;
let app: FastifyInstance;
let trusting: FastifyInstance;
let org: TestOrg;
let metricsPort: number;
const lines: Record<string, unknown>[] = [];
const jobSchema = `pgboss_obs_${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  t = await createTestApp();
  metricsPort = await freePort();
  const webRoot = mkdtempSync(join(tmpdir(), 'cmms-obs-web-'));
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><html><head></head><body><div id="root"></div></body></html>');
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  app = await buildApp({
    database: t.database,
    config: { ...t.config, metricsPort, metricsHost: '127.0.0.1' },
    logger: { level: 'info', stream },
    webRoot,
    jobOptions: { schema: jobSchema, pollingIntervalSeconds: 0.5 },
  });
  app.get('/api/test/boom', { config: { access: 'public' } }, async () => {
    throw new Error('a bug');
  });
  app.get('/api/test/slow', { config: { access: 'public' } }, async () => {
    throw Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
  });
  await app.ready();
  // The same jobs, not started or stopped by this app (a queue of its own would take the webhook deliveries).
  const { queue, mailer } = app.deps.jobs;
  trusting = await buildApp({
    database: t.database,
    config: { ...t.config, trustProxy: ['127.0.0.1'] },
    logger: false,
    jobs: { queue, mailer, start: async () => {}, stop: async () => {} },
  });
  await trusting.ready();
  org = await createOrg({ ...t, app }, 'Watched');
});
afterAll(async () => {
  await trusting.close();
  await app.close();
  await t.database.db.execute(sql.raw(`drop schema if exists ${jobSchema} cascade`));
  await t.close();
});

const scrape = async () => {
  const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
};
/** The value of one series (`name{labels}`), 0 when absent. */
const value = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
};

describe('X-Request-Id', () => {
  it('is on every answer (200, 4xx, 404, 5xx), and a 5xx body names it beside the unchanged error', async () => {
    const ok = await app.inject({ url: '/api/health' });
    const bad = await app.inject({
      url: '/api/work-orders/get-work-orders?pageSize=7',
      headers: { host: org.host, authorization: `Bearer ${org.admin.token}` },
    });
    const missing = await app.inject({ url: '/api/nothing-here' });
    const boom = await app.inject({ url: '/api/test/boom' });
    const slow = await app.inject({ url: '/api/test/slow' });
    for (const [res, status] of [
      [ok, 200],
      [bad, 400],
      [missing, 404],
      [boom, 500],
      [slow, 503],
    ] as const) {
      expect(res.statusCode).toBe(status);
      expect(String(res.headers['x-request-id'])).toMatch(REQUEST_ID_PATTERN);
    }
    expect(new Set([ok, bad, missing, boom, slow].map((r) => r.headers['x-request-id'])).size).toBe(5);
    expect(boom.json()).toEqual({ error: 'Internal server error', requestId: boom.headers['x-request-id'] });
    expect(slow.json()).toEqual({ error: 'The database took too long to answer, please retry', requestId: slow.headers['x-request-id'] });
    // 4xx bodies are as the spec has them.
    expect(bad.json()).not.toHaveProperty('requestId');
    expect(missing.json()).toEqual({ error: 'Not found' });
  });

  it('is taken from a proxy TRUST_PROXY trusts, ignored from anyone else, and replaced when odd', async () => {
    const incoming = 'edge-7f3a.42:b';
    const trusted = await trusting.inject({ url: '/api/test-missing', headers: { 'x-request-id': incoming } });
    expect(trusted.headers['x-request-id']).toBe(incoming);
    const untrusted = await app.inject({ url: '/api/health', headers: { 'x-request-id': incoming } });
    expect(untrusted.headers['x-request-id']).not.toBe(incoming);
    for (const odd of ['has space', 'x'.repeat(101), '<script>', 'a\tb', '-leading', 'a;b=c', '']) {
      const res = await trusting.inject({ url: '/api/health', headers: { 'x-request-id': odd } });
      expect(res.headers['x-request-id']).not.toBe(odd);
      expect(String(res.headers['x-request-id'])).toMatch(REQUEST_ID_PATTERN);
    }
  });
});

describe('log lines', () => {
  it('carry the organisation and the user after sign-in, and the request id the answer names', async () => {
    const res = await org.admin.get('/api/webhooks/list-webhooks');
    expect(res.status).toBe(200);
    const userId = Number(JSON.parse(Buffer.from(org.admin.token!.split('.')[1], 'base64url').toString()).sub);
    const done = lines.find((l) => l.reqId === res.headers['x-request-id'] && l.msg === 'request completed');
    expect(done).toMatchObject({ orgId: org.orgId, userId });
    // A public route on an organisation's host names the organisation only.
    const anon = await org.anonymous.post('/api/login', { email: 'nobody@example.com', password: 'wrong-password' });
    const anonLine = lines.find((l) => l.reqId === anon.headers['x-request-id'] && l.msg === 'request completed');
    expect(anonLine).toMatchObject({ orgId: org.orgId });
    expect(anonLine).not.toHaveProperty('userId');
  });

  it('a failed webhook try and a failed job each log one line with ids, without the URL, secret or payload', async () => {
    const closed = await freePort();
    const added = await org.admin.post('/api/webhooks/add-webhook', { url: `http://127.0.0.1:${closed}/hook?token=abc`, events: ['work-order.created'] });
    expect(added.status).toBe(201);
    const secret = added.body.webhook.secret as string;
    await org.admin.post('/api/work-orders/add-work-order', { title: 'Watched order', priority: 'medium', status: 'assigned' });
    await until(() => lines.some((l) => l.msg === 'webhook delivery failed' && l.orgId === org.orgId), 30_000);
    const webhookLine = lines.find((l) => l.msg === 'webhook delivery failed' && l.orgId === org.orgId)!;
    expect(webhookLine).toMatchObject({ orgId: org.orgId, endpointId: added.body.webhook.id, attempt: 1, status: 'retrying' });
    expect(typeof webhookLine.deliveryId).toBe('number');
    const text = JSON.stringify(webhookLine);
    expect(text).not.toContain('token=abc');
    expect(text).not.toContain(secret);
    expect(text).not.toContain('Watched order');

    const queue = app.deps.jobs.queue;
    await queue.createQueue('obs-fails', { retryLimit: 0 });
    await queue.work('obs-fails', { pollingIntervalSeconds: 0.5 }, async () => {
      throw new Error('the job broke');
    });
    const jobId = await queue.boss.send('obs-fails', { orgId: org.orgId, note: 'payload-text' });
    await until(() => lines.some((l) => l.msg === 'job failed' && l.queue === 'obs-fails'), 30_000);
    const jobLines = lines.filter((l) => l.msg === 'job failed' && l.queue === 'obs-fails');
    expect(jobLines).toHaveLength(1);
    expect(jobLines[0]).toMatchObject({ jobIds: [jobId], orgIds: [org.orgId], err: 'the job broke' });
    expect(JSON.stringify(jobLines[0])).not.toContain('payload-text');
  });
});

describe('metrics on METRICS_PORT', () => {
  it('are not on the public port', async () => {
    const res = await app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('cmms_');
    expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);
  });

  it('move with requests, 503s, the queue, failed jobs and webhook tries, the outbox; process metrics too', async () => {
    const before = await scrape();
    const route = (r: string, status: number) => `cmms_http_request_duration_seconds_count{method="GET",route="${r}",status_code="${status}"}`;
    await org.admin.get('/api/webhooks/list-webhooks');
    await org.admin.get('/api/webhooks/list-webhooks');
    await org.admin.get('/api/work-orders/get-work-order/987654');
    await app.inject({ url: '/api/test/slow' });
    const queue = app.deps.jobs.queue;
    await queue.createQueue('obs-idle');
    await queue.boss.send('obs-idle', {});
    await queue.boss.send('obs-idle', {});
    await withoutTenant(t.database.db, (tx) => tx.insert(mailOutbox).values({ to: 'backlog@example.com', subject: 'Waiting', text: 'Not sent' }));
    await until(
      async () =>
        value(await scrape(), 'cmms_jobs_failed_total{queue="obs-fails"}') >= 1 &&
        value(await scrape(), 'cmms_webhook_deliveries_failed_total{status="retrying"}') >= 1,
      30_000,
    );
    const after = await scrape();
    expect(value(after, route('/api/webhooks/list-webhooks', 200)) - value(before, route('/api/webhooks/list-webhooks', 200))).toBe(2);
    // By route pattern: the id is not a label value.
    expect(value(after, route('/api/work-orders/get-work-order/:id', 404))).toBeGreaterThanOrEqual(1);
    expect(after).not.toContain('987654');
    expect(value(after, 'cmms_http_503_total') - value(before, 'cmms_http_503_total')).toBe(1);
    expect(value(after, 'cmms_job_queue_depth{queue="obs-idle"}')).toBe(2);
    expect(value(after, 'cmms_mail_outbox_backlog') - value(before, 'cmms_mail_outbox_backlog')).toBeGreaterThanOrEqual(1);
    expect(after).toContain('process_cpu_user_seconds_total');
    expect(after).toContain('nodejs_eventloop_lag_seconds');
    if (t.database.kind === 'postgres') {
      expect(after).toMatch(/^cmms_db_pool_connections_in_use\{pool="requests"\} \d+$/m);
      expect(after).toMatch(/^cmms_db_pool_waiting\{pool="requests"\} \d+$/m);
      expect(value(after, 'cmms_db_pool_connections_idle{pool="requests"}') + value(after, 'cmms_db_pool_connections_in_use{pool="requests"}')).toBeGreaterThan(
        0,
      );
    } else {
      expect(after).not.toContain('cmms_db_pool');
    }
  });
});
