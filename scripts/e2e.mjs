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

function ensureServerBundle() {
  const bundle = join(root, 'dist/server/main.mjs');
  const built = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
  const sources = Math.max(
    newestMtime(join(root, 'src')),
    newestMtime(join(root, 'scripts/build-server.mjs')),
    newestMtime(join(root, 'package-lock.json')),
  );
  if (!forceBuild && built > sources) return;
  console.log('[e2e] building the server bundle (scripts/build-server.mjs)...');
  if (run(process.execPath, [join(root, 'scripts/build-server.mjs')]) !== 0) {
    console.error('[e2e] FAILED: the server does not bundle.');
    process.exit(1);
  }
}

function ensureBuild() {
  const index = join(root, 'dist/web/index.html');
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  const sources = Math.max(
    newestMtime(join(root, 'src/web')),
    newestMtime(join(root, 'src/features')),
    newestMtime(join(root, 'src/shared')),
    newestMtime(join(root, 'src/portal')),
    newestMtime(join(root, 'index.html')),
    newestMtime(join(root, 'portal.html')),
    newestMtime(join(root, 'vite.config.ts')),
  );
  if (!forceBuild && built > sources) return;
  console.log('[e2e] building the SPA (vite build)...');
  if (run(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn']) !== 0) {
    console.error('[e2e] FAILED: the SPA does not build.');
    process.exit(1);
  }
}

ensureChromium();
ensureBuild();
ensureServerBundle();
const status = run(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'e2e', ...files]);
process.exit(status);
