import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('/api/docs', () => {
  it('serves the OpenAPI document of every API route, built on the first visit', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    for (const route of t.app.apiRoutes) expect(documented).toContain(`${route.method} ${route.url}`);
    // The zod schemas become JSON schemas: the users list documents its page size.
    const users = doc.paths['/api/user/getCompanyUsers'].get;
    expect(users.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['page', 'pageSize']));
  });

  it('serves the UI page and its assets, with our security headers', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger');
    expect(String(page.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    const script = await t.app.inject({ method: 'GET', url: '/api/docs/static/swagger-ui-bundle.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
    expect((await t.app.inject({ method: 'GET', url: '/api/docs/yaml' })).body).toContain('openapi:');
  });
});
