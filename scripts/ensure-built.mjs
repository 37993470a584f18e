// Builds the SPA (vite) and the server bundle (scripts/build-server.mjs, what `npm start` serves) when missing or
// older than their sources. Shared by the browser journeys (scripts/e2e.mjs) and the API tests that start the
// bundle as real processes (src/server/test/bundle.ts), so a run builds each at most once. A lock folder keeps
// two test workers from building at the same time (the second waits, then finds the build fresh).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');
export const SERVER_BUNDLE = join(ROOT, 'dist/server/main.mjs');

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

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Holds `node_modules/.cache/cmms-build.lock` while `fn` runs (a lock older than 10 minutes is a crashed build's). */
function locked(fn) {
  const lock = join(ROOT, 'node_modules/.cache/cmms-build.lock');
  mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 10 * 60_000) rmSync(lock, { recursive: true, force: true });
      else sleep(250);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Runs `script` under node when `output` is missing or older than any of `sources`; throws when it fails. */
function ensureBuilt(what, output, sources, script, scriptArgs, force) {
  const stale = () => {
    const built = existsSync(join(ROOT, output)) ? statSync(join(ROOT, output)).mtimeMs : 0;
    return built <= Math.max(...sources.map((source) => newestMtime(join(ROOT, source))));
  };
  if (!force && !stale()) return false;
  return locked(() => {
    if (!force && !stale()) return false; // built by another worker while this one waited
    console.log(`[build] building ${what}...`);
    const r = spawnSync(process.execPath, [join(ROOT, script), ...scriptArgs], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`${what} does not build`);
    return true;
  });
}

/** The SPA in dist/web. */
export const ensureSpa = ({ force = false } = {}) =>
  ensureBuilt(
    'the SPA (vite build)',
    'dist/web/index.html',
    ['src/web', 'src/features', 'src/shared', 'src/portal', 'index.html', 'portal.html', 'vite.config.ts'],
    'node_modules/vite/bin/vite.js',
    ['build', '--logLevel', 'warn'],
    force,
  );

/** The server bundle dist/server/main.mjs; returns its path. */
export function ensureServerBundle({ force = false } = {}) {
  ensureBuilt(
    'the server bundle (scripts/build-server.mjs)',
    'dist/server/main.mjs',
    ['src', 'scripts/build-server.mjs', 'package-lock.json'],
    'scripts/build-server.mjs',
    [],
    force,
  );
  return SERVER_BUNDLE;
}
