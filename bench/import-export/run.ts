/**
 * Import and export at size (issue 28, decision 042), against the real server as its own process:
 * 1. Import: 100,000 asset rows in one all-or-nothing request into a fresh organisation of a scratch database
 *    (target: under 60 s on PostgreSQL); prints the time, rows/s and the server's peak memory.
 * 2. Export: the work orders of the organisation with a million of them in cmms_bench_10m (bench/generate),
 *    streamed as CSV; prints time to first byte, total time, bytes and the server's peak memory (the export
 *    must never hold all rows). Skipped when that database is missing.
 * 3. `--only zip` (not by default: it reads every list of that organisation): the same organisation's whole
 *    archive (`export-organisation`, a CSV per list and its files), with the same figures.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/import-export/run.ts [--rows 100000] [--db cmms_bench_10m] [--only import,export,zip]
 */
import { request } from 'node:http';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { migrate, openDatabase } from '../../src/server/db/client';
import { sessionTokenFor } from '../lib/session-token';
import { BIG_SUBDOMAIN } from '../generate/orgs';
import { benchOrg, requirePostgres, rssMiB, scratchDatabase, startBenchServer, stopServer } from '../lib/server';
import { orgFetch } from '../../src/server/test/server-process';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    db: { type: 'string', default: 'cmms_bench_10m' },
    only: { type: 'string', default: 'import,export' },
  },
});
const adminUrl = requirePostgres();
const ROWS = Number(values.rows);
const only = values.only.split(',');

/** Samples a process's resident memory every 50 ms until stopped; returns the peak in MiB. */
function peakMemory(pid: number | undefined) {
  let peak = rssMiB(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 50);
  return { baseline: peak, stop: () => (clearInterval(timer), Math.max(peak, rssMiB(pid))) };
}

const mib = (n: number) => `${n.toFixed(0)} MiB`;

if (only.includes('import')) {
  const scratch = await scratchDatabase(adminUrl, 'cmms_bench_import');
  const server = await startBenchServer({ DATABASE_URL: scratch.url });
  try {
    const org = await benchOrg(server.port, 'importer');
    const api = orgFetch(server.port, org.host, org.token);
    const cat = await api('/api/asset-categories/add-asset-category', { method: 'POST', body: { name: 'Pumps', code: 'PMP' } });
    if (cat.status !== 201) throw new Error(`category ${cat.status}: ${await cat.text()}`);
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      name: `Pump ${i}`,
      assetCode: `P-${i}`,
      category: i % 2 ? 'Pumps' : 'pmp',
      date: '2024-05-01',
      status: i % 3 ? 'Operational' : 'Not_Operational',
      serial: `SN-${i}`,
      description: 'Centrifugal pump, imported',
    }));
    const body = { rows, mode: 'all' };
    const memory = peakMemory(server.child.pid);
    const started = performance.now();
    const res = await api('/api/data-transfer/import/assets', { method: 'POST', body });
    const seconds = (performance.now() - started) / 1000;
    const peak = memory.stop();
    const result = await res.json<{ imported: number; problems: unknown[] }>();
    if (res.status !== 200 || result.imported !== ROWS) throw new Error(`import ${res.status}: ${JSON.stringify(result).slice(0, 500)}`);
    console.log(
      `import: ${ROWS.toLocaleString('en-US')} asset rows (${(JSON.stringify(body).length / 1048576).toFixed(1)} MiB of JSON), one transaction: ${seconds.toFixed(1)} s, ${Math.round(ROWS / seconds).toLocaleString('en-US')} rows/s, server memory ${mib(memory.baseline)} -> peak ${mib(peak)} (target < 60 s: ${seconds < 60 ? 'met' : 'MISSED'})`,
    );
  } finally {
    await stopServer(server);
    await scratch.drop();
  }
}

/** Downloads `path` as the organisation's admin: time to first byte, total, bytes, lines and the server's peak memory. */
async function download(port: number, pid: number | undefined, host: string, token: string, path: string) {
  const memory = peakMemory(pid);
  const started = performance.now();
  let firstByte = 0;
  let bytes = 0;
  let lines = 0;
  const status = await new Promise<number>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host, authorization: `Bearer ${token}` } }, (res) => {
      res.on('data', (chunk: Buffer) => {
        if (!firstByte) firstByte = performance.now() - started;
        bytes += chunk.length;
        for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
      });
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
  const seconds = (performance.now() - started) / 1000;
  const peak = memory.stop();
  if (status !== 200) throw new Error(`${path}: ${status}`);
  return { firstByte, seconds, bytes, lines, baseline: memory.baseline, peak };
}

if (only.includes('export') || only.includes('zip')) {
  const url = new URL(adminUrl);
  url.pathname = `/${values.db}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const exists = (await admin.query(`select 1 from pg_database where datname = $1`, [values.db])).rowCount === 1;
  await admin.end();
  if (!exists) {
    console.log(`export: skipped (no database ${values.db}; run bench/generate first, see bench/README.md)`);
  } else {
    const databaseUrl = url.toString();
    const database = await openDatabase({ databaseUrl });
    await migrate(database);
    const server = await startBenchServer({ DATABASE_URL: databaseUrl, JWT_SECRET: 'bench-secret-bench-secret-bench-secret' });
    try {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      const { rows } = await client.query(
        `select o.id, (select count(*) from work_orders w where w.org_id = o.id)::int as n from organizations o where subdomain = $1`,
        [BIG_SUBDOMAIN],
      );
      await client.end();
      const token = await sessionTokenFor(database.db, 'bench-secret-bench-secret-bench-secret', rows[0].id, 1);
      await database.close();
      const host = `${BIG_SUBDOMAIN}.localhost`;
      if (only.includes('export')) {
        const r = await download(server.port, server.child.pid, host, token, '/api/data-transfer/export/work-orders');
        console.log(
          `export: ${(r.lines - 1).toLocaleString('en-US')} of ${rows[0].n.toLocaleString('en-US')} work orders, ${(r.bytes / 1048576).toFixed(0)} MiB of CSV: first byte after ${r.firstByte.toFixed(0)} ms, total ${r.seconds.toFixed(1)} s (${Math.round((r.lines - 1) / r.seconds).toLocaleString('en-US')} rows/s), server memory ${mib(r.baseline)} -> peak ${mib(r.peak)}`,
        );
      }
      if (only.includes('zip')) {
        const r = await download(server.port, server.child.pid, host, token, '/api/data-transfer/export-organisation');
        console.log(
          `organisation archive: ${(r.bytes / 1048576).toFixed(0)} MiB of ZIP: first byte after ${r.firstByte.toFixed(0)} ms, total ${r.seconds.toFixed(1)} s, server memory ${mib(r.baseline)} -> peak ${mib(r.peak)}`,
        );
      }
    } finally {
      await stopServer(server);
    }
  }
}
