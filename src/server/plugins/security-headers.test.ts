import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg, createTestApp, type TestApp } from '../test/harness';
import { helmetHeaders } from './security-headers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

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

  it('works the headers out from the options: HSTS only when asked', () => {
    expect(helmetHeaders({ strictTransportSecurity: false })['strict-transport-security']).toBeUndefined();
    expect(helmetHeaders({})['strict-transport-security']).toMatch(/max-age=\d+/);
  });
});
