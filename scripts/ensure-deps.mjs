// Installs npm dependencies when they are missing or older than the lockfile. Shared by start and test.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

export function ensureDeps() {
  const lock = existsSync('package-lock.json') ? statSync('package-lock.json').mtimeMs : 0;
  const marker = 'node_modules/.package-lock.json';
  if (existsSync(marker) && statSync(marker).mtimeMs >= lock) return;
  // `npm install` installs the locked versions; `npm ci` refuses lockfiles whose optional
  // platform packages (rollup's) were recorded by another npm version.
  console.log('Installing dependencies (npm install)…');
  execSync('npm install --no-audit --no-fund', { stdio: 'inherit' });
}
