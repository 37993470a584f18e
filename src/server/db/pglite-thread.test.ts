import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { DatabaseWaitError, PGliteThread } from './pglite-thread';
import { registerErrorHandling } from '../plugins/errors';
import { migratedDataDir } from '../test/pglite-template';

/**
 * A thread on a copy of the run's migrated database (decision 028): the same thread as on an empty in-memory
 * one, without initdb's seconds of CPU. Its files go when it closes.
 */
function threadOnCopy(waitMs?: number) {
  const { dir, remove } = migratedDataDir('cmms-thread-');
  return new PGliteThread(join(dir, 'pglite'), remove, waitMs);
}

/** PGlite in its worker thread (decision 015): what drizzle and the tenant runner rely on. */
describe('PGlite in its own thread', () => {
  let db: PGliteThread;
  beforeAll(async () => {
    db = threadOnCopy();
    await db.ready;
    await db.exec(`create table items (id int primary key, title text, at timestamptz, data bytea, tags text[], doc jsonb, big int8, ok boolean)`);
  });
  afterAll(() => db.close());

  it('sends parameters as node-postgres does and parses rows as drizzle expects', async () => {
    const at = new Date('2026-11-24T10:00:00.000Z');
    await db.query('insert into items values ($1, $2, $3, $4, $5, $6, $7, $8)', [
      1,
      "O'Brien; drop table items --",
      at,
      Buffer.from([0, 1, 255]),
      ['a', 'b,c', 'd"e'],
      JSON.stringify({ x: [1, 2] }),
      9007199254740993n,
      true,
    ]);
    const { rows } = await db.query('select * from items where id = $1', [1]);
    expect(rows).toEqual([
      {
        id: 1,
        title: "O'Brien; drop table items --",
        at: '2026-11-24 10:00:00+00', // timestamps stay text, as drizzle's PGlite driver asks
        data: new Uint8Array([0, 1, 255]),
        tags: ['a', 'b,c', 'd"e'],
        doc: { x: [1, 2] },
        big: 9007199254740993n,
        ok: true,
      },
    ]);
    const arrays = await db.query('select id, title from items where id = any($1)', [[1, 2]], { rowMode: 'array' });
    expect(arrays.rows).toEqual([[1, "O'Brien; drop table items --"]]);
    expect(arrays.fields.map((f) => f.name)).toEqual(['id', 'title']);
    expect((await db.query('update items set ok = $1 where id > $2', [false, 0])).affectedRows).toBe(1);
  });

  it("keeps a database error's code and constraint, and carries on", async () => {
    const err = await db.query('insert into items (id) values ($1)', [1]).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '23505', constraint: 'items_pkey' });
    expect((err as { params?: unknown }).params).toBeUndefined();
    expect((await db.query('select count(*)::int as n from items')).rows).toEqual([{ n: 1 }]);
  });

  it('a named (one-plan) read is parsed once, and parsed afresh after it failed, its first run included', async () => {
    const read = db.scoped('select 1');
    const divide = (by: number) => read.query('select 10 / $1::int as n', [by], { name: 'test_divide' });
    // Parsed, then failed when run: the statement exists in the session, and the next call must not parse it again.
    await expect(divide(0)).rejects.toMatchObject({ code: '22012' });
    expect((await divide(2)).rows).toEqual([{ n: 5 }]);
    expect((await divide(5)).rows).toEqual([{ n: 2 }]);
    const named = await db.query(`select count(*)::int as n from pg_prepared_statements where name = 'test_divide'`);
    expect(named.rows).toEqual([{ n: 1 }]);
  });

  it('a scoped read has its settings for its one statement, cannot write, and leaves nothing behind', async () => {
    const scoped = db.scoped(`select set_config('app.org_id', '42', true), set_config('transaction_read_only', 'on', true)`);
    expect((await scoped.query(`select current_setting('app.org_id', true) as org`)).rows).toEqual([{ org: '42' }]);
    await expect(scoped.query('delete from items')).rejects.toMatchObject({ code: '25006' });
    expect((await db.query(`select coalesce(current_setting('app.org_id', true), '') as org`)).rows).toEqual([{ org: '' }]);
    expect((await db.query('select count(*)::int as n from items')).rows).toEqual([{ n: 1 }]);
  });

  it('a transaction has the session to itself, and rolls back when its work throws', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const seen: string[] = [];
    const tx = db.transaction(async (t) => {
      await t.query('insert into items (id, title) values ($1, $2)', [2, 'inside']);
      await held;
      seen.push('transaction');
      throw new Error('changed my mind');
    });
    // Sent while the transaction waits: it must neither see the uncommitted row nor run inside it.
    const outside = db.query('select count(*)::int as n from items').then((r) => (seen.push('read'), r.rows));
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await expect(tx).rejects.toThrow('changed my mind');
    expect(await outside).toEqual([{ n: 1 }]);
    expect(seen).toEqual(['transaction', 'read']);
  });

  it("a transaction's settings hold inside it and end with it", async () => {
    const inside = await db.transaction((tx) => tx.query(`select current_setting('app.org_id', true) as org`), `select set_config('app.org_id', '7', true)`);
    expect(inside.rows).toEqual([{ org: '7' }]);
    expect((await db.query(`select coalesce(current_setting('app.org_id', true), '') as org`)).rows).toEqual([{ org: '' }]);
  });

  it('queues reads back to back and answers each with its own rows', async () => {
    const reads = Array.from({ length: 50 }, (_, i) => db.query('select $1::int as i', [i]));
    expect((await Promise.all(reads)).map((r) => r.rows[0])).toEqual(Array.from({ length: 50 }, (_, i) => ({ i })));
  });

  it('a request statement that waits longer than the set time fails with a DatabaseWaitError, and the database carries on', { timeout: 60_000 }, async () => {
    const quick = threadOnCopy(2_000);
    try {
      await quick.ready;
      // Held by a transaction whose work waits: a read and another transaction give up rather than wait for ever.
      let release!: () => void;
      const held = quick.transaction(() => new Promise<void>((resolve) => (release = resolve)), undefined, true);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const started = Date.now();
      const read = quick.scoped('select 1');
      await expect(read.query('select 1')).rejects.toBeInstanceOf(DatabaseWaitError);
      await expect(quick.transaction((tx) => tx.query('select 1'), undefined, true)).rejects.toMatchObject({ code: 'ETIMEDOUT' });
      expect(Date.now() - started).toBeLessThan(10_000);
      release();
      await held;
      // A statement that runs longer than the set time fails too.
      await expect(read.query('select pg_sleep(4)')).rejects.toBeInstanceOf(DatabaseWaitError);
      // The server's own statements have no set time: this one is answered once the sleep is over.
      await quick.query('select 1');
      expect((await read.query('select 2 as n')).rows).toEqual([{ n: 2 }]);
    } finally {
      await quick.close();
    }
  });

  it('a second call from inside a transaction, past its connection, throws instead of waiting for the transaction', async () => {
    const result = await db.transaction(async (tx) => {
      await expect(db.query('select 1')).rejects.toThrow(/second database call/);
      await expect(db.transaction((inner) => inner.query('select 1'))).rejects.toThrow(/second database call/);
      return (await tx.query('select 3 as n')).rows;
    });
    expect(result).toEqual([{ n: 3 }]);
    // Its connection ends with it.
    let kept: Parameters<Parameters<PGliteThread['transaction']>[0]>[0] | undefined;
    await db.transaction(async (tx) => void (kept = tx));
    await expect(kept!.query('select 1')).rejects.toThrow(/ended/);
  });

  it('a request whose statement waited too long gets 503 and a log line', async () => {
    const logged: string[] = [];
    const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => logged.push(line) } } });
    registerErrorHandling(app);
    // As drizzle throws it: its own error, the wait as its cause.
    app.get('/slow', async () => {
      throw Object.assign(new Error('Failed query: select 1'), { cause: new DatabaseWaitError(10_000) });
    });
    const response = await app.inject({ method: 'GET', url: '/slow' });
    expect(response.statusCode).toBe(503);
    expect(logged.join('')).toMatch(/did not answer within 10000 ms/);
    await app.close();
  });

  it('a database that cannot start fails its queries, sent before or after, with the reason', async () => {
    // A data directory inside a file cannot be made: PGlite fails before it loads PostgreSQL, so the test
    // takes the same short time on a busy machine (a file as the directory failed only once PostgreSQL ran).
    const aFile = join(tmpdir(), `cmms-not-a-dir-${process.pid}`);
    writeFileSync(aFile, 'a file where the data directory should be');
    onTestFinished(() => rmSync(aFile, { force: true }));
    const broken = new PGliteThread(join(aFile, 'pglite'));
    const early = broken.query('select 1');
    await expect(early).rejects.toThrow(/ENOTDIR/);
    await expect(broken.ready).rejects.toThrow(/ENOTDIR/);
    await expect(broken.query('select 1')).rejects.toThrow(/ENOTDIR/);
    await broken.close();
  });
});
