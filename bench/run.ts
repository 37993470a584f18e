/**
 * `npm run bench`: every benchmark in turn, each printing its own figures (see bench/README.md).
 * `npm run bench -- --only stack,drivers` runs some of them. All need DATABASE_URL (a PostgreSQL server);
 * `scale` and `analytics` need the databases bench/generate filled and are skipped when they are missing.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import pg from 'pg';

const ALL = ['stack', 'drivers', 'cold-start', 'nginx', 'frontend', 'work-orders', 'pm-generator', 'import-export', 'scale', 'analytics', 'soak'] as const;
const ARGS: Record<string, string[]> = { 'work-orders': ['--sizes', '10000,100000'], frontend: ['--build'] };
const { values } = parseArgs({ options: { only: { type: 'string' } } });
const chosen = values.only ? values.only.split(',') : [...ALL];
if (!process.env.DATABASE_URL) {
  console.error('Set DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/postgres');
  process.exit(1);
}

/** bench/scale reads cmms_bench_10m, bench/analytics the 100k tenant's cmms_bench_100k (bench/README.md). */
async function hasDatabase(name: string) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const { rowCount } = await client.query(`select 1 from pg_database where datname = $1`, [name]);
  await client.end();
  return rowCount === 1;
}

let failed = 0;
for (const name of chosen) {
  if ((name === 'scale' || name === 'analytics') && !(await hasDatabase(name === 'scale' ? 'cmms_bench_10m' : 'cmms_bench_100k'))) {
    console.log(`\n## ${name}: skipped (run bench/generate first, see bench/README.md)`);
    continue;
  }
  console.log(`\n## ${name}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', `bench/${name}/run.ts`, ...(ARGS[name] ?? [])], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
