import { describe, expect, it } from 'vitest';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { useTestApp } from '../test/harness';
import { WEBHOOK_EVENTS } from '../../features/webhooks/webhooks.schema';

const t = useTestApp();

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

  it("passes Redocly's recommended rules with no error (issue 45)", async () => {
    const source = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).body;
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config: await createConfig({ extends: ['recommended'] }) });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  });

  it('generates a typed client (openapi-typescript) that compiles, with a program using it', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const dir = mkdtempSync(join(tmpdir(), 'cmms-client-'));
    try {
      writeFileSync(join(dir, 'api.ts'), astToString(await openapiTS(doc)));
      writeFileSync(
        join(dir, 'use.ts'),
        [
          "import type { operations, paths } from './api';",
          "type List = paths['/api/work-orders/get-work-orders']['get']['responses']['200']['content']['application/json'];",
          'export const numberOf = (list: List): string | undefined => list.workOrders[0]?.workOrderId;',
          "type Refusal = operations['getWorkOrders']['responses']['401']['content']['application/json'];",
          "export const refusal: Refusal = { error: 'No valid token or API key' };",
          "type Rotated = operations['rotateWebhookSecret']['responses']['200']['content']['application/json'];",
          'export const secretOf = (answer: Rotated): string => answer.webhook.secret;',
        ].join('\n'),
      );
      const program = ts.createProgram([join(dir, 'use.ts')], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        skipLibCheck: true,
      });
      const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(diagnostics).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // type-checking the generated client of ~250 operations takes tens of seconds on a busy machine
  }, 120_000);

  it('names, summarises, secures and gives refusals to every operation; describes keys, Idempotency-Key and webhooks', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const ops = Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method, op })),
    );
    expect(ops.length).toBeGreaterThan(200);
    const ids = ops.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ops.length);
    expect(doc.paths['/api/work-orders/get-work-orders'].get).toMatchObject({ operationId: 'getWorkOrders', summary: 'Get work orders' });
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearer: [] }]);
    for (const { path, method, op } of ops) {
      expect(op.summary, `${method} ${path}`).toEqual(expect.any(String));
      expect(
        Object.keys(op.responses as object).some((s) => /^4/.test(s)),
        `${method} ${path} has a 4xx`,
      ).toBe(true);
    }
    // public routes need no token; the others answer 401 as the document says
    expect(doc.paths['/api/login'].post.security).toEqual([]);
    expect(doc.paths['/api/webhooks/list-webhooks'].get.responses['401']).toBeDefined();
    expect(doc.paths['/api/webhooks/list-webhooks'].get.security).toBeUndefined();
    expect(doc.info.description).toContain('Idempotency-Key');
    expect(doc.info.description).toContain('webhook-signature');
    expect(doc.info.description).toContain('work-order.assigned');
  });

  it('describes every webhook event as a request we send (x-webhooks of OpenAPI 3.0): its payload schema and the signature headers (issue 45)', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    // 3.0 has no `webhooks` object (3.1): the same shape goes under Redoc's `x-webhooks`.
    expect(doc.openapi).toMatch(/^3\.0\./);
    const hooks = doc['x-webhooks'] as Record<string, { post: Record<string, any> }>;
    expect(Object.keys(hooks).sort()).toEqual([...WEBHOOK_EVENTS].sort());
    const resolve = (ref: string) => doc.components.schemas[ref.replace('#/components/schemas/', '')];
    for (const event of WEBHOOK_EVENTS) {
      const op = hooks[event].post;
      expect(
        op.parameters.map((p: { name: string; in: string; required: boolean }) => `${p.in}:${p.name}:${p.required}`),
        event,
      ).toEqual(['header:webhook-id:true', 'header:webhook-timestamp:true', 'header:webhook-signature:true']);
      const body = resolve(op.requestBody.content['application/json'].schema.$ref);
      expect(body.properties.type, event).toMatchObject({ type: 'string', enum: [event] });
      expect(body.required, event).toEqual(expect.arrayContaining(['type', 'timestamp', 'data']));
      expect(Object.keys(body.properties.data.properties ?? {}).length, `${event} data`).toBeGreaterThan(3);
      expect(op.responses['200']).toBeDefined();
    }
    // The record as the API shows it, and what the event adds.
    const statusChanged = resolve(hooks['work-order.status-changed'].post.requestBody.content['application/json'].schema.$ref).properties.data;
    expect(statusChanged.required).toEqual(expect.arrayContaining(['workOrderId', 'status', 'from', 'to']));
    expect(resolve(hooks['part.stock-below-minimum'].post.requestBody.content['application/json'].schema.$ref).properties.data.required).toEqual([
      'id',
      'name',
      'quantityOnHand',
      'minimumQuantity',
    ]);
    expect(hooks['work-order-share.contractor-updated'].post.parameters[2].description).toContain('HMAC-SHA256');
  });

  it('lists null among the values of every nullable choice, in operations as in webhooks (OpenAPI 3.0.3; issue 45)', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const without: string[] = [];
    let nullableChoices = 0;
    const walk = (node: unknown, path: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${path}/${i}`));
      if (!node || typeof node !== 'object') return;
      const o = node as Record<string, unknown>;
      if (o.nullable === true && Array.isArray(o.enum)) {
        nullableChoices++;
        if (!o.enum.includes(null)) without.push(path);
      }
      for (const [k, v] of Object.entries(o)) walk(v, `${path}/${k}`);
    };
    walk(doc.paths, '#/paths');
    walk(doc.components, '#/components');
    expect(without).toEqual([]);
    // the operations hold nullable choices of their own (a request's frequency, a work order's category…)
    expect(nullableChoices).toBeGreaterThan(0);
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
