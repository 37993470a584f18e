import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { dbSettingsFromEnv, openDatabase, withTenant, type Database } from './client';
import { registerErrorHandling } from '../plugins/errors';
import { createOrg, createTestApp, type TestApp } from '../test/harness';

const url = process.env.DATABASE_URL;

/**
 * Time limits of request work (issue 38, decision 062): a request that reaches one answers 503 at once with its
 * own words and a log line, never hangs, and the connection serves the next request.
 */
describe.skipIf(!url)('time limits on PostgreSQL', () => {
  let t: TestApp;
  let database: Database;
  let app: FastifyInstance;
  let orgId: number;
  const logged: { msg: string; reason?: string }[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    orgId = (await createOrg(t)).orgId;
    database = await openDatabase({
      databaseUrl: url,
      settings: { ...dbSettingsFromEnv(), timeouts: { statementMs: 800, longStatementMs: 3000, lockMs: 300, idleInTransactionMs: 400 } },
    });
    const stream = new Writable({ write: (chunk, _enc, done) => (logged.push(JSON.parse(String(chunk))), done()) });
    app = Fastify({ logger: { level: 'warn', stream } });
    registerErrorHandling(app);
    const { db } = database;
    app.get('/sleep/:seconds', (req) =>
      withTenant(db, orgId, (tx) => tx.execute(sql`select pg_sleep(${Number((req.params as { seconds: string }).seconds)})`), { readOnly: true }).then(() => ({
        ok: true,
      })),
    );
    app.get('/export/:seconds', (req) =>
      withTenant(db, orgId, (tx) => tx.execute(sql`select pg_sleep(${Number((req.params as { seconds: string }).seconds)})`), {
        readOnly: true,
        long: true,
      }).then(() => ({ ok: true })),
    );
    app.post('/rename', () =>
      withTenant(db, orgId, (tx) => tx.execute(sql`update organizations set address_street1 = address_street1 where id = ${orgId}`)).then(() => ({ ok: true })),
    );
    app.post('/idle', () =>
      withTenant(db, orgId, async (tx) => {
        await tx.execute(sql`select 1`);
        // Work outside the database while the transaction stays open (a slow call to another service).
        await new Promise((resolve) => setTimeout(resolve, 1000));
        await tx.execute(sql`select 1`);
      }).then(() => ({ ok: true })),
    );
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await t?.close();
  });

  const timed = async (method: 'GET' | 'POST', path: string) => {
    const started = Date.now();
    const res = await app.inject({ method, url: path });
    return { status: res.statusCode, body: res.json(), ms: Date.now() - started };
  };

  it('ends a statement past the statement timeout: 503 with a clear error, logged, and the next request is served', async () => {
    const slow = await timed('GET', '/sleep/5');
    expect(slow).toMatchObject({ status: 503, body: { error: 'The database took too long to answer, please retry' } });
    expect(slow.ms).toBeLessThan(3000);
    expect(logged.some((line) => line.msg === 'database time limit reached' && line.reason === 'statement_timeout')).toBe(true);
    expect((await timed('GET', '/sleep/0.05')).status).toBe(200);
  });

  it('gives a scope that asks for it (exports, jobs) the longer limit', async () => {
    expect((await timed('GET', '/export/1.2')).status).toBe(200);
    expect((await timed('GET', '/sleep/1.2')).status).toBe(503);
  });

  it('stops waiting for a lock past the lock timeout: 503, logged', async () => {
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from organizations where id = $1 for update', [orgId]);
      const blocked = await timed('POST', '/rename');
      expect(blocked).toMatchObject({ status: 503, body: { error: 'A record is busy (locked by other work), please retry' } });
      expect(blocked.ms).toBeLessThan(3000);
      expect(logged.some((line) => line.reason === 'lock_timeout')).toBe(true);
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    expect((await timed('POST', '/rename')).status).toBe(200);
  });

  it('ends a transaction left idle: 503, and the pool replaces the ended connection', async () => {
    const idle = await timed('POST', '/idle');
    expect(idle.status).toBe(503);
    expect(idle.ms).toBeLessThan(5000);
    for (let i = 0; i < 5; i++) expect((await timed('GET', '/sleep/0')).status).toBe(200);
    expect((await timed('POST', '/rename')).status).toBe(200);
  });
});
