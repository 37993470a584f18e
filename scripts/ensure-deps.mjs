// Installs npm dependencies when they are missing or older than the lockfile. Shared by start and test.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

/** `say` and `stdio`: how the caller reports (start: JSON lines on stdout, npm's output on stderr). */
export function ensureDeps(say = (msg) => console.log(`${msg}…`), stdio = 'inherit') {
  const lock = existsSync('package-lock.json') ? statSync('package-lock.json').mtimeMs : 0;
  const marker = 'node_modules/.package-lock.json';
  if (existsSync(marker) && statSync(marker).mtimeMs >= lock) return;
  // `npm install` installs the locked versions; `npm ci` refuses lockfiles whose optional
  // platform packages (rollup's) were recorded by another npm version.
  say('Installing dependencies (npm install)');
  execSync('npm install --no-audit --no-fund', { stdio });
}
