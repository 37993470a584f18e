import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { dbSettingsFromEnv, migrate, openDatabase, withTenant, type Database } from './client';
import { scratchDatabase } from '../test/scratch-database';
import { rowsOf } from './rows';

const url = process.env.PGBOUNCER_UPSTREAM_URL ?? process.env.DATABASE_URL;

/** Safe start-up on PostgreSQL (issue 38, decision 062). */
describe.skipIf(!url)('start-up migration on PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  beforeAll(async () => {
    scratch = await scratchDatabase(url!, 'cmms_start');
  });
  afterAll(() => scratch?.drop());

  it('lets five instances starting at once on an empty database all migrate, one after the other', async () => {
    const instances = await Promise.all(Array.from({ length: 5 }, () => openDatabase({ databaseUrl: scratch.url })));
    try {
      const started = Date.now();
      const results = await Promise.allSettled(
        instances.map(async (database) => {
          await migrate(database);
          return Date.now() - started;
        }),
      );
      const failures = results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason));
      console.log(`five concurrent start-up migrations: ${results.map((r) => (r.status === 'fulfilled' ? `${r.value} ms` : 'failed')).join(', ')}`);
      expect(failures).toEqual([]);
      const [state] = rowsOf<{ migrations: number; fingerprints: number; walled: number }>(
        await instances[0].db.execute(sql`select (select count(*)::int from drizzle.__drizzle_migrations) as migrations,
          (select count(*)::int from tenancy_state) as fingerprints,
          (select count(*)::int from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' and relforcerowsecurity) as walled`),
      );
      // Each migration applied once, one tenancy record, the wall in place.
      expect(state.fingerprints).toBe(1);
      expect(state.walled).toBeGreaterThan(20);
      const { entries } = (await import('../../../drizzle/meta/_journal.json')).default as { entries: unknown[] };
      expect(state.migrations).toBe(entries.length);
      // And requests work as the runtime role.
      await expect(withTenant(instances[1].db, 1, (tx) => tx.execute(sql`select count(*) from users`), { readOnly: true })).resolves.toBeDefined();
    } finally {
      await Promise.all(instances.map((database) => database.close()));
    }
  }, 120_000);

  it('creates the runtime role when it is missing (a dump restored on another cluster), with its rights', async () => {
    // Roles are the cluster's, shared with every database of the run: this test's role is its own.
    const role = `cmms_app_t${process.pid}`;
    const settings = { ...dbSettingsFromEnv(), role };
    const restored = await scratchDatabase(url!, 'cmms_restore');
    let database: Database | undefined;
    const owner = new pg.Client({ connectionString: restored.url });
    await owner.connect();
    try {
      database = await openDatabase({ databaseUrl: restored.url, settings });
      await migrate(database);
      const read = () => withTenant(database!.db, 1, (tx) => tx.execute(sql`select count(*) from work_orders`), { readOnly: true });
      await expect(read()).resolves.toBeDefined();
      // What a pg_dump restored where the role does not exist leaves: the tables, their policies and the tenancy
      // record, but neither the role nor its rights (pg_dump has no roles; its GRANTs to the role failed).
      await owner.query(`drop owned by ${role}; drop role ${role}`);
      await expect(read()).rejects.toThrow();
      // The next start creates it and grants it its rights again.
      await migrate(database);
      await expect(read()).resolves.toBeDefined();
      await expect(
        withTenant(database.db, 1, (tx) => tx.execute(sql`select current_user as who`), { readOnly: true }).then((r) => rowsOf<{ who: string }>(r)[0].who),
      ).resolves.toBe(role);
    } finally {
      await database?.close();
      await owner.query(`drop owned by ${role}`).catch(() => {});
      await owner.end();
      await restored.drop();
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`drop role if exists ${role}`).catch(() => {});
      await admin.end();
    }
  }, 120_000);
});
