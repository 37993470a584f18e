/**
 * Cold start: from spawning the server process (exactly what `npm start` runs after its build: the bundle
 * dist/server/main.mjs, built here first) to the first
 * 200 from /api/ready, on PostgreSQL and on an existing PGlite data directory. The first start of each
 * (migrations, demo seed) is not timed; then five timed starts, median printed. Targets (issue 9): under
 * 1 s on PostgreSQL, under 1.5 s on an existing PGlite database.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/cold-start/run.ts [--runs 5]
 */
import { execFileSync, spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../../src/server/test/server-process';
import { BENCH_ENV, requirePostgres, scratchDatabase } from '../lib/server';
import { fmt, median } from '../lib/measure';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const RUNS = Number(values.runs);

const ready = (port: number) =>
  new Promise<boolean>((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/ready' }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.end();
  });

/** CPU time (user + system) a process has used so far, in ms: less sensitive than wall time to other load. */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in 1/100 s ticks
  } catch {
    return NaN;
  }
}

/** Milliseconds from spawn to the first ready answer, and the CPU time used; the process is stopped afterwards. */
async function timeToReady(env: Record<string, string>): Promise<{ wall: number; cpu: number }> {
  const port = await freePort();
  const started = performance.now();
  let output = '';
  const child = spawn(process.execPath, ['dist/server/main.mjs'], {
    env: { ...process.env, ...BENCH_ENV, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((r) => child.on('exit', r));
  while (!(await ready(port))) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${output}`);
    if (performance.now() - started > 60_000) throw new Error(`server did not become ready:\n${output}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  const wall = performance.now() - started;
  const cpu = cpuMs(child.pid);
  child.kill('SIGTERM');
  await exited;
  return { wall, cpu };
}

async function series(label: string, env: Record<string, string>) {
  const first = (await timeToReady({ ...env, SEED_DEMO: 'true' })).wall; // creates, migrates and seeds: not timed
  const runs: { wall: number; cpu: number }[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await timeToReady(env));
  return { label, first, times: runs.map((r) => r.wall), cpu: runs.map((r) => r.cpu) };
}

const adminUrl = requirePostgres();
execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
const scratch = await scratchDatabase(adminUrl, 'cmms_bench_cold');
const dataDir = mkdtempSync(join(tmpdir(), 'cmms-bench-cold-'));
try {
  const results = [
    await series('PostgreSQL', { DATABASE_URL: scratch.url }),
    await series('PGlite, existing data directory', { DATABASE_URL: '', DATA_DIR: dataDir }),
  ];
  console.log(`\nCold start to /api/ready (${new Date().toISOString().slice(0, 10)}, ${RUNS} runs each after one untimed first start)`);
  console.log('| database | first start (migrate + seed) ms | median ms | min ms | max ms | CPU ms (median) | target |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of results) {
    const target = r.label === 'PostgreSQL' ? '< 1000 ms' : '< 1500 ms';
    console.log(
      `| ${r.label} | ${fmt(r.first, 0)} | ${fmt(median(r.times), 0)} | ${fmt(Math.min(...r.times), 0)} | ${fmt(Math.max(...r.times), 0)} | ${fmt(median(r.cpu), 0)} | ${target} |`,
    );
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  await scratch.drop();
}
