// Installs npm dependencies when they are missing or older than the lockfile. Shared by start and test.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

export function ensureDeps() {
  const lock = existsSync('package-lock.json') ? statSync('package-lock.json').mtimeMs : 0;
  const marker = 'node_modules/.package-lock.json';
  if (existsSync(marker) && statSync(marker).mtimeMs >= lock) return;
  console.log('Installing dependencies (npm ci)…');
  execSync(existsSync('package-lock.json') ? 'npm ci --no-audit --no-fund' : 'npm install --no-audit --no-fund', { stdio: 'inherit' });
}
