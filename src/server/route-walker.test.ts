import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { client, useOrgs, useTestApp, type TestOrg } from './test/harness';
import { seedSampleData } from './seed/demo';
import { orgSnapshot } from './test/sql';
import { sampleBody } from './test/sample-bodies';
import { now, pinClock } from './clock';

/**
 * Walks every registered /api route, so a new route is covered without anyone remembering to add it:
 * authentication, declared roles, and isolation (another organisation's ids give 404 and change nothing).
 */
const t = useTestApp();
const [a, b] = useOrgs(t, 'Alpha', 'Beta');
let bWorker: Awaited<ReturnType<TestOrg['as']>>;

beforeAll(async () => {
  await seedSampleData(t.database.db, a.orgId);
  bWorker = await b.as('worker');
});

/** Fills path parameters: ids with `id`, known words for the rest. */
const fill = (url: string, id: number) =>
  url
    .replace(/:entityType/g, 'user')
    .replace(/:[A-Za-z]+/g, String(id))
    .replace('*', '');

/** Every row of every tenant table of one organisation, as JSON: "changes nothing" is compared by content. */
const snapshot = (orgId: number) => orgSnapshot(t.database.db, orgId, ['sessions', 'org_counters']);

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

/**
 * Bodies the schema walk cannot build (`sampleBody` gives up on them), by "METHOD url". A route that takes a
 * body and has neither fails the isolation pass below, so a new route cannot slip through.
 */
const SAMPLE_BODIES: Record<string, unknown> = {
  // A URL the walk cannot spell (decision 043).
  'PUT /api/webhooks/update-webhook/:id': { url: 'https://example.com/hook', events: ['work-order.created'], enabled: true },
};

/** Routes that refuse the call before looking the record up (every other one answers 404). */
const REFUSALS: Record<string, number> = {
  // An upload without its multipart file.
  'POST /api/customer-vendors/add-profile-picture/:id': 415,
  // The attachment is named by a query parameter the walk does not send.
  'DELETE /api/maintenance-requests/delete-attachment/:id': 400,
};

describe('isolation with valid bodies', () => {
  /** B's records start at this id, above anything A has: the same number names no record of A's. */
  const B_ID = 1001;
  // The walk takes minutes; reads measured up to now (an asset's down time) must not move while it runs.
  beforeAll(() => pinClock(now()));
  afterAll(() => pinClock(undefined));

  it("A's admin writing to B's records with VALID bodies gets 404 (or a refusal), and B's records are unchanged", async () => {
    // B gets records of every kind (the sample data, then one more through each add route), all ids >= B_ID.
    await t.database.db.execute(sql`
      insert into org_counters (org_id, table_name, last_id)
      select ${b.orgId}, c.table_name, ${B_ID - 1} from information_schema.columns c
      where c.table_schema = 'public' and c.column_name = 'id' and c.table_name <> 'org_counters'
        and exists (select 1 from information_schema.columns o where o.table_schema = 'public' and o.table_name = c.table_name and o.column_name = 'org_id')
      on conflict (org_id, table_name) do update set last_id = ${B_ID - 1}`);
    await seedSampleData(t.database.db, b.orgId);
    const writes = t.app.apiRoutes.filter((r) => r.access !== 'public' && r.method !== 'GET');
    for (const route of writes.filter((r) => r.method === 'POST' && /\/add/.test(r.url) && r.body)) {
      await b.admin.post(fill(route.url, B_ID), sampleBody(route.body, B_ID));
    }

    // What B's admin reads of its records, and every row of B's tables.
    const reads = t.app.apiRoutes.filter((r) => r.method === 'GET' && r.access !== 'public' && /:[A-Za-z]*[iI]d\b/.test(r.url));
    // JSON only: a PDF carries its creation time.
    const readAll = async () =>
      Promise.all(
        reads.map(async (r) => {
          const res = await b.admin.get(fill(r.url, B_ID));
          return String(res.headers['content-type']).startsWith('application/json') ? JSON.stringify(res.body) : `${res.status}`;
        }),
      );
    const seenByB = await readAll();
    expect(seenByB.filter((body) => !/"error"/.test(body)).length, 'B reads its own records').toBeGreaterThan(5);
    const rowsOfB = await snapshot(b.orgId);

    const missing: string[] = [];
    const accepted: string[] = [];
    for (const route of writes.filter((r) => /:[A-Za-z]*[iI]d\b/.test(r.url))) {
      const key = `${route.method} ${route.url}`;
      const body = route.body ? (SAMPLE_BODIES[key] ?? sampleBody(route.body, 1)) : undefined;
      if (route.body && body === undefined) {
        missing.push(key);
        continue;
      }
      const url = fill(route.url, B_ID);
      const res = route.method === 'DELETE' ? await a.admin.del(url) : await a.admin[verb(route.method) as 'post'](url, body);
      if (res.status < 400) accepted.push(`${key} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      expect(res.status, `${key} ${JSON.stringify(res.body)}`).toBe(REFUSALS[key] ?? 404);
    }
    expect(missing, 'routes with neither a generated nor a hand-written sample body').toEqual([]);
    expect(accepted, "writes to another organisation's ids that were accepted").toEqual([]);
    expect(await readAll()).toEqual(seenByB);
    // compared as objects: a difference names its table and row
    expect(JSON.parse(await snapshot(b.orgId))).toEqual(JSON.parse(rowsOfB));
  });
});

function verb(method: string) {
  return ({ GET: 'get', POST: 'post', PUT: 'put', DELETE: 'del', PATCH: 'put' } as const)[method as 'GET'] ?? 'get';
}
