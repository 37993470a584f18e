// Generates a migration from the Drizzle tables. A lock serialises concurrent runs so two
// changes never take the same migration number.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

mkdirSync('.tmp', { recursive: true });
execFileSync('flock', ['.tmp/db-generate.lock', 'npx', 'drizzle-kit', 'generate', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
