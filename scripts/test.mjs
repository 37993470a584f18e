// `npm test`: everything, in order: typecheck, lint, API and UI tests, browser journeys.
// Runs on PGlite, or on PostgreSQL when DATABASE_URL is set.
import { spawnSync } from 'node:child_process';
import { ensureDeps } from './ensure-deps.mjs';

ensureDeps();
// The browser journeys (scripts/e2e.mjs) install the system Chromium when missing, or fail loudly.

const steps = [
  ['typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']],
  ['lint', 'npx', ['eslint', '.', '--max-warnings', '0']],
  ['format', 'npx', ['prettier', '--check', '--log-level', 'warn', '.']],
  ['api + ui tests', 'npx', ['vitest', 'run', '--project', 'api', '--project', 'ui']],
  ['browser journeys', 'node', ['scripts/e2e.mjs']],
];

const db = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
for (const [name, cmd, args] of steps) {
  console.log(`\n=== ${name} (${db}) ===`);
  const started = Date.now();
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  console.log(`=== ${name}: ${res.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s ===`);
  if (res.status !== 0) process.exit(res.status ?? 1);
}
