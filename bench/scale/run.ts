/**
 * Scale across organisations (issue 9): against a database filled by bench/generate, the real app serves
 * the organisation with a million work orders and the one with ten thousand; for each request shape it
 * prints req/s, p50 and p99 of both and the p99 ratio big / small against the 1.5 target. The baseline is
 * the same SQL (captured from the driver while the app served the request, minus the transaction and the
 * tenancy settings) replayed through bare `pg` behind a bare Fastify server, which returns the rows as the driver
 * gives them (objects). Within each run the big and the
 * small organisation, app and baseline, take turns; figures are medians of `--runs`, and the p99 ratio big /
 * small is the median of the runs' own ratios (the machine's speed drifts within minutes). get-app-data is
 * reported with its size in bytes.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/scale/run.ts --db cmms_bench_10m
 *
 * Options: --db (default cmms_bench_10m), --seconds per measurement (default 5), --concurrency (default 8),
 * --tenant-baseline (the replay runs as the app's request connections do: runtime role, row-level security),
 * --runs (default 3), --only (comma-separated shape names, for a quick look).
 * The database is migrated first (the app's startup path), so index changes made since it was generated apply.
 */
import '../lib/as-production';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import pg from 'pg';
import { migrate, openDatabase, REQUEST_PLANNER_SETTINGS } from '../../src/server/db/client';
import { RUNTIME_ROLE } from '../../src/server/db/tenancy';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/env';
import { sessionTokenFor } from '../lib/session-token';
import { capture, fmt, get, LOAD_OPTIONS, measure, median, type Captured, type Figures } from '../lib/measure';
import { BIG_SUBDOMAIN, SMALL_SUBDOMAIN } from '../generate/orgs';
import { requirePostgres } from '../lib/server';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'cmms_bench_10m' },
    ...LOAD_OPTIONS,
    runs: { type: 'string', default: '3' },
    only: { type: 'string' },
    'tenant-baseline': { type: 'boolean', default: false },
  },
});
const adminUrl = requirePostgres('the PostgreSQL server holding the generated database (bench/generate/run.ts).');
const SECONDS = Number(values.seconds);
const CONCURRENCY = Number(values.concurrency);
const RUNS = Number(values.runs);
const TARGET_RATIO = 1.5;

const SHAPES: { name: string; path: string }[] = [
  { name: 'work orders, page 1', path: '/api/work-orders/get-work-orders?page=1&pageSize=10' },
  { name: 'work orders, status open + in progress', path: '/api/work-orders/get-work-orders?status=assigned&status=in-progress&page=1&pageSize=25' },
  { name: 'work orders, title "chiller"', path: '/api/work-orders/get-work-orders?title=chiller&page=1&pageSize=10' },
  { name: 'work orders, title "seal" + assigned', path: '/api/work-orders/get-work-orders?title=seal&status=assigned&page=1&pageSize=10' },
  { name: 'work order cards', path: '/api/work-orders/get-statistics' },
  { name: 'maintenance requests, page 1', path: '/api/maintenance-requests/get-maintenance-requests?page=1&pageSize=10' },
  { name: 'recent activity', path: '/api/activities/recent' },
  { name: 'get-app-data', path: '/api/user/get-app-data' },
];
const shapes = values.only ? SHAPES.filter((s) => values.only!.split(',').some((o) => s.name.includes(o))) : SHAPES;

const url = new URL(adminUrl);
url.pathname = `/${values.db}`;
const databaseUrl = url.toString();

// The preventive-maintenance generator's schedule (every 5 minutes) would run it over the 1,000 organisations in
// the middle of a measurement (a second of CPU, seen in a profile): this benchmark measures requests, and
// bench/pm-generator measures the generator. A date that never comes in a run: 1 January, midnight.
process.env.PM_GENERATOR_CRON ??= '0 0 1 1 *';
const database = await openDatabase({ databaseUrl });
await migrate(database);
const config = {
  ...loadConfig({ ...process.env, DATABASE_URL: databaseUrl, JWT_SECRET: 'bench-secret-0123456789', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/cmms-bench' }),
};
const app = await buildApp({ database, config, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as AddressInfo).port;

// The baseline: one route that replays a captured request's statements through a plain pool. With
// --tenant-baseline its connections are set up as the app's request connections are (the runtime role, so
// row-level security applies; the planner settings; the organisation, set again only when it changes): what
// remains between the two is the HTTP stack and the JavaScript.
const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.DB_POOL_SIZE ?? 10) });
pool.on('error', () => {});
const replays = new Map<string, { statements: Captured[]; orgId: number }>();
const text = (c: Captured) => (typeof c.config === 'string' ? c.config : String((c.config as { text?: string }).text ?? ''));
const bare = Fastify();
bare.get<{ Params: { key: string } }>('/replay/:key', async (req) => {
  const { statements, orgId } = replays.get(req.params.key)!;
  const client = (await pool.connect()) as pg.PoolClient & { tenant?: true; orgId?: number };
  try {
    if (values['tenant-baseline']) {
      if (!client.tenant) {
        await client.query(`set role ${RUNTIME_ROLE}; set default_transaction_read_only = on; ${REQUEST_PLANNER_SETTINGS}`);
        client.tenant = true;
      }
      if (client.orgId !== orgId) {
        await client.query(`select set_config('app.org_id', '${orgId}', false)`);
        client.orgId = orgId;
      }
    }
    // As the bare driver gives them: rows as objects, its own type parsing (the app's array rows and raw
    // timestamps are drizzle's settings, and arrays without keys would make a smaller response than any
    // hand-written server sends).
    const results = [];
    for (const s of statements) results.push((await client.query(text(s), s.values as unknown[])).rows);
    return { results };
  } finally {
    client.release();
  }
});
await bare.listen({ port: 0, host: '127.0.0.1' });
const barePort = (bare.server.address() as AddressInfo).port;

/** The transaction and tenancy settings around the request's queries: the stack's, not the request's SQL. */
const wrapper = (c: Captured) => /^\s*(begin|commit|rollback|set)\b/i.test(text(c)) || /set_config\('app\.org_id'/.test(text(c));

interface Org {
  label: string;
  orgId: number;
  workOrders: number;
  headers: Record<string, string>;
}
const admin = new pg.Client({ connectionString: databaseUrl });
await admin.connect();
const orgs: Org[] = [];
for (const [label, subdomain] of [
  ['big', BIG_SUBDOMAIN],
  ['small', SMALL_SUBDOMAIN],
] as const) {
  const { rows } = await admin.query(
    `select o.id, (select count(*) from work_orders w where w.org_id = o.id)::int as n from organizations o where subdomain = $1`,
    [subdomain],
  );
  if (!rows.length) throw new Error(`No organisation ${subdomain} in ${values.db}: generate it first (bench/generate/run.ts).`);
  const token = await sessionTokenFor(database.db, config.jwtSecret, rows[0].id, 1);
  orgs.push({ label, orgId: rows[0].id, workOrders: rows[0].n, headers: { host: `${subdomain}.${config.baseDomain}`, authorization: `Bearer ${token}` } });
}
const {
  rows: [totals],
} = await admin.query(`select (select count(*) from organizations)::int as orgs, (select sum(n_live_tup) from pg_stat_user_tables)::bigint as rows`);
await admin.end();

const started = new Date();
console.log(
  `\n${values.db}: ${totals.orgs} organisations, ~${Number(totals.rows).toLocaleString('en-US')} rows; big = ${orgs[0].workOrders.toLocaleString('en-US')} work orders, small = ${orgs[1].workOrders.toLocaleString('en-US')}`,
);
console.log(
  `${started.toISOString()}, ${CONCURRENCY} connections, ${SECONDS} s per measurement, app and baseline alternated, median of ${RUNS}; baseline ${values['tenant-baseline'] ? 'as the runtime role, row-level security applying' : 'as the database owner'}\n`,
);

type Runs = { api: Figures[]; bare: Figures[] };
type Row = { shape: string; org: Org; api: Figures; bare: Figures; runs: Runs; statements: number; bytes: number };
const results: Row[] = [];
const m = (xs: Figures[]): Figures => ({
  rps: median(xs.map((x) => x.rps)),
  p50: median(xs.map((x) => x.p50)),
  p99: median(xs.map((x) => x.p99)),
  errors: xs.reduce((n, x) => n + x.errors, 0),
  cpu: xs.every((x) => x.cpu) ? { process: median(xs.map((x) => x.cpu!.process)), machine: median(xs.map((x) => x.cpu!.machine)) } : undefined,
});
/** CPU ms per request: this process (load generator and server) and the whole machine (PostgreSQL with it). */
const cpuOf = (f: Figures) => (f.cpu ? `${fmt(f.cpu.process)} / ${fmt(f.cpu.machine)}` : 'n/a');
for (const shape of shapes) {
  const measured: { org: Org; statements: number; bytes: number; barePath: string; runs: Runs }[] = [];
  for (const org of orgs) {
    let bytes = 0;
    await app.inject({ method: 'GET', url: shape.path, headers: org.headers }); // caches warm (host -> organisation)
    const statements = (
      await capture(async () => {
        const res = await app.inject({ method: 'GET', url: shape.path, headers: org.headers });
        if (res.statusCode !== 200) throw new Error(`${shape.path} for ${org.label}: HTTP ${res.statusCode} ${res.body.slice(0, 200)}`);
        bytes = res.rawPayload.length;
      })
    ).filter((c) => !wrapper(c));
    const key = `${shape.name}|${org.label}`;
    replays.set(key, { statements, orgId: org.orgId });
    measured.push({ org, statements: statements.length, bytes, barePath: `/replay/${encodeURIComponent(key)}`, runs: { api: [], bare: [] } });
  }
  // The big and the small organisation in turn within each run: this machine's speed drifts within minutes,
  // and their p99s are compared.
  for (let i = 0; i < RUNS; i++) {
    for (const { org, barePath, runs } of measured) {
      runs.api.push(await measure(() => get(port, shape.path, org.headers), SECONDS, CONCURRENCY));
      runs.bare.push(await measure(() => get(barePort, barePath, {}), SECONDS, CONCURRENCY));
    }
  }
  for (const { org, statements, bytes, runs } of measured) {
    const row = { shape: shape.name, org, api: m(runs.api), bare: m(runs.bare), runs, statements, bytes };
    results.push(row);
    console.log(
      `  ${shape.name} / ${org.label}: ${fmt(row.api.rps, 0)} req/s, p50 ${fmt(row.api.p50, 1)} ms, p99 ${fmt(row.api.p99, 1)} ms (bare ${fmt(row.bare.rps, 0)} req/s, p99 ${fmt(row.bare.p99, 1)} ms)${row.api.errors + row.bare.errors ? `, ${row.api.errors + row.bare.errors} errors` : ''}`,
    );
  }
}

console.log(
  `\n| request | org | API req/s | API p50 / p99 ms | bare pg req/s | bare p50 / p99 ms | API/bare req/s | CPU ms per request, process / machine: API; bare | bytes |`,
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(
    `| ${r.shape} (${r.statements} statements) | ${r.org.label} | ${fmt(r.api.rps, 0)} | ${fmt(r.api.p50, 1)} / ${fmt(r.api.p99, 1)} | ${fmt(r.bare.rps, 0)} | ${fmt(r.bare.p50, 1)} / ${fmt(r.bare.p99, 1)} | ${fmt(r.api.rps / r.bare.rps)} | ${cpuOf(r.api)}; ${cpuOf(r.bare)} | ${r.bytes.toLocaleString('en-US')} |`,
  );
}
console.log(`\n| request | API p99 big / small (median of the runs' ratios) | target <= ${TARGET_RATIO} | bare p99 big / small |`);
console.log('|---|---|---|---|');
for (const shape of shapes) {
  const [big, small] = orgs.map((o) => results.find((r) => r.shape === shape.name && r.org === o)!);
  const ratioOf = (k: keyof Runs) => median(big.runs[k].map((run, i) => run.p99 / small.runs[k][i].p99));
  const ratio = ratioOf('api');
  console.log(`| ${shape.name} | ${fmt(ratio)} | ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'} | ${fmt(ratioOf('bare'))} |`);
}
const rss = process.resourceUsage().maxRSS / 1024;
console.log(`\npeak RSS ${rss.toFixed(0)} MiB (load generator, app and baseline in one process)`);

await bare.close();
await pool.end();
await app.close();
await database.close();
