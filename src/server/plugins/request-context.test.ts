import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { client, createOrg, createTestApp, type TestApp } from '../test/harness';
import { EVERYONE } from './request-context';
import type { Tx } from '../db/client';

let t: TestApp;
let app: FastifyInstance;
beforeAll(async () => {
  t = await createTestApp();
  app = await buildApp({ database: t.database, config: t.config, logger: false });
  // Routes that break the rule on purpose: the types forbid both, these prove the run time does too.
  app.get('/api/test/get-that-writes', { config: { access: EVERYONE } }, (req) =>
    req.inTenant((tx) => tx.execute(sql`update users set first_name = 'Changed' where id = ${req.auth.userId}`)),
  );
  app.get('/api/test/read-that-writes', { config: { access: EVERYONE } }, (req) =>
    req.read((tx) => (tx as unknown as Tx).execute(sql`update users set first_name = 'Changed' where id = ${req.auth.userId}`)),
  );
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await t.close();
});

describe('a GET reads and never writes', () => {
  it('refuses a write scope under GET and a write through a read scope, and nothing changes', async () => {
    const org = await createOrg(t);
    const caller = client(app, org.host, org.admin.token);
    expect((await caller.get('/api/test/get-that-writes')).status).toBe(500);
    expect((await caller.get('/api/test/read-that-writes')).status).toBeGreaterThanOrEqual(400);
    const me = await org.admin.get('/api/user/get-app-data');
    expect(JSON.stringify(me.body)).not.toContain('Changed');
  });
});
