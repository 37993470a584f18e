import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createOrg, useTestApp } from '../test/harness';
import { withoutTenant, withTenant, type Db, type ReadTx, type Tx } from './client';
import { users } from './schema';
import { reserveIds } from './reserved-ids';
import { until } from '../test/fixtures';
import { rowsOf } from '../test/sql';
import { scratchDatabase } from '../test/scratch-database';
import { openMigratedPGlite } from '../test/pglite-template';

/** A database of its own: a fresh PostgreSQL database when DATABASE_URL is set, else none (PGlite in memory). */
const ownDatabase = async (): Promise<{ url?: string; drop: () => Promise<void> }> =>
  process.env.DATABASE_URL ? scratchDatabase(process.env.DATABASE_URL, 'cmms_tenancy') : { drop: async () => {} };

const t = useTestApp();

describe('the tenancy wall', () => {
  it('numbers rows per organisation, from 1, in the database', async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    const ua = await a.as('worker');
    const ub = await b.as('worker');
    // Each organisation's admin is user 1; the first extra user is 2, in both.
    expect(ua.userId).toBe(2);
    expect(ub.userId).toBe(2);
  });

  it('reads of several organisations at once each see only their own rows, on every statement', async () => {
    const orgs = [await createOrg(t), await createOrg(t), await createOrg(t)];
    await orgs[1].as('worker');
    const read = (orgId: number) =>
      withTenant(
        t.database.db,
        orgId,
        async (tx) => {
          // Two statements with a pause between, so that the other organisations' reads run in between.
          const first = rowsOf<{ org: string }>(await tx.execute(sql`select current_setting('app.org_id') as org`))[0].org;
          await new Promise((resolve) => setTimeout(resolve, 1));
          const seen = rowsOf<{ org_id: number }>(await tx.execute(sql`select org_id from users`)).map((row) => row.org_id);
          return { orgId, first: Number(first), seen };
        },
        { readOnly: true },
      );
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => read(orgs[i % 3].orgId)));
    for (const { orgId, first, seen } of results) {
      expect(first).toBe(orgId);
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen)).toEqual(new Set([orgId]));
    }
  });

  it('a query without the tenant setting sees no rows', async () => {
    await createOrg(t);
    const rows = await withoutTenant(t.database.db, (tx) => tx.execute(sql`select * from users`));
    expect(rowsOf(rows)).toHaveLength(0);
  });

  it("a hand-written query that forgets the WHERE still sees only its own organisation's rows", async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    await a.as('manager');
    const rows = await withTenant(t.database.db, b.orgId, (tx) => tx.execute(sql`select org_id from users`));
    expect(rowsOf(rows).length).toBeGreaterThan(0);
    expect(rowsOf<{ org_id: number }>(rows).every((r) => Number(r.org_id) === b.orgId)).toBe(true);
  });

  it("cannot write another organisation's rows, even by naming its org_id", async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    await expect(
      withTenant(t.database.db, b.orgId, (tx) => tx.insert(users).values({ orgId: a.orgId, email: 'intruder@x.com', role: 'admin' })),
    ).rejects.toThrow();
    const updated = await withTenant(t.database.db, b.orgId, (tx) =>
      tx.execute(sql`update users set first_name = 'hacked' where org_id = ${a.orgId} returning id`),
    );
    expect(rowsOf(updated)).toHaveLength(0);
    const deleted = await withTenant(t.database.db, b.orgId, (tx) => tx.execute(sql`delete from users where org_id = ${a.orgId} returning id`));
    expect(rowsOf(deleted)).toHaveLength(0);
  });

  it('runs requests as a role that is neither owner nor superuser', async () => {
    const a = await createOrg(t);
    const rows = await withTenant(t.database.db, a.orgId, (tx) => tx.execute(sql`select rolsuper, rolbypassrls from pg_roles where rolname = current_user`));
    expect(rowsOf(rows)[0]).toMatchObject({ rolsuper: false, rolbypassrls: false });
    const owner = await withTenant(t.database.db, a.orgId, (tx) =>
      tx.execute(sql`select tableowner = current_user as owns from pg_tables where tablename = 'users'`),
    );
    expect(rowsOf(owner)[0]).toMatchObject({ owns: false });
  });
});

/** The messages of an error and its causes (drizzle wraps a driver's error in its own). */
const messagesOf = (err: unknown): string => {
  const messages: string[] = [];
  for (let e = err as { message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) messages.push(e.message ?? '');
  return messages.join(' / ');
};

describe('request connections (decision 014)', () => {
  // One connection, so every call below reuses it: what one organisation set must never reach the next.
  let db: Db;
  let close = async () => {};
  beforeAll(async () => {
    if (!process.env.DATABASE_URL) {
      db = t.database.db;
      return;
    }
    process.env.DB_POOL_SIZE = '1';
    const { openDatabase } = await import('./client');
    const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
    delete process.env.DB_POOL_SIZE;
    db = database.db;
    close = () => database.close();
  });
  afterAll(() => close());

  const seen = async (orgId: number, readOnly: boolean) =>
    rowsOf<{ org_id: number; who: string; setting: string }>(
      await withTenant(db, orgId, (tx) => tx.execute(sql`select org_id, current_user as who, current_setting('app.org_id') as setting from users`), {
        readOnly,
      }),
    );

  it('reads and writes of several organisations on one connection each see only their own rows, as the runtime role', async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    for (const [orgId, readOnly] of [
      [a.orgId, true],
      [b.orgId, true],
      [b.orgId, false],
      [a.orgId, true],
      [a.orgId, false],
      [b.orgId, true],
    ] as const) {
      const rows = await seen(orgId, readOnly);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => Number(r.org_id) === orgId && r.who === 'cmms_app' && Number(r.setting) === orgId)).toBe(true);
    }
  });

  // Before decision 026 a read's scope kept past its request ran on PostgreSQL as whichever organisation the
  // connection served next. Now each scope sits on a wrapper of its connection that is revoked when it ends.
  it('a scope kept past its request throws, read or write, once another organisation has used the connection', async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    let keptRead: ReadTx | undefined;
    let keptWrite: Tx | undefined;
    await withTenant(db, a.orgId, async (tx) => void (keptRead = tx), { readOnly: true });
    await withTenant(db, a.orgId, async (tx) => void (keptWrite = tx));
    expect(await seen(b.orgId, true)).not.toHaveLength(0);
    for (const kept of [keptRead!, keptWrite!]) {
      // A read scope refuses at once, a write's statements when they run: either way, nothing runs.
      const err = await (async () => kept.select({ orgId: users.orgId }).from(users))().then(
        (rows) => rows,
        (e: unknown) => e,
      );
      expect(messagesOf(err)).toMatch(/ended/);
    }
    expect((await seen(b.orgId, true)).every((r) => Number(r.org_id) === b.orgId)).toBe(true);
  });

  it('a second database call inside a write scope throws at once instead of waiting for the scope', async () => {
    const a = await createOrg(t);
    const select1 = (tx: ReadTx) => tx.execute(sql`select 1`);
    await expect(withTenant(db, a.orgId, () => withTenant(db, a.orgId, select1, { readOnly: true }))).rejects.toThrow(/second database call/);
    await expect(withTenant(db, a.orgId, () => withoutTenant(db, select1))).rejects.toThrow(/second database call/);
    // PGlite is one session, which the write holds: the database itself, called from inside, throws too.
    if (t.database.kind === 'pglite') {
      const err = await withTenant(db, a.orgId, () => db.execute(sql`select 1`)).catch((e: unknown) => e);
      expect(messagesOf(err)).toMatch(/second database call/);
    }
    // Calls made after the scope ended (the caller's own, and ones started inside but run later) are fine.
    // (Registered inside, run once the scope has ended: a pause would depend on the machine's speed.)
    let later: Promise<unknown> | undefined;
    let endScope!: () => void;
    const scopeEnded = new Promise<void>((resolve) => (endScope = resolve));
    await withTenant(db, a.orgId, async (tx) => {
      later = scopeEnded.then(() => withTenant(db, a.orgId, select1, { readOnly: true }));
      await select1(tx);
    });
    endScope();
    await expect(later).resolves.toBeDefined();
    expect(await seen(a.orgId, false)).not.toHaveLength(0);
  });

  it('plans request queries without Memoize and without JIT (decision 016)', async () => {
    const a = await createOrg(t);
    for (const readOnly of [true, false]) {
      const [row] = rowsOf<{ memoize: string; jit: string }>(
        await withTenant(db, a.orgId, (tx) => tx.execute(sql`select current_setting('enable_memoize') as memoize, current_setting('jit') as jit`), {
          readOnly,
        }),
      );
      expect(row).toEqual({ memoize: 'off', jit: 'off' });
    }
  });

  it('a read cannot write, and a failed write changes nothing and leaves the connection clean', async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    const nameOf = async () =>
      rowsOf<{ first_name: string }>(await withTenant(db, a.orgId, (tx) => tx.execute(sql`select first_name from users where id = 1`), { readOnly: true }))[0]
        .first_name;
    const before = await nameOf();
    await expect(withTenant(db, a.orgId, (tx) => tx.execute(sql`update users set first_name = 'changed' where id = 1`), { readOnly: true })).rejects.toThrow();
    await expect(
      withTenant(db, a.orgId, async (tx) => {
        await tx.execute(sql`update users set first_name = 'changed' where id = 1`);
        throw new Error('the service refused');
      }),
    ).rejects.toThrow('the service refused');
    expect(await nameOf()).toBe(before);
    const rows = await seen(b.orgId, true);
    expect(rows.every((r) => Number(r.org_id) === b.orgId)).toBe(true);
  });
});

describe('reserved ids (bulk inserts, decision 042)', () => {
  const counter = async (orgId: number, table: string) =>
    rowsOf<{ last_id: number; ctid: string }>(
      await t.database.db.execute(sql`select last_id, ctid::text from org_counters where org_id = ${orgId} and table_name = ${table}`),
    )[0];

  it('a block reserved by an open transaction is never given to a concurrent insert, which numbers its row after the block', async () => {
    const a = await createOrg(t);
    const before = (await counter(a.orgId, 'users')).last_id;
    const email = `concurrent-${a.orgId}@x.com`;
    let reserved!: (first: number) => void;
    const first = new Promise<number>((resolve) => (reserved = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const bulk = withTenant(t.database.db, a.orgId, async (tx) => {
      const id = await reserveIds(tx, a.orgId, users, 3);
      await tx.insert(users).values([0, 1, 2].map((i) => ({ orgId: a.orgId, id: id + i, email: `reserved-${i}-${a.orgId}@x.com`, role: 'worker' as const })));
      reserved(id);
      await gate;
    });
    expect(await first).toBe(before + 1);
    const single = withTenant(t.database.db, a.orgId, (tx) => tx.insert(users).values({ orgId: a.orgId, email, role: 'worker' }).returning({ id: users.id }));
    // On PostgreSQL the insert is waiting for the reservation's lock on the counter (PGlite: for the one session).
    if (t.database.kind === 'postgres') {
      await until(
        async () =>
          rowsOf(
            await t.database.db.execute(
              sql`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like ${`%insert into "users"%`} and backend_type = 'client backend'`,
            ),
          ).length > 0,
      );
    }
    release();
    await bulk;
    const [row] = await single;
    expect(row.id).toBe(before + 4);
    expect((await counter(a.orgId, 'users')).last_id).toBe(before + 4);
    const ids = rowsOf<{ id: number }>(
      await withTenant(t.database.db, a.orgId, (tx) => tx.execute(sql`select id from users where id > ${before} order by id`), { readOnly: true }),
    );
    expect(ids.map((r) => Number(r.id))).toEqual([before + 1, before + 2, before + 3, before + 4]);
  });

  it('rows inserted with reserved ids leave the counter row alone; an explicit id above the counter still moves it', async () => {
    const a = await createOrg(t);
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('app.org_id', ${String(a.orgId)}, true)`);
      const first = Number(rowsOf<{ first: number }>(await tx.execute(sql`select reserve_org_ids(${a.orgId}::int, 'users', 3) as first`))[0].first);
      const version = async () =>
        rowsOf<{ ctid: string; last_id: number }>(
          await tx.execute(sql`select ctid::text, last_id from org_counters where org_id = ${a.orgId} and table_name = 'users'`),
        )[0];
      const reservedVersion = await version();
      await tx.insert(users).values([0, 1, 2].map((i) => ({ orgId: a.orgId, id: first + i, email: `kept-${i}-${a.orgId}@x.com`, role: 'worker' as const })));
      // Not updated again (no new row version): one counter update for the whole block.
      expect(await version()).toEqual(reservedVersion);
      await tx.insert(users).values({ orgId: a.orgId, id: first + 10, email: `above-${a.orgId}@x.com`, role: 'worker' });
      expect((await version()).last_id).toBe(first + 10);
    });
  });

  it("reserves only in the scope's own organisation, for tables with per-organisation ids, and gives the block back when undone", async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    const before = (await counter(a.orgId, 'users')).last_id;
    const refused = (orgId: number, table: string, count: number) =>
      withTenant(t.database.db, b.orgId, (tx) => tx.execute(sql`select reserve_org_ids(${orgId}::int, ${table}::text, ${count}::int)`)).then(
        () => '',
        (e: unknown) => messagesOf(e),
      );
    expect(await refused(a.orgId, 'users', 5)).toMatch(/not the scope's/);
    expect(await refused(b.orgId, 'org_counters', 5)).toMatch(/no per-organisation ids/);
    expect(await refused(b.orgId, 'users', 0)).toMatch(/count must be positive/);
    await expect(
      withTenant(t.database.db, a.orgId, async (tx) => {
        await reserveIds(tx, a.orgId, users, 50);
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect((await counter(a.orgId, 'users')).last_id).toBe(before);
  });
});

describe('applying the tenancy wall at start', () => {
  // Its own database: re-walling takes locks on every table, which must not meet other files' tests.
  it('leaves a walled database untouched (no table locks on a restart) and walls in a table added later', { timeout: 120_000 }, async () => {
    const { migrate, openDatabase } = await import('./client');
    const scratch = await ownDatabase();
    // PGlite: a copy of the run's migrated template (global-setup.ts), as a first start would leave it.
    const database = scratch.url ? await openDatabase({ databaseUrl: scratch.url }) : await openMigratedPGlite();
    await migrate(database);
    const policyOid = async (table: string) =>
      rowsOf<{ oid: number }>(await database.db.execute(sql`select p.oid from pg_policy p join pg_class c on c.oid = p.polrelid where c.relname = ${table}`))[0]
        ?.oid;
    const before = await policyOid('work_orders');
    await migrate(database); // a restart
    expect(await policyOid('work_orders')).toBe(before);

    await database.db.execute(sql`create table later_feature (org_id integer not null, id integer not null, primary key (org_id, id))`);
    await migrate(database);
    expect(await policyOid('later_feature')).toBeDefined();
    expect(await policyOid('work_orders')).not.toBe(before); // re-applied to every table, as designed
    const [flags] = rowsOf<{ relrowsecurity: boolean; relforcerowsecurity: boolean }>(
      await database.db.execute(sql`select relrowsecurity, relforcerowsecurity from pg_class where relname = 'later_feature'`),
    );
    expect(flags).toEqual({ relrowsecurity: true, relforcerowsecurity: true });
    await database.close();
    await scratch.drop();
  });
});
