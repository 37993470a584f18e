/**
 * PGlite against PostgreSQL: the same server process, the same organisation and requests, once on each
 * database, alternated run by run, median of three. Target (issue 9): PGlite at least 35% of PostgreSQL's
 * throughput. (PGlite is one connection in the server's process; PostgreSQL has a pool and its own cores.)
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/drivers/run.ts [--seconds 5] [--concurrency 8]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchOrg, requirePostgres, rssMiB, scratchDatabase, startBenchServer, stopServer } from '../lib/server';
import { fmt, get, LOAD_OPTIONS, measure, median, type Figures } from '../lib/measure';

const { values } = parseArgs({ options: LOAD_OPTIONS });
const SECONDS = Number(values.seconds);
const CONCURRENCY = Number(values.concurrency);

const adminUrl = requirePostgres();
const scratch = await scratchDatabase(adminUrl, 'cmms_bench_drivers');
const dataDir = mkdtempSync(join(tmpdir(), 'cmms-bench-drivers-'));
const servers = {
  postgres: await startBenchServer({ DATABASE_URL: scratch.url }),
  pglite: await startBenchServer({ DATABASE_URL: '', DATA_DIR: dataDir, PGLITE_VACUUM_MINUTES: '0' }),
};
try {
  const orgs = { postgres: await benchOrg(servers.postgres.port, 'drivers', 300), pglite: await benchOrg(servers.pglite.port, 'drivers', 300) };
  const shapes = [
    { label: 'work-order list, page 1', path: '/api/work-orders/get-work-orders?page=1&limit=25' },
    { label: 'work-order statistics', path: '/api/work-orders/get-statistics' },
    { label: 'get-app-data', path: '/api/user/get-app-data' },
  ];
  const peak = { postgres: 0, pglite: 0 };
  console.log(`\nPGlite vs PostgreSQL (${new Date().toISOString().slice(0, 10)}, ${CONCURRENCY} connections, ${SECONDS} s x 3 alternated, median)`);
  console.log('| request | PostgreSQL req/s | p50 / p99 ms | PGlite req/s | p50 / p99 ms | PGlite / PostgreSQL |');
  console.log('|---|---|---|---|---|---|');
  for (const shape of shapes) {
    const runs: Record<'postgres' | 'pglite', Figures[]> = { postgres: [], pglite: [] };
    for (let i = 0; i < 3; i++) {
      for (const kind of i % 2 ? (['pglite', 'postgres'] as const) : (['postgres', 'pglite'] as const)) {
        const { port } = servers[kind];
        const { host, token } = orgs[kind];
        runs[kind].push(await measure(() => get(port, shape.path, { host, authorization: `Bearer ${token}` }), SECONDS, CONCURRENCY));
        peak[kind] = Math.max(peak[kind], rssMiB(servers[kind].child.pid));
      }
    }
    const m = (kind: 'postgres' | 'pglite', k: 'rps' | 'p50' | 'p99') => median(runs[kind].map((r) => r[k]));
    console.log(
      `| ${shape.label} | ${fmt(m('postgres', 'rps'), 0)} | ${fmt(m('postgres', 'p50'))} / ${fmt(m('postgres', 'p99'))} | ${fmt(m('pglite', 'rps'), 0)} | ${fmt(m('pglite', 'p50'))} / ${fmt(m('pglite', 'p99'))} | ${fmt((100 * m('pglite', 'rps')) / m('postgres', 'rps'), 0)}% (target >= 35%) |`,
    );
  }
  console.log(`\nPeak server RSS: PostgreSQL ${fmt(peak.postgres, 0)} MiB, PGlite ${fmt(peak.pglite, 0)} MiB (PGlite holds the database in the process)`);
} finally {
  await Promise.all([stopServer(servers.postgres), stopServer(servers.pglite)]);
  rmSync(dataDir, { recursive: true, force: true });
  await scratch.drop();
}
