import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { client, createOrg, createTestApp, type TestApp, type TestOrg } from './test/harness';
import { seedSampleData } from './seed/demo';
import { withTenant } from './db/client';
import { rowsOf } from './test/sql';

/**
 * Walks every registered /api route, so a new route is covered without anyone remembering to add it:
 * authentication, declared roles, and isolation (another organisation's ids give 404 and change nothing).
 */
let t: TestApp;
let a: TestOrg;
let b: TestOrg;
let bWorker: Awaited<ReturnType<TestOrg['as']>>;

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'Alpha');
  b = await createOrg(t, 'Beta');
  await seedSampleData(t.database.db, a.orgId);
  bWorker = await b.as('worker');
});
afterAll(() => t.close());

/** Fills path parameters: ids with `id`, known words for the rest. */
const fill = (url: string, id: number) =>
  url.replace(/:entityType/g, 'user').replace(/:[A-Za-z]+/g, String(id)).replace('*', '');

/** Every row of every tenant table of one organisation, as JSON: "changes nothing" is compared by content. */
async function snapshot(orgId: number) {
  return withTenant(t.database.db, orgId, async (tx) => {
    const tables = rowsOf<{ table_name: string }>(
      await tx.execute(sql`select distinct table_name from information_schema.columns where table_schema = 'public' and column_name = 'org_id' order by table_name`),
    );
    const out: Record<string, unknown[]> = {};
    for (const { table_name } of tables) {
      if (table_name === 'sessions' || table_name === 'org_counters') continue;
      out[table_name] = rowsOf(await tx.execute(sql.raw(`select * from "${table_name}" order by 1, 2`)));
    }
    return JSON.stringify(out);
  });
}

describe('every API route', () => {
  it('declares who may call it (checked at start-up) and the list is not empty', () => {
    expect(t.app.apiRoutes.length).toBeGreaterThan(10);
  });

  it('refuses a call without a token with 401', async () => {
    const anonymous = client(t.app, a.host);
    for (const route of t.app.apiRoutes.filter((r) => r.access !== 'public')) {
      const res = await anonymous[verb(route.method)](fill(route.url, 1), route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
      expect(res.status, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it("refuses a token on another organisation's host with 401", async () => {
    const wrongHost = client(t.app, a.host, b.admin.token);
    for (const route of t.app.apiRoutes.filter((r) => r.access !== 'public')) {
      const res = await wrongHost[verb(route.method)](fill(route.url, 1), route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
      expect(res.status, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('refuses roles a route does not declare with 403', async () => {
    for (const route of t.app.apiRoutes.filter((r) => r.access !== 'public' && !r.access.includes('worker'))) {
      const res = await bWorker[verb(route.method)](fill(route.url, 1), route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
      expect(res.status, `${route.method} ${route.url}`).toBe(403);
    }
  });

  it("answers another organisation's ids with 404 (or a refusal) and changes nothing there", async () => {
    const before = await snapshot(a.orgId);
    // Organisation B has only its admin (user 1) and a worker (user 2); A has records with ids 1..n of every kind.
    const withIds = t.app.apiRoutes.filter((r) => r.access !== 'public' && /:[A-Za-z]*[iI]d\b/.test(r.url));
    for (const route of withIds) {
      for (const id of [3, 4]) {
        const res = await b.admin[verb(route.method)](fill(route.url, id), route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
        expect(res.status, `${route.method} ${route.url}`).toBeLessThan(500);
        if (route.method === 'GET' || route.method === 'DELETE') {
          expect([400, 403, 404, 409], `${route.method} ${fill(route.url, id)} gave ${res.status}`).toContain(res.status);
        } else {
          expect(res.status, `${route.method} ${route.url}`).toBeGreaterThanOrEqual(400);
        }
      }
    }
    expect(await snapshot(a.orgId)).toBe(before);
  });
});

function verb(method: string) {
  return ({ GET: 'get', POST: 'post', PUT: 'put', DELETE: 'del', PATCH: 'put' } as const)[method as 'GET'] ?? 'get';
}
