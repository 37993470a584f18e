import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';

/**
 * Issue 28: every route should declare its response. fastify-type-provider-zod's serializer parses an answer with
 * the declared schema (and strips keys it does not list), so a schema is added route by route with its tests, never
 * in bulk. This test keeps the gap visible: the routes without a 2xx response schema, counted; the count may only go
 * down (lower MISSING_AT_MOST when you add schemas). Decisions 043 and 049.
 */
// 180 when decision 043 landed; the request portal, shared work orders, analytics and import/export (built
// alongside it) brought 48 more routes without one: 228. Decision 049 declared every other route's but the three
// PDFs: 50 (those four features and the PDFs). Then those four features declared theirs (the labels PDF described
// as the CSV and ZIP exports are): 3, the quotation, purchase order and work order PDFs. The count may only go down.
const MISSING_AT_MOST = 3;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('response schemas', () => {
  it('lists the API routes that do not declare their answer, and the list only shrinks', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = res.json() as { paths: Record<string, Record<string, { responses?: Record<string, { content?: unknown }> }>> };
    const missing: string[] = [];
    const declared: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const ok = Object.entries(op.responses ?? {}).some(([code, r]) => code.startsWith('2') && r.content);
        (ok ? declared : missing).push(`${method.toUpperCase()} ${path}`);
      }
    }
    // The routes of decision 043 declare theirs.
    expect(declared).toEqual(expect.arrayContaining(['GET /api/api-keys/list-api-keys', 'POST /api/webhooks/add-webhook', 'GET /api/webhooks/list-deliveries']));
    console.info(`${missing.length} API routes without a response schema:\n${missing.join('\n')}`);
    expect(missing.length).toBeLessThanOrEqual(MISSING_AT_MOST);
  });
});
