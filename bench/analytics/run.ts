/**
 * Analytics (issue 24, decision 038): each figure route of /api/analytics for a one-year range, served by the real
 * app for the organisation with ten thousand work orders and the one with a million, in the database bench/generate
 * filled. Requests run one at a time (a manager opening the screen); prints p50 and p95 per figure and organisation
 * against the 300 ms target.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/analytics/run.ts --db cmms_bench_10m
 *
 * Options: --db (default cmms_bench_10m), --runs per figure (default 20, after 2 warm-ups), --only (comma-separated
 * figure names), --filter (a query string added to every request, e.g. `teamId=1` or `assetCategoryId=3`: the
 * screen's filters; ids are per organisation). The database is migrated first (the app's startup path): the closures table and its indexes.
 */
import '../lib/as-production';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import { request } from 'node:http';
import pg from 'pg';
import { migrate, openDatabase } from '../../src/server/db/client';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/env';
import { sessionTokenFor } from '../lib/session-token';
import { fmt } from '../lib/measure';
import { BIG_SUBDOMAIN, SMALL_SUBDOMAIN } from '../generate/orgs';

const { values } = parseArgs({ options: { db: { type: 'string', default: 'cmms_bench_10m' }, runs: { type: 'string', default: '20' }, only: { type: 'string' }, filter: { type: 'string' } } });
const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  console.error('Set DATABASE_URL to the PostgreSQL server holding the generated database (bench/generate/run.ts).');
  process.exit(1);
}
const RUNS = Number(values.runs);
const TARGET_MS = 300;
const FIGURES = ['backlog', 'throughput', 'repair-times', 'downtime', 'planned-share', 'pm-compliance', 'costs', 'quoted-vs-actual', 'my-work'];
const figures = values.only ? FIGURES.filter((f) => values.only!.split(',').includes(f)) : FIGURES;

const url = new URL(adminUrl);
url.pathname = `/${values.db}`;
const databaseUrl = url.toString();
const database = await openDatabase({ databaseUrl });
const started = Date.now();
await migrate(database);
console.log(`migrated in ${((Date.now() - started) / 1000).toFixed(1)} s`);
const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, JWT_SECRET: 'bench-secret-0123456789', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/cmms-bench' });
const app = await buildApp({ database, config, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as AddressInfo).port;

const admin = new pg.Client({ connectionString: databaseUrl });
await admin.connect();

/** One GET, its time in ms; throws unless 200. */
function timed(path: string, headers: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`${path}: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];

const results: Record<string, Record<string, { p50: number; p95: number }>> = {};
for (const [label, subdomain] of [['10k', SMALL_SUBDOMAIN], ['1M', BIG_SUBDOMAIN]] as const) {
  const { rows } = await admin.query(
    `select o.id, coalesce((select sum(n) from work_order_status_counts c where c.org_id = o.id), 0)::int as n,
       (select u.id from users u where u.org_id = o.id and u.role = 'admin' order by u.id limit 1) as admin_id,
       (select l.worker_id from work_order_labors l where l.org_id = o.id order by l.start_date desc limit 1) as worker_id
     from organizations o where subdomain = $1`,
    [subdomain],
  );
  if (!rows.length) throw new Error(`No organisation ${subdomain} in ${values.db}: generate it first (bench/generate/run.ts).`);
  console.log(`${label}: organisation ${rows[0].id}, ${rows[0].n} work orders`);
  for (const figure of figures) {
    // A fresh token per figure: a slow figure's runs can outlast an access token.
    const token = await sessionTokenFor(database.db, config.jwtSecret, rows[0].id, rows[0].admin_id ?? 1);
    const headers = { host: `${subdomain}.${config.baseDomain}`, authorization: `Bearer ${token}` };
    const path = `/api/analytics/get-${figure}?range=year${values.filter ? `&${values.filter}` : ''}`;
    for (let i = 0; i < 2; i++) await timed(path, headers);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await timed(path, headers));
    (results[figure] ??= {})[label] = { p50: pct(times, 50), p95: pct(times, 95) };
    console.log(`  ${figure}: p50 ${fmt(pct(times, 50), 0)} ms, p95 ${fmt(pct(times, 95), 0)} ms`);
  }
}

console.log(`\nfigure            10k p50   10k p95    1M p50    1M p95  (ms, one year${values.filter ? `, ${values.filter}` : ''}, ${RUNS} runs; target p95 < ${TARGET_MS})`);
for (const figure of figures) {
  const r = results[figure];
  const ok = r['1M'].p95 < TARGET_MS && r['10k'].p95 < TARGET_MS ? 'ok' : 'OVER';
  console.log(`${figure.padEnd(16)} ${fmt(r['10k'].p50, 0).padStart(8)} ${fmt(r['10k'].p95, 0).padStart(9)} ${fmt(r['1M'].p50, 0).padStart(9)} ${fmt(r['1M'].p95, 0).padStart(9)}  ${ok}`);
}
await admin.end();
await app.close();
await database.close();
