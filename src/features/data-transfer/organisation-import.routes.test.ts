import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../server/db/client';
import { seedSampleData } from '../../server/seed/demo';
import { adminGet, createOrg, useOrgs, useTestApp, type Client, type Res, type TestOrg } from '../../server/test/harness';
import { sampleBody } from '../../server/test/sample-bodies';
import { orgSnapshot, rowsOf } from '../../server/test/sql';
import { MOVED, STAYS } from './organisation-data';

/** Decision 069: an organisation archive imported into an empty organisation, compared list by list. */
const t = useTestApp();
const [a, b] = useOrgs(t, 'Source', 'Bystander');
let archive: Buffer;
let partImage: string;

const snapshot = (orgId: number) => orgSnapshot(t.database.db, orgId, ['sessions', 'org_counters']);

async function exportZip(org: TestOrg) {
  const res = await adminGet(t, org, '/api/data-transfer/export-organisation');
  expect(res.statusCode, res.body).toBe(200);
  return res.rawPayload;
}

const importZip = (who: Client, zip: Uint8Array) =>
  who.upload('/api/data-transfer/import-organisation', [{ field: 'file', name: 'organisation.zip', bytes: Buffer.from(zip), type: 'application/zip' }]);

/** The organisation's stored files (their names). */
async function storedFiles(orgId: number) {
  const names: string[] = [];
  for await (const f of t.app.deps.storage.files(orgId)) names.push(f.url);
  return names;
}

/** The answer without what must differ: ids, organisation ids, signed upload URLs, the caller's own tokens. */
function comparable(value: unknown): unknown {
  if (typeof value === 'string')
    return (
      value
        .replace(/\/uploads\/org-\d+\/[0-9a-f-]{36}\.(webp|png|jpg|pdf)(\?exp=\d+&sig=[\w-]+)?/g, '<file>')
        // Numbers shown for records are their ids (WO-0007, Q-0003, "Part #14"): new ids, new numbers.
        .replace(/\b([A-Z]{1,4})-\d{3,}\b/g, '$1-<n>')
        .replace(/#\d+$/, '#<n>')
    );
  if (Array.isArray(value)) return value.map(comparable);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !/^(id|orgId|ids)$|Id$|Ids$|^(token|accessToken)$/.test(k))
        // A person's id under another name (the importer took user 1: the people's ids moved by one).
        .filter(
          ([k, v]) =>
            !(
              /^(assignedTo|assignTo|Workers|assignees|value|number|uom|tax|taxes|product|service|part)$|^related_|_id$/.test(k) &&
              (typeof v === 'number' || (Array.isArray(v) && v.every((x) => typeof x === 'number')))
            ),
        )
        // The organisation's own name and address stay the importer's.
        .filter(([k]) => !/^(organization|subdomain)$/.test(k))
        .map(([k, v]) => [k, comparable(v)]),
    );
  }
  return value;
}

beforeAll(async () => {
  await seedSampleData(t.database.db, a.orgId);
  // Every "add" route of the API once more with a valid body (the walker's sample bodies): a record of each kind.
  for (const route of t.app.apiRoutes) {
    if (route.method !== 'POST' || !/\/(add|create)-[a-z-]+$/.test(route.url) || route.url.includes(':') || !route.body) continue;
    const body = sampleBody(route.body, 1);
    if (body !== undefined) await a.admin.post(route.url, body);
  }
  await a.as('manager', { firstName: 'Mona' });
  await a.as('worker', { firstName: 'Walid' });
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer();
  const part = (await a.admin.get('/api/parts/get-parts')).body.parts[0];
  const uploaded = await a.admin.upload(`/api/parts/add-image/${part.id}`, [{ field: 'image', name: 'bearing.png', bytes: png, type: 'image/png' }]);
  expect(uploaded.status).toBe(200);
  partImage = uploaded.body.part.image;
  await seedSampleData(t.database.db, b.orgId);
  archive = await exportZip(a);
}, 120_000);

describe('the archive data', () => {
  it('places every tenant table: moved or staying, none forgotten', async () => {
    const tables = await withTenant(t.database.db, a.orgId, async (tx) =>
      rowsOf<{ table_name: string }>(
        await tx.execute(sql`select distinct table_name from information_schema.columns where table_schema = 'public' and column_name = 'org_id'`),
      ),
    );
    const placed = new Set([...MOVED.map((m) => m.name), ...STAYS]);
    expect(tables.map((r) => r.table_name).filter((n) => !placed.has(n))).toEqual([]);
  });

  it('the export keeps its lists and adds data/<table>.ndjson and a manifest, without password hashes', () => {
    const entries = unzipSync(archive);
    expect(Object.keys(entries).some((n) => n.startsWith('lists/'))).toBe(true);
    const manifest = JSON.parse(strFromU8(entries['data/manifest.json'])) as { tables: Record<string, number> };
    expect(manifest.tables.work_orders).toBeGreaterThan(0);
    expect(strFromU8(entries['data/users.ndjson'])).not.toContain('password_hash');
  });
});

describe('import into a fresh organisation', () => {
  let c: TestOrg;
  let result: Res;
  beforeAll(async () => {
    c = await createOrg(t, 'Target');
    // The target has handed out ids before (rows made and deleted): every id moves, so every reference must be rewritten.
    await withTenant(t.database.db, c.orgId, async (tx) => {
      for (const table of MOVED.filter((m) => m.hasId)) await tx.execute(sql`select reserve_org_ids(${c.orgId}::int, ${table.name}::text, 3)`);
    });
    const bBefore = await snapshot(b.orgId);
    result = await importZip(c.admin, archive);
    expect(await snapshot(b.orgId)).toBe(bBefore);
  }, 120_000);

  it('answers a summary of counts per kind', () => {
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.counts.workOrders).toBeGreaterThan(0);
    expect(result.body.counts.assets).toBeGreaterThan(0);
    expect(result.body.counts.files).toBe(2); // the part's image and its small copy
    expect(result.body.rows).toBeGreaterThan(50);
  });

  it('every list reads the same, field by field, but for ids and file URLs', async () => {
    const lists = t.app.apiRoutes.filter(
      (r) =>
        r.method === 'GET' &&
        r.access !== 'public' &&
        !r.url.includes(':') &&
        !r.url.includes('*') &&
        // (what stays by design: the audit trail and the scheduled reports, organisation-data.ts STAYS)
        !/export|\/user\/|\/auth\/|\/api-keys\/|\/webhooks\/|\/my-work\/|me$|profile|notifications|audit-log|insights-reports/.test(r.url),
    );
    expect(lists.length).toBeGreaterThan(20);
    const differ: string[] = [];
    let compared = 0;
    for (const route of lists) {
      const url = `${route.url}${route.url.includes('?') ? '&' : '?'}pageSize=100`;
      const [from, to] = [await a.admin.get(url), await c.admin.get(url)];
      if (from.status !== 200) continue;
      compared += 1;
      if (JSON.stringify(comparable(from.body)) !== JSON.stringify(comparable(to.body))) {
        differ.push(route.url);
        if (process.env.SHOW_DIFF)
          console.log(route.url, JSON.stringify(comparable(from.body)).slice(0, 1500), '\n=====\n', JSON.stringify(comparable(to.body)).slice(0, 1500));
      }
    }
    expect(compared).toBeGreaterThan(20);
    expect(differ).toEqual([]);
  });

  it.each([
    [
      '/api/work-orders/get-work-orders',
      [
        '/api/work-orders/get-work-order/',
        '/api/work-orders/get-cost/',
        '/api/work-orders/get-labors/',
        '/api/work-orders/get-parts/',
        '/api/procedures/get-work-order-procedure/',
        '/api/activities/work-order/',
      ],
    ],
    ['/api/assets/get-assets', ['/api/assets/get-asset/']],
    ['/api/parts/get-parts', ['/api/parts/get-part/', '/api/parts/get-stock-moves/']],
    ['/api/pm-plans/get-plans', ['/api/pm-plans/get-plan/', '/api/pm-plans/get-occurrences/']],
    ['/api/procedures/list-procedures', ['/api/procedures/get-procedure/']],
    ['/api/maintenance-requests/get-maintenance-requests', ['/api/maintenance-requests/get-maintenance-request/']],
    ['/api/maintenance-orders/get-maintenance-orders', ['/api/maintenance-orders/get-maintenance-order/']],
    ['/api/quotations/get-quotations', ['/api/quotations/get-quotation/']],
    ['/api/purchase-orders/get-purchase-orders', ['/api/purchase-orders/get-purchase-order/']],
    ['/api/customer-vendors/get-customer-vendors', ['/api/customer-vendors/get-customer-vendor/']],
    ['/api/services/get-services', ['/api/services/get-service/']],
    ['/api/workstations/get-workstations', ['/api/workstations/get-workstation/']],
  ])(
    '%s: every record reads the same in detail',
    async (list, details) => {
      const rows = async (org: TestOrg) => {
        const body = (await org.admin.get(`${list}?pageSize=100`)).body as Record<string, unknown>;
        return Object.values(body).find(Array.isArray) as { id: number }[];
      };
      const [from, to] = [await rows(a), await rows(c)];
      expect(from.length, list).toBeGreaterThan(0);
      expect(to.length, list).toBe(from.length);
      for (let i = 0; i < from.length; i++) {
        for (const detail of details) {
          const [x, y] = [await a.admin.get(`${detail}${from[i].id}`), await c.admin.get(`${detail}${to[i].id}`)];
          expect(y.status, `${detail}${to[i].id}`).toBe(x.status);
          expect(comparable(y.body), `${detail}${to[i].id}`).toEqual(comparable(x.body));
        }
      }
      // A request per record and detail, one after another: long on a busy machine.
    },
    180_000,
  );

  it('people come as users of the new organisation, invited (no password travels); the importer stays admin', async () => {
    const [from, to] = [(await a.admin.get('/api/user/getCompanyUsers')).body, (await c.admin.get('/api/user/getCompanyUsers')).body];
    const key = (u: { email: string }) => u.email;
    const emails = (list: { email: string }[]) => list.map(key).sort();
    expect(emails(to.users)).toEqual([...emails(from.users), c.email].sort());
    const mona = to.users.find((u: { firstName: string }) => u.firstName === 'Mona');
    expect(mona.role).toBe('manager');
    const login = await c.anonymous.post('/api/login', { email: mona.email, password: a.password });
    expect(login.status).toBe(401);
  });

  it("a file downloads in the new organisation with the original's bytes", async () => {
    const part = (await c.admin.get('/api/parts/get-parts')).body.parts.find((p: { image: string | null }) => p.image);
    expect(part.image).toMatch(new RegExp(`^/uploads/org-${c.orgId}/`));
    const [orig, copy] = [
      await t.app.inject({ url: partImage, headers: { host: a.host } }),
      await t.app.inject({ url: part.image, headers: { host: c.host } }),
    ];
    expect(copy.statusCode).toBe(200);
    expect(copy.rawPayload.equals(orig.rawPayload)).toBe(true);
  });

  it('numbers go on after the imported ones', async () => {
    const max = (await c.admin.get('/api/work-orders/get-work-orders?pageSize=100')).body.workOrders.reduce(
      (m: number, w: { id: number }) => Math.max(m, w.id),
      0,
    );
    const source = (await a.admin.get('/api/work-orders/get-work-orders?pageSize=100')).body.workOrders.reduce(
      (m: number, w: { id: number }) => Math.max(m, w.id),
      0,
    );
    expect(max).toBe(source + 3); // new ids: after the three the target had handed out
    const next = await withTenant(t.database.db, c.orgId, async (tx) =>
      rowsOf<{ id: number }>(await tx.execute(sql`select reserve_org_ids(${c.orgId}::int, 'work_orders', 1) as id`)),
    );
    expect(Number(next[0].id)).toBe(max + 1);
  });

  it('refuses a second import: the organisation is no longer empty (409)', async () => {
    const before = await snapshot(c.orgId);
    const again = await importZip(c.admin, archive);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/Only an empty organisation can import/);
    expect(await snapshot(c.orgId)).toBe(before);
  });
});

describe('refusals', () => {
  it('managers and workers get 403', async () => {
    const d = await createOrg(t, 'Roles');
    expect((await importZip(await d.as('manager'), archive)).status).toBe(403);
    expect((await importZip(await d.as('worker'), archive)).status).toBe(403);
  });

  /** The archive with entries changed (a function of the entries), zipped again. */
  const forged = (change: (entries: Zippable & Record<string, Uint8Array>) => void) => {
    const entries = unzipSync(archive) as Zippable & Record<string, Uint8Array>;
    change(entries);
    return zipSync(entries);
  };
  const editLines = (entries: Record<string, Uint8Array>, table: string, edit: (rows: Record<string, unknown>[]) => void) => {
    const rows = strFromU8(entries[`data/${table}.ndjson`])
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    edit(rows);
    entries[`data/${table}.ndjson`] = strToU8(rows.map((r) => JSON.stringify(r)).join('\n'));
  };

  it.each([
    ['a missing file', (e: Record<string, Uint8Array>) => delete e[Object.keys(e).find((n) => n.startsWith('files/'))!], /misses the file/],
    [
      'bad JSON',
      (e: Record<string, Uint8Array>) => (e['data/work_orders.ndjson'] = strToU8(`${strFromU8(e['data/work_orders.ndjson'])}{"id": 1,`)),
      /not valid JSON/,
    ],
    [
      'a reference to an id not in the archive',
      (e: Record<string, Uint8Array>) => editLines(e, 'work_orders', (rows) => (rows[0].asset_id = 99999)),
      /asset_id 99999 refers to a row of assets/,
    ],
    ['a path like ../x', (e: Record<string, Uint8Array>) => (e['../x'] = strToU8('x')), /never writes: \.\.\/x/],
    ['a manifest that lies', (e: Record<string, Uint8Array>) => editLines(e, 'assets', (rows) => rows.pop()), /rows, the manifest/],
    ['no manifest', (e: Record<string, Uint8Array>) => delete e['data/manifest.json'], /no organisation data/],
    ['a value the database refuses', (e: Record<string, Uint8Array>) => editLines(e, 'work_orders', (rows) => (rows[0].due_date = 'not a date')), /refuses/],
  ])('%s: 400 and nothing written, no file left', async (_name, change, message) => {
    const d = await createOrg(t, 'Forged');
    const before = await snapshot(d.orgId);
    const res = await importZip(d.admin, forged(change));
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toMatch(message);
    expect(await snapshot(d.orgId)).toBe(before);
    expect(await storedFiles(d.orgId)).toEqual([]);
  });

  it('a stock move of an order deleted since (history, no foreign key) comes in without its order, not refused', async () => {
    const d = await createOrg(t, 'Ledger');
    let note = '';
    const res = await importZip(
      d.admin,
      forged((e) =>
        editLines(e, 'stock_moves', (rows) => {
          rows[0].work_order_id = 99999;
          rows[0].purchase_order_id = 99998;
          note = rows[0].note = 'used on a deleted order';
        }),
      ),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const moved = await withTenant(t.database.db, d.orgId, async (tx) =>
      rowsOf<{ work_order_id: number | null; purchase_order_id: number | null }>(
        await tx.execute(sql`select work_order_id, purchase_order_id from stock_moves where org_id = ${d.orgId}::int and note = ${note}`),
      ),
    );
    expect(moved).toEqual([{ work_order_id: null, purchase_order_id: null }]);
  });

  it('not a ZIP: 400; no file: 400/415', async () => {
    const d = await createOrg(t, 'Junk');
    expect((await importZip(d.admin, Buffer.from('not a zip at all'))).status).toBe(400);
    expect((await d.admin.post('/api/data-transfer/import-organisation', {})).status).toBe(415);
  });
});
