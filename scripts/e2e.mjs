#!/usr/bin/env node
// Browser journeys: makes sure the system Chromium is there (installs the Debian package when it can,
// otherwise fails loudly: a browser test is never skipped), builds the SPA and the server bundle (what
// `npm start` serves) when missing or older than their sources, then runs the vitest project "e2e" (each
// file starts the bundle on a free port: a fault of the build fails the journeys).
// Usage: node scripts/e2e.mjs [e2e/<file>.e2e.ts ...] [--build]
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { ensureChromium } from './ensure-chromium.mjs';
import { ensureServerBundle, ensureSpa } from './ensure-built.mjs';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const forceBuild = args.includes('--build');
const files = args.filter((a) => a !== '--build');

function run(cmd, cmdArgs, opts = {}) {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit', ...opts });
  return r.status ?? 1;
}

ensureChromium();
try {
  ensureSpa({ force: forceBuild });
  ensureServerBundle({ force: forceBuild });
} catch (err) {
  console.error(`[e2e] FAILED: ${err.message}.`);
  process.exit(1);
}
const status = run(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'e2e', ...files]);
process.exit(status);
