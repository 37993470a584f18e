import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { orgFetch, startServerProcess } from './test/server-process';
import { ROOT } from './paths';

/**
 * What `npm start` runs is the esbuild bundle (scripts/build-server.mjs), not the sources the other tests
 * load through tsx: a package that breaks when bundled would only show in production. So the bundle is
 * built here and started on a fresh embedded database with the demo organisation, and the requests that
 * reach the kept-outside packages (argon2, pdfkit, swagger, pino) and the bundled ones are made.
 */
describe('the production bundle', () => {
  it('builds, starts, seeds the demo, signs in and serves lists, PDFs (a quotation, asset labels) and the API docs', { timeout: 180_000 }, async () => {
    const { buildServer } = (await import(join(ROOT, 'scripts/build-server.mjs'))) as { buildServer: (outfile: string) => Promise<void> };
    const outfile = join(ROOT, 'node_modules/.cache/cmms-bundle-test/main.mjs');
    await buildServer(outfile);
    const server = await startServerProcess(
      {
        DATABASE_URL: '',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'cmms-bundle-')),
        SEED_DEMO: 'true',
        JWT_SECRET: 'bundle-test-secret-bundle-test-secret',
        LOG_LEVEL: 'warn',
        ARGON2_TEST_COST: undefined,
      },
      undefined,
      [outfile],
    );
    try {
      const host = 'demo.localhost';
      const login = await orgFetch(server.port, host)('/api/login', { method: 'POST', body: { email: 'admin@demo.com', password: 'Demo1234!' } });
      expect(login.status).toBe(200);
      const { accessToken } = await login.json<{ accessToken: string }>();
      const call = orgFetch(server.port, host, accessToken);
      const workOrders = await call('/api/work-orders/get-work-orders?page=1&pageSize=10');
      expect(workOrders.status).toBe(200);
      expect((await workOrders.json<{ workOrders: unknown[] }>()).workOrders.length).toBeGreaterThan(0);
      const quotations = await (await call('/api/quotations/get-quotations?page=1&pageSize=10')).json<{ quotations: { id: number }[] }>();
      const pdf = await call(`/api/quotations/get-quotation-pdf/${quotations.quotations[0].id}`);
      expect(pdf.status).toBe(200);
      expect((await pdf.text()).startsWith('%PDF')).toBe(true);
      // Labels reach qrcode (a CommonJS package bundled in): its functions must be found through the bundle's default export too.
      const assets = await (await call('/api/assets/get-assets?page=1&pageSize=10')).json<{ assets: { id: number }[] }>();
      const labels = await call('/api/portal/asset-labels', { method: 'POST', body: { assetIds: [assets.assets[0].id], layout: 'sheet-24' } });
      expect(labels.status).toBe(200);
      expect((await labels.text()).startsWith('%PDF')).toBe(true);
      const docs = await call('/api/docs/json');
      expect(docs.status).toBe(200);
      expect(Object.keys((await docs.json<{ paths: object }>()).paths).length).toBeGreaterThan(100);
      const bad = await call('/api/work-orders/get-work-orders?pageSize=7');
      expect(bad.status).toBe(400);
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });
});
