import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { createOrg, useTestApp } from '../test/harness';
import { helmetHeaders } from './security-headers';

const t = useTestApp();

describe('security headers', () => {
  it('sends the CSP and helmet headers on public and signed-in responses, errors included', async () => {
    const org = await createOrg(t);
    for (const res of [
      await t.app.inject({ method: 'GET', url: '/api/health' }),
      await t.app.inject({ method: 'GET', url: '/api/user/getCompanyUsers', headers: { host: org.host } }),
      await t.app.inject({ method: 'GET', url: '/api/user/getCompanyUsers', headers: { host: org.host, authorization: `Bearer ${org.admin.token}` } }),
    ]) {
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('keeps API answers out of caches, errors and 404s included, and lets hashed assets keep their long cache', async () => {
    const web = mkdtempSync(join(tmpdir(), 'cmms-web-'));
    mkdirSync(join(web, 'assets'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>CMMS</title>');
    writeFileSync(join(web, 'assets', 'index-abc123.js'), 'console.log(1)');
    const app = await buildApp({ database: t.database, config: t.config, logger: false, webRoot: web });
    try {
      const org = await createOrg(t);
      const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers: { host: org.host, ...headers } });
      const api = [
        await get('/api/health'),
        await get('/api/user/getCompanyUsers', { authorization: `Bearer ${org.admin.token}` }),
        await get('/api/user/getCompanyUsers'),
        await get('/api/no-such-route'),
        await app.inject({ method: 'POST', url: '/api/login', headers: { host: org.host, 'content-type': 'application/json' }, payload: '{bad json' }),
      ];
      expect(api.map((r) => r.statusCode)).toEqual([200, 200, 401, 404, 400]);
      for (const res of api) expect(res.headers['cache-control']).toBe('no-store');

      const asset = await get('/assets/index-abc123.js');
      expect(asset.statusCode).toBe(200);
      // hashed assets: a year, never revalidated; the page itself always revalidated (it names the new hashes)
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const page = await get('/work-orders');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect((await get('/index.html')).headers['cache-control']).toBe('no-cache');
      const home = await get('/');
      expect(home.statusCode).toBe(200);
      expect(home.body).toContain('<title>CMMS</title>');
      expect(home.headers['cache-control']).toBe('no-cache');
      const missingFile = await get('/nothing-here.png');

      for (const res of [...api, asset, page, home, missingFile]) {
        const policy = String(res.headers['permissions-policy']);
        expect(policy).toContain('camera=(self)');
        expect(policy).toContain('microphone=()');
        expect(policy).toContain('geolocation=()');
        expect(policy).toContain('payment=()');
        expect(policy).toContain('usb=()');
      }
    } finally {
      await app.close();
    }
  });

  it('works the headers out from the options: HSTS only when asked', () => {
    expect(helmetHeaders({ strictTransportSecurity: false })['strict-transport-security']).toBeUndefined();
    expect(helmetHeaders({})['strict-transport-security']).toMatch(/max-age=\d+/);
  });
});
