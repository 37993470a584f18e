#!/usr/bin/env node
// Browser journeys: makes sure the system Chromium is there (installs the Debian package when it can,
// otherwise fails loudly: a browser test is never skipped), builds the SPA and the server bundle (what
// `npm start` serves) when missing or older than their sources, then runs the vitest project "e2e" (each
// file starts the bundle on a free port: a fault of the build fails the journeys).
// Usage: node scripts/e2e.mjs [e2e/<file>.e2e.ts ...] [--build]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureChromium } from './ensure-chromium.mjs';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const forceBuild = args.includes('--build');
const files = args.filter((a) => a !== '--build');

function run(cmd, cmdArgs, opts = {}) {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit', ...opts });
  return r.status ?? 1;
}

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules') continue;
    max = Math.max(max, newestMtime(join(path, entry)));
  }
  return max;
}

/** Runs `script` under node when `output` is missing or older than any of `sources`. */
function ensureBuilt(what, output, sources, script, scriptArgs = []) {
  const built = existsSync(join(root, output)) ? statSync(join(root, output)).mtimeMs : 0;
  const newest = Math.max(...sources.map((source) => newestMtime(join(root, source))));
  if (!forceBuild && built > newest) return;
  console.log(`[e2e] building ${what}...`);
  if (run(process.execPath, [join(root, script), ...scriptArgs]) !== 0) {
    console.error(`[e2e] FAILED: ${what} does not build.`);
    process.exit(1);
  }
}

ensureChromium();
ensureBuilt('the SPA (vite build)', 'dist/web/index.html',
  ['src/web', 'src/features', 'src/shared', 'src/portal', 'index.html', 'portal.html', 'vite.config.ts'],
  'node_modules/vite/bin/vite.js', ['build', '--logLevel', 'warn']);
ensureBuilt('the server bundle (scripts/build-server.mjs)', 'dist/server/main.mjs',
  ['src', 'scripts/build-server.mjs', 'package-lock.json'], 'scripts/build-server.mjs');
const status = run(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'e2e', ...files]);
process.exit(status);
