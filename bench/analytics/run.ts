/**
 * Analytics (issue 39, decision 063): each figure route of /api/analytics for a one-year range, served by the real
 * app for the large tenant (100,000 work orders over five years) that bench/generate filled, without a filter and
 * with each of the screen's filters in turn (the big organisation's first asset, category, work station, team and
 * a worker). Requests run one at a time (a manager opening the screen); prints p50 and p95 per figure and filter
 * against the 500 ms budget.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/analytics/run.ts --db cmms_bench_100k
 *
 * Options: --db (default cmms_bench_100k), --runs per figure (default 10, after 2 warm-ups), --only (comma-separated
 * figure names), --filters (comma-separated: none,assetId,assetCategoryId,workStationId,teamId,assigneeId; default
 * all). The database is migrated first (the app's startup path).
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
import { BIG_SUBDOMAIN } from '../generate/orgs';
import { requirePostgres } from '../lib/server';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'cmms_bench_100k' },
    runs: { type: 'string', default: '10' },
    only: { type: 'string' },
    filters: { type: 'string' },
  },
});
const adminUrl = requirePostgres('the PostgreSQL server holding the generated database (bench/generate/run.ts).');
const RUNS = Number(values.runs);
const TARGET_MS = 500;
const FILTERS = ['none', 'assetId', 'assetCategoryId', 'workStationId', 'teamId', 'assigneeId'];
const filters = values.filters ? values.filters.split(',') : FILTERS;
const FIGURES = ['backlog', 'throughput', 'repair-times', 'downtime', 'planned-share', 'pm-compliance', 'costs', 'quoted-vs-actual', 'my-work'];
const figures = values.only ? FIGURES.filter((f) => values.only!.split(',').includes(f)) : FIGURES;

const url = new URL(adminUrl);
url.pathname = `/${values.db}`;
const databaseUrl = url.toString();
const database = await openDatabase({ databaseUrl });
const started = Date.now();
await migrate(database);
console.log(`migrated in ${((Date.now() - started) / 1000).toFixed(1)} s`);
const config = loadConfig({
  ...process.env,
  DATABASE_URL: databaseUrl,
  JWT_SECRET: 'bench-secret-0123456789',
  LOG_LEVEL: 'silent',
  DATA_DIR: '/tmp/cmms-bench',
});
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
const { rows } = await admin.query(
  `select o.id, (select count(*) from work_orders w where w.org_id = o.id)::int as n,
     (select u.id from users u where u.org_id = o.id and u.role = 'admin' order by u.id limit 1) as admin_id,
     (select min(id) from assets a where a.org_id = o.id) as asset_id, (select min(id) from asset_categories a where a.org_id = o.id) as category_id,
     (select min(id) from work_stations a where a.org_id = o.id) as station_id, (select min(id) from teams a where a.org_id = o.id) as team_id,
     (select l.worker_id from work_order_labors l where l.org_id = o.id order by l.start_date desc limit 1) as worker_id
   from organizations o where subdomain = $1`,
  [BIG_SUBDOMAIN],
);
if (!rows.length) throw new Error(`No organisation ${BIG_SUBDOMAIN} in ${values.db}: generate it first (bench/generate/run.ts).`);
const big = rows[0];
console.log(`organisation ${big.id}, ${big.n} work orders`);
const filterValue: Record<string, string> = {
  none: '',
  assetId: `&assetId=${big.asset_id}`,
  assetCategoryId: `&assetCategoryId=${big.category_id}`,
  workStationId: `&workStationId=${big.station_id}`,
  teamId: `&teamId=${big.team_id}`,
  assigneeId: `&assigneeId=${big.worker_id}`,
};
for (const filter of filters) {
  for (const figure of figures) {
    // A fresh token per figure: a slow figure's runs can outlast an access token.
    const token = await sessionTokenFor(database.db, config.jwtSecret, big.id, big.admin_id ?? 1);
    const headers = { host: `${BIG_SUBDOMAIN}.${config.baseDomain}`, authorization: `Bearer ${token}` };
    const path = `/api/analytics/get-${figure}?range=year${filterValue[filter]}`;
    for (let i = 0; i < 2; i++) await timed(path, headers);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await timed(path, headers));
    (results[figure] ??= {})[filter] = { p50: pct(times, 50), p95: pct(times, 95) };
    console.log(`  ${figure} (${filter}): p50 ${fmt(pct(times, 50), 0)} ms, p95 ${fmt(pct(times, 95), 0)} ms`);
  }
}

console.log(`\np95 in ms, one year, ${RUNS} runs after 2 warm-ups, 100k organisation; budget p95 < ${TARGET_MS}`);
console.log(`| figure | ${filters.join(' | ')} | |\n|---|${filters.map(() => '---:').join('|')}|---|`);
let over = 0;
for (const figure of figures) {
  const r = results[figure];
  const worst = Math.max(...filters.map((f) => r[f].p95));
  if (worst >= TARGET_MS) over++;
  console.log(`| ${figure} | ${filters.map((f) => fmt(r[f].p95, 0)).join(' | ')} | ${worst < TARGET_MS ? 'ok' : 'OVER'} |`);
}
await admin.end();
await app.close();
await database.close();
if (over) process.exitCode = 1;
