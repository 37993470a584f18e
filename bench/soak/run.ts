/**
 * Soak: 100 keep-alive connections for 10 minutes against the real server process on PostgreSQL, a mix of
 * reads (work-order list, statistics, get-app-data, users) and 5% creates. Prints a row per window (req/s,
 * p50, p99, errors, server RSS) and the memory trend after warm-up. Target (issue 9): no error, flat memory.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/soak/run.ts [--minutes 10] [--connections 100]
 *
 * A PostgreSQL server with autovacuum off (this workplace's CI machines: conf.d/90-ci.conf) never refreshes the
 * planner's statistics while the creates grow the organisation from 500 to ~20,000 work orders, and the plans
 * made for 500 slow the reads down as it grows; the soak then does autovacuum's work itself, a `vacuum (analyze)`
 * of its database every minute (autovacuum's default naptime), and says so.
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { benchOrg, requirePostgres, rssMiB, scratchDatabase, startBenchServer, stopServer, sender } from '../lib/server';
import { fmt } from '../lib/measure';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, connections: { type: 'string', default: '100' }, window: { type: 'string', default: '30' } },
});
const MINUTES = Number(values.minutes);
const CONNECTIONS = Number(values.connections);
const WINDOW_S = Number(values.window);

const send = sender(CONNECTIONS);

const adminUrl = requirePostgres();
const scratch = await scratchDatabase(adminUrl, 'cmms_bench_soak');
const server = await startBenchServer({ DATABASE_URL: scratch.url });
try {
  const org = await benchOrg(server.port, 'soak', 500);
  const reads = [
    '/api/work-orders/get-work-orders?page=1&limit=25',
    '/api/work-orders/get-statistics',
    '/api/user/get-app-data',
    '/api/user/getCompanyUsers?page=1&limit=25',
  ];
  let n = 0;
  const oneRequest = () => {
    const i = n++;
    if (i % 20 === 19)
      return send(server.port, org.host, org.token, 'POST', '/api/work-orders/add-work-order?page=1&limit=1', { title: `Soak ${i}`, priority: 'low' });
    return send(server.port, org.host, org.token, 'GET', reads[i % reads.length]);
  };

  interface Window {
    latencies: number[];
    errors: number;
    statuses: Map<number, number>;
  }
  const fresh = (): Window => ({ latencies: [], errors: 0, statuses: new Map() });
  let current = fresh();
  const rows: { minute: number; rps: number; p50: number; p99: number; errors: number; rss: number }[] = [];
  let totalErrors = 0;
  let total = 0;
  const renewal = setInterval(() => void org.renew(), 4 * 60_000);
  const db = new pg.Client({ connectionString: scratch.url });
  await db.connect();
  const {
    rows: [{ autovacuum }],
  } = await db.query('show autovacuum');
  let vacuuming = false;
  const vacuum =
    autovacuum === 'on'
      ? undefined
      : setInterval(() => {
          if (vacuuming) return;
          vacuuming = true;
          void db
            .query('vacuum (analyze)')
            .catch(() => {})
            .finally(() => (vacuuming = false));
        }, 60_000);
  console.log(`PostgreSQL autovacuum: ${autovacuum}${vacuum ? ' (the soak runs vacuum (analyze) on its database every minute instead)' : ''}`);
  const started = performance.now();
  const until = started + MINUTES * 60_000;
  const ticker = setInterval(() => {
    const w = current;
    current = fresh();
    w.latencies.sort((a, b) => a - b);
    const at = (p: number) => w.latencies[Math.min(w.latencies.length - 1, Math.floor(p * w.latencies.length))] ?? NaN;
    const row = {
      minute: (performance.now() - started) / 60_000,
      rps: w.latencies.length / WINDOW_S,
      p50: at(0.5),
      p99: at(0.99),
      errors: w.errors,
      rss: rssMiB(server.child.pid),
    };
    rows.push(row);
    const odd = [...w.statuses]
      .filter(([s]) => s >= 300 || s === 0)
      .map(([s, c]) => `${s}x${c}`)
      .join(' ');
    console.log(
      `${fmt(row.minute, 1)} min  ${fmt(row.rps, 0)} req/s  p50 ${fmt(row.p50, 1)} ms  p99 ${fmt(row.p99, 1)} ms  errors ${row.errors}${odd ? ` (${odd})` : ''}  server RSS ${fmt(row.rss, 0)} MiB`,
    );
  }, WINDOW_S * 1000);
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const status = await oneRequest();
        const w = current;
        w.latencies.push(performance.now() - t0);
        w.statuses.set(status, (w.statuses.get(status) ?? 0) + 1);
        total++;
        if (status === 0 || status >= 400) {
          w.errors++;
          totalErrors++;
        }
      }
    }),
  );
  clearInterval(ticker);
  clearInterval(renewal);
  clearInterval(vacuum);
  await db.end();

  // Memory trend after the first minute of warm-up: least-squares slope of RSS over time.
  const steady = rows.filter((r) => r.minute > 1);
  const mx = steady.reduce((s, r) => s + r.minute, 0) / steady.length;
  const my = steady.reduce((s, r) => s + r.rss, 0) / steady.length;
  const slope = steady.reduce((s, r) => s + (r.minute - mx) * (r.rss - my), 0) / steady.reduce((s, r) => s + (r.minute - mx) ** 2, 0);
  console.log(
    `\nSoak (${new Date().toISOString().slice(0, 10)}): ${CONNECTIONS} connections, ${MINUTES} min, ${total} requests, ${fmt(total / (MINUTES * 60), 0)} req/s`,
  );
  console.log(`errors: ${totalErrors}`);
  console.log(
    `server RSS after warm-up: first ${fmt(steady[0]?.rss ?? NaN, 0)} MiB, last ${fmt(steady.at(-1)?.rss ?? NaN, 0)} MiB, max ${fmt(Math.max(...rows.map((r) => r.rss)), 0)} MiB, trend ${fmt(slope, 2)} MiB/min`,
  );
  console.log(`p99 per window: ${rows.map((r) => fmt(r.p99, 0)).join(' ')} ms`);
} finally {
  await stopServer(server);
  await scratch.drop();
}
