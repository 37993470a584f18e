/**
 * What the full plugin stack costs: the users list through the real app (host -> organisation,
 * token, role check, one RLS transaction as the runtime role) against a bare Fastify server running the
 * same SQL through `pg`, alternated run by run, median of five. Also get-app-data's size and time.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/stack/run.ts [--seconds 5] [--concurrency 8] [--warmup 10] [--runs 5]
 */
import '../lib/as-production';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import pg from 'pg';
import { migrate, openDatabase, withTenant } from '../../src/server/db/client';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/env';
import { users } from '../../src/server/db/schema';
import { fmt, get, LOAD_OPTIONS, measure, median, type Figures } from '../lib/measure';
import { requirePostgres, scratchDatabase } from '../lib/server';

const { values } = parseArgs({
  options: {
    ...LOAD_OPTIONS,
    warmup: { type: 'string', default: '10' },
    runs: { type: 'string', default: '5' },
  },
});
const adminUrl = requirePostgres('a PostgreSQL server (the benchmark creates and drops its own database).');
const SECONDS = Number(values.seconds);
const CONCURRENCY = Number(values.concurrency);
const WARMUP = Number(values.warmup);
const RUNS = Math.max(3, Number(values.runs));

const scratch = await scratchDatabase(adminUrl, 'cmms_bench_stack');

try {
  const database = await openDatabase({ databaseUrl: scratch.url });
  await migrate(database);
  const config = { ...loadConfig({ ...process.env, JWT_SECRET: 'bench-secret', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/cmms-bench' }) };
  const app = await buildApp({ database, config, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const host = 'bench.localhost';
  const signup = await app.inject({
    method: 'POST',
    url: '/api/signup',
    headers: { host: 'localhost' },
    payload: { organization: 'Bench Co', email: 'admin@bench.test', password: 'Passw0rd!long', subdomainName: 'bench', numberOfWorkers: 50, consent: true },
  });
  if (signup.statusCode !== 201) throw new Error(signup.body);
  const login = await app.inject({ method: 'POST', url: '/api/login', headers: { host }, payload: { email: 'admin@bench.test', password: 'Passw0rd!long' } });
  const token = login.json().accessToken as string;
  const orgId = Number(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).org);
  await withTenant(database.db, orgId, (tx) =>
    tx
      .insert(users)
      .values(
        Array.from({ length: 60 }, (_, i) => ({ orgId, email: `worker${i}@bench.test`, role: 'worker' as const, firstName: `Worker${i}`, lastName: 'Bench' })),
      ),
  );

  // The baseline: the same statement (the page with its total as a window count), no tenancy, no auth, no transaction.
  const pool = new pg.Pool({ connectionString: scratch.url, max: 10 });
  pool.on('error', () => {});
  const bare = Fastify();
  bare.get('/users', async () => {
    const { rows } = await pool.query(
      'select id, first_name, last_name, email, phone_number, job_title, role, language, location, invite_status, profile_picture, profile_picture_low, created_at, count(*) over () total from users where org_id = $1 order by id limit 25',
      [orgId],
    );
    // Each user's related work stations, assets and services (spec section 3), as the app reads them: one
    // statement for the page's users after the page.
    const ids = rows.map((r) => r.id);
    // Named, as the app keeps it (one plan for every organisation, decision 019).
    const related = await pool.query({
      name: 'bench_related',
      text: `select l.user_id, 'related_workStations' as key, r.id, r.name as label from user_work_stations l join work_stations r on r.org_id = l.org_id and r.id = l.work_station_id where l.org_id = $1 and l.user_id = any($2)
       union all select l.user_id, 'related_assets', r.id, r.name from user_assets l join assets r on r.org_id = l.org_id and r.id = l.asset_id where l.org_id = $1 and l.user_id = any($2)
       union all select l.user_id, 'related_services', r.id, r.title from user_services l join services r on r.org_id = l.org_id and r.id = l.service_id where l.org_id = $1 and l.user_id = any($2)
       order by 4, 3`,
      values: [orgId, ids],
    });
    const byUser = new Map(ids.map((id) => [id, { related_workStations: [], related_assets: [], related_services: [] } as Record<string, unknown[]>]));
    for (const link of related.rows) byUser.get(link.user_id)?.[link.key].push({ id: link.id, name: link.label });
    return { users: rows.map((r) => ({ ...r, ...byUser.get(r.id) })), pagination: { totalRecords: Number(rows[0]?.total ?? 0) } };
  });
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const barePort = (bare.server.address() as AddressInfo).port;

  const headers = { host, authorization: `Bearer ${token}` };
  // Steady state, not the first seconds: the full stack runs far more JavaScript than the baseline, and V8
  // needs some ten thousand requests before that code is optimised (its first 5 s ran at half the speed of
  // its later runs). Both servers get the same unmeasured warm-up.
  await measure(() => get(port, '/api/user/getCompanyUsers?page=1&pageSize=25', headers), WARMUP, CONCURRENCY);
  await measure(() => get(barePort, '/users', {}), WARMUP, CONCURRENCY);
  const runs: { api: Figures[]; bare: Figures[] } = { api: [], bare: [] };
  for (let i = 0; i < RUNS; i++) {
    runs.api.push(await measure(() => get(port, '/api/user/getCompanyUsers?page=1&pageSize=25', headers), SECONDS, CONCURRENCY));
    runs.bare.push(await measure(() => get(barePort, '/users', {}), SECONDS, CONCURRENCY));
    console.log(
      `run ${i + 1}: full stack ${fmt(runs.api[i].rps, 0)} req/s, bare ${fmt(runs.bare[i].rps, 0)} req/s, ratio ${fmt(runs.api[i].rps / runs.bare[i].rps)}`,
    );
  }
  const m = (xs: Figures[], k: 'rps' | 'p50' | 'p99' | 'errors') => median(xs.map((x) => x[k]));
  // This machine's speed drifts by a factor of two within minutes; a run and the baseline run right after it
  // see the same machine, so each pair's ratio is compared, and their median reported.
  const pairRatio = (k: 'rps' | 'p99') => median(runs.api.map((api, i) => api[k] / runs.bare[i][k]));
  const single = { api: [] as Figures[], bare: [] as Figures[] };
  for (let i = 0; i < 3; i++) {
    single.api.push(await measure(() => get(port, '/api/user/getCompanyUsers?page=1&pageSize=25', headers), 2, 1));
    single.bare.push(await measure(() => get(barePort, '/users', {}), 2, 1));
  }
  const appData = await app.inject({ method: 'GET', url: '/api/user/get-app-data', headers });
  const appDataFig = await measure(() => get(port, '/api/user/get-app-data', headers), 2, 1);

  console.log(`\nStack overhead (${new Date().toISOString().slice(0, 10)}, ${CONCURRENCY} connections, ${SECONDS} s x ${RUNS} alternated, median)`);
  console.log('| what | req/s | p50 ms | p99 ms | errors |');
  console.log('|---|---|---|---|---|');
  console.log(
    `| users list, full stack | ${fmt(m(runs.api, 'rps'), 0)} | ${fmt(m(runs.api, 'p50'))} | ${fmt(m(runs.api, 'p99'))} | ${m(runs.api, 'errors')} |`,
  );
  console.log(
    `| same SQL, bare Fastify + pg | ${fmt(m(runs.bare, 'rps'), 0)} | ${fmt(m(runs.bare, 'p50'))} | ${fmt(m(runs.bare, 'p99'))} | ${m(runs.bare, 'errors')} |`,
  );
  console.log(`| ratio full / bare (median of the runs' ratios) | ${fmt(pairRatio('rps'))} | | ${fmt(pairRatio('p99'))} | |`);
  console.log(`| ratio of the medians | ${fmt(m(runs.api, 'rps') / m(runs.bare, 'rps'))} | | ${fmt(m(runs.api, 'p99') / m(runs.bare, 'p99'))} | |`);
  console.log(
    `\nOne connection, p50: full ${fmt(m(single.api, 'p50'))} ms, bare ${fmt(m(single.bare, 'p50'))} ms -> stack cost ${fmt(m(single.api, 'p50') - m(single.bare, 'p50'))} ms per request`,
  );
  console.log(`get-app-data: ${appData.body.length} bytes, p50 ${fmt(appDataFig.p50)} ms, p99 ${fmt(appDataFig.p99)} ms`);
  console.log(`peak RSS: ${(process.memoryUsage().rss / 1048576).toFixed(0)} MiB (load generator, app and baseline in one process)`);
  await bare.close();
  await pool.end();
  await app.close();
  await database.close();
} finally {
  await scratch.drop();
}
