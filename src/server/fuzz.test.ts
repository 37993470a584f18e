import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import { sql } from 'drizzle-orm';
import { createOrg, createTestApp, type TestApp, type TestOrg } from './test/harness';
import { seedSampleData } from './seed/demo';
import { withTenant } from './db/client';
import { rowsOf } from './test/sql';

/**
 * Schema-driven fuzzing of every route that takes a body or a query: objects with the schema's own keys
 * filled with hostile values, wrong types and unknown keys. Never a 5xx, never a stack trace or SQL in a
 * response, never a change in another organisation.
 */
let t: TestApp;
let victim: TestOrg;
let attacker: TestOrg;

beforeAll(async () => {
  t = await createTestApp();
  victim = await createOrg(t, 'Victim');
  attacker = await createOrg(t, 'Attacker');
  await seedSampleData(t.database.db, victim.orgId);
  await seedSampleData(t.database.db, attacker.orgId);
});
afterAll(() => t.close());

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

async function snapshot(orgId: number) {
  return withTenant(t.database.db, orgId, async (tx) => {
    const tables = rowsOf<{ table_name: string }>(
      await tx.execute(sql`select distinct table_name from information_schema.columns where table_schema = 'public' and column_name = 'org_id' order by table_name`),
    );
    const out: Record<string, unknown[]> = {};
    for (const { table_name } of tables) {
      if (['sessions', 'idempotency_keys', 'activities'].includes(table_name)) continue;
      out[table_name] = rowsOf(await tx.execute(sql.raw(`select * from "${table_name}" order by 1, 2`)));
    }
    return JSON.stringify(out);
  });
}

describe('fuzzing every route', () => {
  it('never answers 5xx, never leaks internals, never touches another organisation', async () => {
    const before = await snapshot(victim.orgId);
    const routes = t.app.apiRoutes.filter((r) => r.access !== 'public' && (r.body || r.querystring) && !/logout|refresh/.test(r.url));
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
              ? await attacker.admin.get(`${url}?${new URLSearchParams(Object.entries((body && typeof body === 'object' ? body : {}) as Record<string, unknown>).map(([k, v]) => [k, asQueryValue(v)]))}`)
              : route.method === 'DELETE'
                ? await attacker.admin.del(url)
                : await attacker.admin[route.method === 'PUT' ? 'put' : 'post'](url, body ?? {});
          expect(res.status, `${route.method} ${route.url} ${JSON.stringify(body)?.slice(0, 200)} -> ${JSON.stringify(res.body).slice(0, 300)}`).toBeLessThan(500);
          expect(JSON.stringify(res.body)).not.toMatch(leaks);
        }),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 40), seed: Number(process.env.FUZZ_SEED ?? 424242) },
      );
    }
    expect(requests).toBeGreaterThan(0);
    expect(await snapshot(victim.orgId)).toBe(before);
  }, 600_000);
});
