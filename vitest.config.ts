import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * The ui project runs the real server in its tests' process (decision 085) under the browser transform, which makes
 * `new URL('./x', import.meta.url)` an http asset URL: outside the browser's code (`src/web`, `src/portal`, `ui/`),
 * a module's `import.meta.url`, `dirname` and `filename` stay its file's, as under Node (the PGlite worker thread).
 */
function serverModuleFiles(): Plugin {
  const browser = /\/src\/(web|portal)\/|\/ui\//;
  return {
    name: 'server-module-files',
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0];
      if (!file.includes('/src/') || browser.test(file) || !code.includes('import.meta.')) return;
      return code
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(file).href))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(file)))
        .replaceAll('import.meta.filename', JSON.stringify(file));
    },
  };
}

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'api',
          environment: 'node',
          include: ['src/**/*.test.ts'],
          globalSetup: ['src/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // Two files at a time on two cores: a file waits on its database thread, server processes and
          // argon2 much of the time. The modules are loaded once per worker rather than once per file (their
          // import was an eighth of the run); each file still has its own app and database (decision 028).
          maxWorkers: 2,
          isolate: false,
          // Hundreds of sign-ups: argon2's cheapest instead of OWASP's ~50 ms a hash (src/server/passwords.ts;
          // the production parameters are tested there and in the servers the bundle and shutdown tests start).
          // A request statement waits for the embedded database at most DB_WAIT_MS (10 s) and then fails with 503:
          // on a loaded machine a test's bulk fixture or a busy file crossed it. The wait itself is tested with
          // its own short limit (pglite-thread.test.ts); here it is far past any test's own timeout.
          env: { ARGON2_TEST_COST: 'low', DB_WAIT_MS: '600000' },
        },
      },
      {
        plugins: [react(), serverModuleFiles()],
        test: {
          name: 'ui',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx'],
          setupFiles: ['src/web/test/setup.ts'],
          // UI tests talk to the real app (src/web/test/real-api.ts, decision 085): the api project's migrated
          // database, cheap password hashes and database wait.
          globalSetup: ['src/server/test/global-setup.ts'],
          env: { ARGON2_TEST_COST: 'low', DB_WAIT_MS: '600000' },
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // The same as the api project's: vitest runs projects together only when their workers agree.
          maxWorkers: 2,
        },
      },
      {
        // Browser journeys: run through `npm run test:e2e` (scripts/e2e.mjs builds the SPA and checks Chromium first).
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.e2e.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          pool: 'forks',
          fileParallelism: false,
          expect: { poll: { timeout: 15_000, interval: 100 } },
        },
      },
    ],
  },
});
