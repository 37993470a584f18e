/**
 * Work orders list benchmark (issue 6, "Scale"). For each size it creates a fresh PostgreSQL database,
 * fills one organisation with N work orders among 20 others (generate.ts), starts the real app on a
 * port, and measures over HTTP (keep-alive, fixed concurrency) requests per second and p50/p99 of the
 * list with its filters and of the statistics cards. Then it replays exactly the SQL those requests
 * ran (captured from the driver: transactions, tenancy settings, queries) straight through `pg`, with
 * the same concurrency, and prints the ratio API / driver.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/work-orders/run.ts --sizes 10000,1000000
 *
 * Options: --sizes (default 10000), --seconds per measurement (default 5), --concurrency (default 8), --keep (keep the databases).
 */
import '../lib/as-production';
import http from 'node:http';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { migrate, openDatabase } from '../../src/server/db/client';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/env';
import { sessionTokenFor } from '../lib/session-token';
import { generate } from './generate';
import { capture, LOAD_OPTIONS } from '../lib/measure';
import { requirePostgres } from '../lib/server';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000' },
    ...LOAD_OPTIONS,
    keep: { type: 'boolean', default: false },
  },
});
const adminUrl = requirePostgres('a PostgreSQL server (the benchmark creates and drops its own databases).');
const SECONDS = Number(values.seconds);
const CONCURRENCY = Number(values.concurrency);

const SHAPES: { name: string; path: string }[] = [
  { name: 'list page 1', path: '/api/work-orders/get-work-orders?page=1&pageSize=10' },
  { name: 'status open+in-progress, 25', path: '/api/work-orders/get-work-orders?status=assigned&status=in-progress&page=1&pageSize=25' },
  { name: 'status completed, page 5 of 50', path: '/api/work-orders/get-work-orders?status=completed&page=5&pageSize=50' },
  { name: 'title "chiller" (trigram)', path: '/api/work-orders/get-work-orders?title=chiller&page=1&pageSize=10' },
  { name: 'title + status', path: '/api/work-orders/get-work-orders?title=seal&status=assigned&page=1&pageSize=10' },
  { name: 'statistics cards', path: '/api/work-orders/get-statistics' },
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Runs `once` from CONCURRENCY loops for SECONDS; returns req/s, p50 and p99 in ms. */
async function measure(once: () => Promise<void>) {
  const warmUntil = Date.now() + 500;
  while (Date.now() < warmUntil) await once();
  const latencies: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        await once();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function benchSize(rows: number) {
  const dbName = `cmms_bench_wo_${rows}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  admin.on('error', () => {});
  await admin.query(`create database ${dbName}`);
  const url = new URL(adminUrl!);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  try {
    const database = await openDatabase({ databaseUrl });
    await migrate(database);
    const target = await generate(database, rows);
    const config = {
      ...loadConfig({ ...process.env, DATABASE_URL: databaseUrl, JWT_SECRET: 'bench-secret-0123456789', LOG_LEVEL: 'silent', DATA_DIR: '.tmp/bench' }),
    };
    const app = await buildApp({ database, config, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const token = await sessionTokenFor(database.db, config.jwtSecret, target.orgId, 1);
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const host = `${target.subdomain}.${config.baseDomain}`;
    const get = (path: string) =>
      new Promise<void>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, path, agent, headers: { host, authorization: `Bearer ${token}` } }, (res) => {
          let size = 0;
          res.on('data', (c: Buffer) => (size += c.length));
          res.on('end', () => (res.statusCode === 200 && size > 0 ? resolve() : reject(new Error(`${path}: HTTP ${res.statusCode}`))));
        });
        req.on('error', reject);
        req.end();
      });

    const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.DB_POOL_SIZE ?? 10) });
    pool.on('error', () => {});
    console.log(`\n${rows.toLocaleString('en-US')} work orders in the target organisation; concurrency ${CONCURRENCY}, ${SECONDS} s per measurement`);
    console.log('| request | API req/s | API p50 ms | API p99 ms | SQL req/s | SQL p50 ms | SQL p99 ms | API/SQL throughput |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const shape of SHAPES) {
      const statements = await capture(() => get(shape.path));
      const api = await measure(() => get(shape.path));
      const direct = await measure(async () => {
        const client = await pool.connect();
        try {
          for (const s of statements)
            await client.query(typeof s.config === 'object' ? ({ ...(s.config as object) } as never) : (s.config as string), s.values as never);
        } finally {
          client.release();
        }
      });
      console.log(
        `| ${shape.name} (${statements.length} statements) | ${api.rps.toFixed(0)} | ${api.p50.toFixed(1)} | ${api.p99.toFixed(1)} | ${direct.rps.toFixed(0)} | ${direct.p50.toFixed(1)} | ${direct.p99.toFixed(1)} | ${(api.rps / direct.rps).toFixed(2)} |`,
      );
    }
    agent.destroy();
    await pool.end();
    await app.close();
    await database.close();
  } finally {
    if (!values.keep) await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
}

for (const size of values.sizes.split(',').map(Number)) await benchSize(size);
