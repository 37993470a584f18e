import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOrg, createTestApp, client } from './test/harness';
import { buildApp } from './app';

describe('BASE_DOMAIN=cmms.example.com', () => {
  it('the bare domain is the landing page, an organisation its own host, and the page names the base domain', async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'cmms-web-'));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><html><head><title>x</title></head><body></body></html>');
    const t = await createTestApp({ baseDomain: 'cmms.example.com' });
    try {
      const org = await createOrg(t);
      expect(org.host.endsWith('.cmms.example.com')).toBe(true);
      // The organisation's token is refused on the bare domain: it is no organisation.
      expect((await client(t.app, 'cmms.example.com', org.admin.token).get('/api/user/get-app-data')).status).toBe(401);
      expect((await org.admin.get('/api/user/get-app-data')).status).toBe(200);

      const withWeb = await buildApp({ database: t.database, config: t.config, logger: false, webRoot });
      const page = await withWeb.inject({ method: 'GET', url: '/dashboard', headers: { host: org.host } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<meta name="base-domain" content="cmms.example.com" />');
      await withWeb.close();
    } finally {
      await t.close();
    }
  });
});
