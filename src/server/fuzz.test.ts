import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import { useOrgs, useTestApp } from './test/harness';
import { seedSampleData } from './seed/demo';
import { orgSnapshot } from './test/sql';
import { sampleBody } from './test/sample-bodies';
import { dateFields } from '../shared/dates';

/**
 * Schema-driven fuzzing of every route that takes a body or a query: objects with the schema's own keys
 * filled with hostile values, wrong types and unknown keys. Never a 5xx, never a stack trace or SQL in a
 * response, never a change in another organisation.
 */
const t = useTestApp();
const [victim, attacker] = useOrgs(t, 'Victim', 'Attacker');

beforeAll(async () => {
  await seedSampleData(t.database.db, victim.orgId);
  await seedSampleData(t.database.db, attacker.orgId);
});

const hostileString = fc.oneof(
  fc.constantFrom(
    "' OR 1=1 --",
    "'; DROP TABLE users; --",
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '"><svg/onload=alert(1)>',
    '../../etc/passwd',
    '\u0000',
    '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ✓ العربية',
    '%s%s%s%n',
    '1e309',
    '-1',
    '0',
    'NaN',
    '2147483648',
    '9'.repeat(400),
    'a'.repeat(10_000),
    `${1}`,
    'null',
    'true',
    '2026-02-30T25:61:00Z',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.constantFrom(0, -1, 1, 2147483647, 2147483648, -2147483649, 1e308, Number.MAX_SAFE_INTEGER, 0.5, true, false, null),
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'orgId', 'id', 'role', 'x'), tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** The top-level keys a zod object schema declares (through pipes, effects and refinements). */
function keysOf(schema: unknown): string[] {
  let s = schema as z.ZodType | undefined;
  for (let i = 0; i < 6 && s; i++) {
    const def = (s as unknown as { _zod: { def: Record<string, unknown> } })._zod?.def;
    if (!def) break;
    if (def.type === 'object') return Object.keys(def.shape as object);
    s = (def.in ?? def.innerType ?? def.schema) as z.ZodType | undefined;
  }
  return [];
}

/** A query-string value for anything, including objects without a prototype. */
const asQueryValue = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

const fill = (url: string) => url.replace(/:entityType/g, 'user').replace(/:[A-Za-z]+/g, '1');
const leaks = /at .*\.(ts|js):\d+|node_modules|drizzle|select .* from|insert into|violates|syntax error|stack/i;

const snapshot = (orgId: number) => orgSnapshot(t.database.db, orgId, ['sessions', 'idempotency_keys', 'activities']);

describe('fuzzing every route', () => {
  it('never answers 5xx, never leaks internals, never touches another organisation', async () => {
    const before = await snapshot(victim.orgId);
    const routes = t.app.apiRoutes.filter((r) => r.access !== 'public' && (r.body || r.querystring) && !/logout|refresh|delete-session/.test(r.url));
    let requests = 0;
    for (const route of routes) {
      const keys = keysOf(route.method === 'GET' ? route.querystring : route.body);
      const payload = fc.oneof(
        fc.record(Object.fromEntries(keys.map((k) => [k, hostileValue])), { requiredKeys: [] }),
        fc.record({ ...Object.fromEntries(keys.map((k) => [k, hostileValue])), unknownKey: hostileValue }, { requiredKeys: [] }),
        hostileValue,
      );
      await fc.assert(
        fc.asyncProperty(payload, async (body) => {
          requests++;
          const url = fill(route.url);
          const res =
            route.method === 'GET'
              ? await attacker.admin.get(
                  `${url}?${new URLSearchParams(Object.entries((body && typeof body === 'object' ? body : {}) as Record<string, unknown>).map(([k, v]) => [k, asQueryValue(v)]))}`,
                )
              : route.method === 'DELETE'
                ? await attacker.admin.del(url)
                : await attacker.admin[route.method === 'PUT' ? 'put' : 'post'](url, body ?? {});
          expect(res.status, `${route.method} ${route.url} ${JSON.stringify(body)?.slice(0, 200)} -> ${JSON.stringify(res.body).slice(0, 300)}`).toBeLessThan(
            500,
          );
          expect(JSON.stringify(res.body)).not.toMatch(leaks);
        }),
        // A DELETE sends none of the generated values (its query is the list's) and asks the same each time: the
        // first may delete, the second finds it gone, and forty say no more than two.
        { numRuns: route.method === 'DELETE' ? 2 : Number(process.env.FUZZ_RUNS ?? 40), seed: Number(process.env.FUZZ_SEED ?? 424242) },
      );
    }
    expect(requests).toBeGreaterThan(0);
    expect(await snapshot(victim.orgId)).toBe(before);
  }, 600_000);
});

/** Paths of the date fields of a body schema: every one is made by shared/dates.ts, which registers it. */
function datePaths(schema: unknown, path: string[] = [], depth = 0): string[][] {
  const def = (schema as { _zod?: { def: Record<string, unknown> } } | undefined)?._zod?.def;
  if (!def || depth > 12) return [];
  if (dateFields.has(schema as never) || def.type === 'date') return [path];
  const inner = (s: unknown, p = path) => datePaths(s, p, depth + 1);
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape as Record<string, unknown>).flatMap(([key, field]) => inner(field, [...path, key]));
    case 'pipe':
      return [...inner(def.in), ...inner(def.out)];
    case 'union':
      return (def.options as unknown[]).flatMap((o) => inner(o));
    case 'intersection':
      return [...inner(def.left), ...inner(def.right)];
    default:
      return def.innerType ? inner(def.innerType) : [];
  }
}

/** An ISO 8601 string for any year JavaScript can hold (six digits and a sign outside 0..9999). */
const isoOfYear = (year: number, rest = '-06-15T12:00:00.000Z') =>
  year >= 0 && year <= 9999 ? `${String(year).padStart(4, '0')}${rest}` : `${year < 0 ? '-' : '+'}${String(Math.abs(year)).padStart(6, '0')}${rest}`;

/** Dates JavaScript parses and PostgreSQL refuses, or stores as another day, or that lie outside 1900..9999. */
const extremeDate = fc.oneof(
  fc.constantFrom<unknown>(
    '10000-01-01',
    '+010000-01-01',
    '+275760-09-13',
    '-005000-01-01',
    '0000-01-01',
    '0001-01-01',
    '1899-12-31',
    '-271821-04-20',
    8.64e15,
    -8.64e15,
    253402300800000,
  ),
  fc
    .integer({ min: -271_820, max: 275_759 })
    .filter((y) => y < 1900 || y > 9999)
    .map((y) => isoOfYear(y)),
  fc.integer({ min: 10_000, max: 275_759 }).map((y) => isoOfYear(y, '-01-01')),
);

const setAt = (body: unknown, path: string[], value: unknown) => {
  const copy = structuredClone(body) as Record<string, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
  at[path[path.length - 1]] = value;
  return copy;
};

describe('bodies and dates no route can take', () => {
  const raw = async (method: string, url: string, payload: string, contentType: string) => {
    const res = await t.app.inject({
      method: method as 'POST',
      url: fill(url),
      headers: { host: attacker.host, authorization: `Bearer ${attacker.admin.token}`, 'content-type': contentType },
      payload,
    });
    return { status: res.statusCode, body: res.body };
  };

  it('null and non-object bodies, multipart on JSON routes, wrong content types: a 4xx with a message on every route', async () => {
    const multipart = '--b\r\ncontent-disposition: form-data; name="name"\r\n\r\nx\r\n--b--\r\n';
    const cases: [string, string][] = [
      ['null', 'application/json'],
      ['"x"', 'application/json'],
      ['42', 'application/json'],
      ['[]', 'application/json'],
      ['true', 'application/json'],
      [multipart, 'multipart/form-data; boundary=b'],
      ['--b\r\ncontent-disposition: form-da', 'multipart/form-data; boundary=b'],
      ['name=x', 'text/plain'],
      ['<name>x</name>', 'application/xml'],
    ];
    const writes = t.app.apiRoutes.filter((r) => r.method !== 'GET' && !/logout|refresh|delete-session/.test(r.url));
    expect(writes.length).toBeGreaterThan(20);
    for (const route of writes) {
      for (const [payload, type] of cases) {
        const res = await raw(route.method, route.url, payload, type);
        const what = `${route.method} ${route.url} ${type} ${payload.slice(0, 20)} -> ${res.status} ${res.body.slice(0, 200)}`;
        expect(res.status, what).toBeLessThan(500);
        // A route without a body may ignore it and answer 2xx (a delete, an upload's missing file is a 4xx).
        if (res.status >= 400) expect(JSON.parse(res.body).error, what).toMatch(/\w/);
        expect(res.body, what).not.toMatch(leaks);
        if (route.body && type === 'application/json') expect(res.status, what).toBe(400);
      }
    }
  }, 120_000);

  it('refuses dates outside 1900..9999 in every date field of every route with a field message', async () => {
    const withDates = t.app.apiRoutes
      .filter((r) => r.method !== 'GET' && r.body)
      .map((r) => ({ route: r, paths: [...new Map(datePaths(r.body).map((p) => [p.join('.'), p])).values()] }))
      .filter((r) => r.paths.length > 0);
    // Work orders, labor, maintenance orders and requests, assets, quotations, purchase orders.
    expect(withDates.length).toBeGreaterThanOrEqual(10);
    for (const { route, paths } of withDates) {
      const valid = sampleBody(route.body, 1);
      expect(valid, `${route.method} ${route.url} has a sample body`).toBeDefined();
      for (const path of paths) {
        await fc.assert(
          fc.asyncProperty(extremeDate, async (date) => {
            const res = await raw(route.method, route.url, JSON.stringify(setAt(valid, path, date)), 'application/json');
            const what = `${route.method} ${route.url} ${path.join('.')}=${String(date)} -> ${res.status} ${res.body.slice(0, 300)}`;
            expect(res.status, what).toBe(400);
            const issue = (JSON.parse(res.body).issues ?? []).find((i: { path: string }) => i.path === path.join('.'));
            expect(issue?.message, what).toMatch(/must be (a date between 1900 and 9999|a valid date)$/);
          }),
          { numRuns: Number(process.env.FUZZ_DATE_RUNS ?? 12), seed: Number(process.env.FUZZ_SEED ?? 424242) },
        );
      }
    }
  }, 120_000);
});
