import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { createOrg, createTestApp, type TestApp, type TestOrg } from '../test/harness';
import { withTenant } from '../db/client';
import { registerErrorHandling, UNAVAILABLE } from './errors';

/**
 * Bodies and database refusals a client can cause get a 4xx with our message; an unreachable database a 503
 * with our message. Never a 500, never the database's or a parser's own text (decision 023).
 */
let t: TestApp;
let org: TestOrg;
beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t, 'Errors');
});
afterAll(() => t.close());

const leaks = /violates|relation|column|syntax|constraint|postgres|pglite|busboy|boundary|drizzle|select|insert|at .*\.(ts|js):\d+/i;

async function raw(method: 'POST' | 'PUT', url: string, payload: string, contentType?: string) {
  const res = await t.app.inject({
    method,
    url,
    headers: { host: org.host, authorization: `Bearer ${org.admin.token}`, ...(contentType ? { 'content-type': contentType } : {}) },
    payload,
  });
  return { status: res.statusCode, body: res.json() as { error: string; issues?: { path: string; message: string }[] } };
}

const part = (name: string, value: string, file?: string) =>
  `--b\r\ncontent-disposition: form-data; name="${name}"${file ? `; filename="${file}"\r\ncontent-type: image/png` : ''}\r\n\r\n${value}\r\n`;

describe('request bodies a JSON route cannot take', () => {
  it('null, a string, a number, an array or true: 400 "Request body must be a JSON object"', async () => {
    for (const body of ['null', '"x"', '42', '[]', 'true']) {
      const res = await raw('POST', '/api/assets/add-asset', body, 'application/json');
      expect(res.status, body).toBe(400);
      expect(res.body.error, body).toBe('Request body must be a JSON object');
      expect(res.body.issues, body).toEqual([{ path: '', message: 'Request body must be a JSON object' }]);
    }
  });

  it('multipart, text/plain, XML, broken JSON: a 4xx with a message', async () => {
    const cases: [string, string | undefined][] = [
      [part('title', 'x') + '--b--\r\n', 'multipart/form-data; boundary=b'],
      ['title=x', 'text/plain'],
      ['<title>x</title>', 'application/xml'],
      ['title=x', 'application/x-www-form-urlencoded'],
      ['{"title":', 'application/json'],
      ['', 'application/json'],
    ];
    for (const [payload, type] of cases) {
      const res = await raw('POST', '/api/work-orders/add-work-order', payload, type);
      expect(res.status, `${type}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${type}`).toBeLessThan(500);
      expect(res.body.error, `${type}`).toMatch(/^[A-Z]/);
      expect(JSON.stringify(res.body), `${type}`).not.toMatch(leaks);
    }
  });
});

describe('multipart bodies an upload route cannot read', () => {
  const uploads = [
    '/api/user/addProfilePicture',
    '/api/customer-vendors/upload-documents',
    '/api/customer-vendors/add-profile-picture',
    '/api/quotations/upload-attachments',
  ];
  const manyFields = Array.from({ length: 40 }, (_, i) => part(`f${i}`, 'x')).join('') + '--b--\r\n';
  const manyFiles = Array.from({ length: 12 }, (_, i) => part(`f${i}`, 'x', `f${i}.png`)).join('') + '--b--\r\n';
  const cases: [string, string, string, number][] = [
    [
      'cut short inside a file',
      '--b\r\ncontent-disposition: form-data; name="image"; filename="a.png"\r\ncontent-type: image/png\r\n\r\n\x89PNG',
      'multipart/form-data; boundary=b',
      400,
    ],
    ['cut short inside a header', '--b\r\ncontent-disposition: form-da', 'multipart/form-data; boundary=b', 400],
    ['without a boundary', part('image', 'x', 'a.png'), 'multipart/form-data', 400],
    ['too many fields', manyFields, 'multipart/form-data; boundary=b', 413],
  ];
  for (const url of uploads) {
    it(`${url}: a 4xx with our message, never a 500`, async () => {
      for (const [what, payload, type, status] of cases) {
        const res = await raw('POST', url, payload, type);
        expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
        expect(res.body.error, what).toMatch(status === 413 ? /^Too many form fields$/ : /^(Malformed multipart body|No file uploaded)$/);
      }
      const files = await raw('POST', url, manyFiles, 'multipart/form-data; boundary=b');
      expect(files.status, JSON.stringify(files.body)).toBeGreaterThanOrEqual(400);
      expect(files.status).toBeLessThan(500);
      for (const [payload, type] of [
        ['null', 'application/json'],
        ['x', 'text/plain'],
      ]) {
        const res = await raw('POST', url, payload, type);
        expect(res.status, type).toBe(415);
      }
    });
  }
});

describe('database refusals a request can cause', () => {
  // Real errors from the real database (PGlite or PostgreSQL), raised through the app's own error handler.
  const cases: Record<string, { sql: string[]; status: number; error: string }> = {
    '22P02 invalid text': { sql: [`select 'x'::int`], status: 400, error: 'Invalid value' },
    '22003 out of range': { sql: [`select 2147483648::int`], status: 400, error: 'Invalid value' },
    '22008 date out of range': { sql: [`select '10000-13-01'::date`], status: 400, error: 'Invalid value' },
    '22007 date format': { sql: [`select 'tomorrow-ish'::date`], status: 400, error: 'Invalid value' },
    '22012 division by zero': { sql: [`select 1/0`], status: 400, error: 'Invalid value' },
    '2201E logarithm': { sql: [`select ln(0)`], status: 400, error: 'Invalid value' },
    '22023 parameter': { sql: [`select generate_series(1, 2, 0)`], status: 400, error: 'Invalid value' },
    '22021 bytes not UTF-8': { sql: [`select convert_from('\\xff'::bytea, 'UTF8')`], status: 400, error: 'Text contains characters that are not allowed' },
    '22001 too long': { sql: [`create temp table e1 (v varchar(2)) on commit drop`, `insert into e1 values ('abc')`], status: 400, error: 'Value is too long' },
    '23502 not null': {
      sql: [`create temp table e2 (v int not null) on commit drop`, `insert into e2 values (null)`],
      status: 400,
      error: 'A required value is missing',
    },
    '23514 check': { sql: [`create temp table e3 (v int check (v > 0)) on commit drop`, `insert into e3 values (-1)`], status: 400, error: 'Invalid value' },
    '23505 unique': {
      sql: [`create temp table e4 (v int unique) on commit drop`, `insert into e4 values (1), (1)`],
      status: 409,
      error: 'A record with these details already exists',
    },
    '23503 foreign key': {
      sql: [
        `create temp table e5 (v int primary key) on commit drop`,
        `create temp table e6 (v int references e5) on commit drop`,
        `insert into e6 values (1)`,
      ],
      status: 409,
      error: 'This record is used by other records',
    },
    '23P01 exclusion': {
      sql: [`create temp table e7 (r int4range, exclude using gist (r with &&)) on commit drop`, `insert into e7 values ('[1,5)'), ('[3,8)')`],
      status: 409,
      error: 'This conflicts with an existing record',
    },
    '54000 program limit': { sql: [`select repeat('x', 1073741824)`], status: 400, error: 'Value is too long' },
  };
  let probe: FastifyInstance;
  beforeAll(async () => {
    probe = Fastify({ logger: false });
    registerErrorHandling(probe);
    probe.get<{ Params: { name: string } }>('/:name', async (req) => {
      await withTenant(t.database.db, org.orgId, async (tx) => {
        for (const statement of cases[req.params.name].sql) await tx.execute(sql.raw(statement));
      });
      return { ok: true };
    });
    await probe.ready();
  });
  afterAll(() => probe.close());

  for (const [name, c] of Object.entries(cases)) {
    it(`${name}: ${c.status} "${c.error}"`, async () => {
      const res = await probe.inject({ url: `/${encodeURIComponent(name)}` });
      // A 5xx body also names the request (decision 067).
      expect(res.json()).toEqual(c.status >= 500 ? { error: c.error, requestId: expect.any(String) } : { error: c.error });
      expect(res.statusCode).toBe(c.status);
    });
  }
});

describe('an unreachable database', () => {
  it("answers 503 with our message, never the database's text; an unknown 5xx is 'Internal server error'", async () => {
    // A database of its own: this test closes it.
    const own = await createTestApp({}, { ownDatabase: true });
    const victim = await createOrg(own, 'Outage');
    await own.database.close();
    for (const url of ['/api/user/getCompanyUsers', '/api/work-orders/get-work-orders']) {
      const res = await victim.admin.get(url);
      expect(res.body, url).toEqual({ error: UNAVAILABLE, requestId: res.headers['x-request-id'] });
      expect(res.status, url).toBe(503);
    }
    const write = await victim.admin.post('/api/work-orders/add-work-order', { title: 'During the outage' });
    expect(write.body).toEqual({ error: UNAVAILABLE, requestId: write.headers['x-request-id'] });
    expect(write.status).toBe(503);
    await own.app.close();

    const probe = Fastify({ logger: false });
    registerErrorHandling(probe);
    probe.get('/boom', async () => {
      throw Object.assign(new Error('relation "secret_table" does not exist at line 3'), { code: 'XX000' });
    });
    const res = await probe.inject({ url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'Internal server error', requestId: expect.any(String) });
    await probe.close();
  });
});
