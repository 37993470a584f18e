import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/harness';
import { breakingChanges } from './openapi-compat';

/**
 * Issue 28: the API document is checked for breaking changes against the last release's, committed as
 * docs/api/openapi.json (decision 049). Additions pass; a path, method, request field or response field of the
 * committed document that is gone or changed type fails. To change the API on purpose, write the file again:
 * `npm run api:release-document` (UPDATE_OPENAPI=1 on this test), and commit it with the change.
 */
const RELEASED = fileURLToPath(new URL('../../../docs/api/openapi.json', import.meta.url));
const HOW_TO_UPDATE =
  'If the change is intended (a new release breaks these clients on purpose), write the document again with `npm run api:release-document` and commit docs/api/openapi.json.';

const t = useTestApp();

const op = (fields: { query?: Record<string, unknown>; body?: object; response?: object }) => ({
  parameters: Object.entries(fields.query ?? {}).map(([name, schema]) => ({ in: 'query', name, required: false, schema })),
  ...(fields.body ? { requestBody: { required: true, content: { 'application/json': { schema: fields.body } } } } : {}),
  responses: fields.response ? { 200: { content: { 'application/json': { schema: fields.response } } } } : {},
});
const obj = (properties: Record<string, object>, required = Object.keys(properties)) => ({ type: 'object', properties, required });
const doc = (ops: Record<string, Record<string, object>>) => ({ openapi: '3.0.3', paths: ops });

describe('OpenAPI breaking changes', () => {
  const before = doc({
    '/api/things/get-things': {
      get: op({
        query: { name: { type: 'string' } },
        response: obj({ things: { type: 'array', items: obj({ id: { type: 'integer' }, note: { type: 'string', nullable: true } }) } }),
      }),
    },
    '/api/things/add-thing': { post: op({ body: obj({ name: { type: 'string' }, size: { type: 'number' } }, ['name']) }) },
  });

  it('allows additions: routes, optional request fields, response fields', () => {
    const after = structuredClone(before) as any;
    after.paths['/api/things/get-things'].get.responses[200].content['application/json'].schema.properties.things.items.properties.extra = { type: 'string' };
    after.paths['/api/things/add-thing'].post.requestBody.content['application/json'].schema.properties.colour = { type: 'string' };
    after.paths['/api/things/delete-thing'] = { delete: op({}) };
    expect(breakingChanges(before, after)).toEqual([]);
  });

  it('a field that admitted anything still does when it also admits null (a clearable date)', () => {
    const old = structuredClone(before) as any;
    old.paths['/api/things/add-thing'].post.requestBody.content['application/json'].schema.properties.due = {};
    const after = structuredClone(old);
    after.paths['/api/things/add-thing'].post.requestBody.content['application/json'].schema.properties.due = { anyOf: [{}, { type: 'null' }] };
    expect(breakingChanges(old, after)).toEqual([]);
    after.paths['/api/things/add-thing'].post.requestBody.content['application/json'].schema.properties.due = { nullable: true };
    expect(breakingChanges(old, after)).toEqual([]);
    after.paths['/api/things/add-thing'].post.requestBody.content['application/json'].schema.properties.due = { anyOf: [{ type: 'string' }, { type: 'null' }] };
    expect(breakingChanges(old, after)).toHaveLength(1);
  });

  it('names each removal and change of type', () => {
    const after = structuredClone(before) as any;
    delete after.paths['/api/things/add-thing'];
    const list = after.paths['/api/things/get-things'].get;
    list.parameters[0].schema = { type: 'number' };
    const item = list.responses[200].content['application/json'].schema.properties.things.items;
    delete item.properties.note;
    item.properties.id = { type: 'string' };
    expect(breakingChanges(before, after)).toEqual([
      'GET /api/things/get-things: request field query:name changed type from string to number',
      "GET /api/things/get-things: 200 answer's things[].id changed type from number to string",
      "GET /api/things/get-things: 200 answer's things[].note is gone",
      'POST /api/things/add-thing: the route is gone',
    ]);
  });

  it('refuses a request field newly required and an answer field no longer always there', () => {
    const after = structuredClone(before) as any;
    after.paths['/api/things/add-thing'].post.requestBody.content['application/json'].schema.required = ['name', 'size'];
    after.paths['/api/things/get-things'].get.responses[200].content['application/json'].schema.properties.things.items.required = ['note'];
    expect(breakingChanges(before, after)).toEqual([
      "GET /api/things/get-things: 200 answer's things[].id is no longer always present",
      'POST /api/things/add-thing: request field body:size is now required',
    ]);
  });

  it("today's document keeps every promise of the last release's (docs/api/openapi.json)", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const today = res.json();
    if (process.env.UPDATE_OPENAPI === '1') {
      writeFileSync(RELEASED, JSON.stringify(today, null, 2) + '\n');
      return;
    }
    expect(existsSync(RELEASED), `docs/api/openapi.json is missing. ${HOW_TO_UPDATE}`).toBe(true);
    const released = JSON.parse(readFileSync(RELEASED, 'utf8'));
    const problems = breakingChanges(released, today);
    expect(problems, `Breaking changes against docs/api/openapi.json:\n${problems.join('\n')}\n${HOW_TO_UPDATE}`).toEqual([]);
  });
});
