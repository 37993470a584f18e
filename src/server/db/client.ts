import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import * as schema from './schema';
import { applyTenancy, RUNTIME_ROLE } from './tenancy';
import { ROOT } from '../paths';
import { startEmbedded, type PGliteThread, type Queryable } from './pglite-thread';
import { keepPreparedOn } from './prepared';
import { pgCode } from '../plugins/errors';

export type Schema = typeof schema;
/** The one database type: PGlite (embedded) and node-postgres both satisfy it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction inside which `app.org_id` is set and the runtime role is active. */
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const MIGRATIONS = join(ROOT, 'drizzle');

/**
 * Opens PostgreSQL when a URL is given, else PGlite: the `embedded` thread already started, or one started
 * here in `dataDir` (in memory when dataDir is 'memory://' or unset).
 */
export async function openDatabase(opts: { databaseUrl?: string; dataDir?: string; embedded?: PGliteThread }): Promise<Database> {
  if (opts.databaseUrl) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: Number(process.env.DB_POOL_SIZE ?? 10) });
    // An idle client that loses its server (restart, killed backend) must not crash the process.
    pool.on('error', () => {});
    // …nor may one that dies while checked out: the query fails (503 to the caller) and the pool replaces it.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = drizzle(pool, { schema, casing: 'snake_case' }) as unknown as Db;
    // Request work has its own pool: its connections are switched to the runtime role for good (below).
    const tenantPool = new pg.Pool({ connectionString: opts.databaseUrl, max: Number(process.env.DB_POOL_SIZE ?? 10) });
    tenantPool.on('error', () => {});
    tenantPool.on('connect', (client) => client.on('error', () => {}));
    const { NodePgSession, NodePgTransaction } = await import('drizzle-orm/node-postgres');
    tenantRunners.set(db, pgTenantRunner(tenantPool, db, NodePgSession, NodePgTransaction));
    return { db, kind: 'postgres', close: async () => void (await Promise.all([pool.end(), tenantPool.end()])) };
  }
  // PGlite runs in its own thread (decision 015); `npm start` starts it before loading this module.
  const client = opts.embedded ?? startEmbedded(opts.dataDir);
  const { drizzle, PgliteSession, PgliteTransaction } = await import('drizzle-orm/pglite');
  const db = drizzle({ client: client as never, schema, casing: 'snake_case' }) as unknown as Db;
  tenantRunners.set(db, pgliteTenantRunner(client, db, PgliteSession, PgliteTransaction));
  // Not waiting for it: the first query does (its start-up overlaps the caller's).
  return {
    db,
    kind: 'pglite',
    close: () => client.close(),
  };
}

/** Applies the generated migrations, then the tenancy wall (idempotent). */
export async function migrate(database: Database) {
  if (database.kind === 'postgres') {
    const { migrate: run } = await import('drizzle-orm/node-postgres/migrator');
    // Serialise concurrent starters (several instances, parallel test runs) on one advisory lock.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(727274)`);
      if (!(await upToDate(tx as unknown as Db))) await run(tx as never, { migrationsFolder: MIGRATIONS });
      await applyTenancy(tx as unknown as Db);
    });
  } else {
    const { migrate: run } = await import('drizzle-orm/pglite/migrator');
    if (!(await upToDate(database.db))) await run(database.db as never, { migrationsFolder: MIGRATIONS });
    await applyTenancy(database.db);
  }
}

/**
 * True when the newest migration in drizzle/ is already applied: a restart then skips the migrator, whose
 * bookkeeping DDL (schema and table "if not exists") costs a noticeable part of PGlite's cold start.
 */
async function upToDate(db: Db): Promise<boolean> {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as { entries: { when: number }[] };
  const newest = journal.entries.at(-1)?.when ?? 0;
  const result = await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
  if (!(result as unknown as { rows: { present: boolean }[] }).rows[0].present) return false;
  const applied = await db.execute(sql.raw('select max(created_at)::text as last from drizzle.__drizzle_migrations'));
  return Number((applied as unknown as { rows: { last: string | null }[] }).rows[0].last ?? 0) >= newest;
}

/**
 * Runs `fn` as the runtime role with `app.org_id` set: the database walls off other tenants. Writes run in
 * one transaction. `readOnly` work (GET requests) cannot write: on PGlite it is a read-only transaction, on
 * PostgreSQL autocommit statements on a read-only connection (decision 014).
 */
export function withTenant<T>(db: Db, orgId: number, fn: (tx: Tx) => Promise<T>, options: { readOnly?: boolean } = {}): Promise<T> {
  const runner = tenantRunners.get(db);
  if (!runner) return Promise.reject(new Error('withTenant needs a database opened by openDatabase'));
  // The runners write the organisation id into their settings statement: it must be the integer we checked.
  if (!Number.isSafeInteger(orgId) || orgId <= 0) return Promise.reject(new Error(`Invalid organisation id ${orgId}`));
  return runner(orgId, fn, options.readOnly ?? false);
}

/**
 * Planner settings of request connections (decision 016). Requests read pages: a LIMIT over an organisation's
 * rows with a few lookups. For a big organisation the planner puts Memoize on those lookups, sized for the
 * hundred thousand rows it expects rather than the ten the LIMIT takes, and setting up its hash tables cost
 * 1.5 ms where the whole page takes 0.3 ms; and its cost estimates cross JIT's threshold, where compiling takes
 * tens of milliseconds for a query that runs in one.
 */
export const REQUEST_PLANNER_SETTINGS = 'set enable_memoize = off; set jit = off';

type TenantRunner = <T>(orgId: number, fn: (tx: Tx) => Promise<T>, readOnly: boolean) => Promise<T>;
const tenantRunners = new WeakMap<Db, TenantRunner>();

/**
 * Request work on PostgreSQL (decision 014). Every statement is a network round trip and a socket write,
 * and BEGIN, the settings and COMMIT had become most of a list request's cost. So the request pool's
 * connections are set up once as the runtime role with read-only transactions by default, and
 * - a read sets `app.org_id` for the session only when the connection last served another organisation, then
 *   runs its statements as they are (each its own read-only transaction: a list is one statement);
 * - a write opens `begin read write` with `app.org_id` local to it, in one round trip, and commits.
 * The organisation id is an integer we checked, so it is written inline. The transaction object is
 * drizzle's own, so savepoints work in writes as before.
 */
function pgTenantRunner(
  pool: import('pg').Pool,
  db: Db,
  Session: typeof import('drizzle-orm/node-postgres').NodePgSession,
  Transaction: typeof import('drizzle-orm/node-postgres').NodePgTransaction,
): TenantRunner {
  const { dialect, session } = db as unknown as { dialect: never; session: { schema: never; options: never } };
  type TenantClient = import('pg').PoolClient & { tenantRole?: true; tenantOrgId?: number; tenantTx?: Tx };
  return async (orgId, fn, readOnly) => {
    const client = (await pool.connect()) as TenantClient;
    // drizzle's transaction object holds nothing but its connection: one per connection serves every request.
    let tx = client.tenantTx;
    if (!tx) {
      tx = client.tenantTx = new Transaction(dialect, new Session(client, dialect, session.schema, session.options), session.schema) as unknown as Tx;
      // It lives as long as its connection, so reads may keep their built statements on it (decision 017).
      keepPreparedOn(tx);
    }
    let broken: Error | undefined;
    try {
      if (!client.tenantRole) {
        await client.query(`set role ${RUNTIME_ROLE}; set default_transaction_read_only = on; ${REQUEST_PLANNER_SETTINGS}`);
        client.tenantRole = true;
      }
      if (readOnly) {
        if (client.tenantOrgId !== orgId) {
          client.tenantOrgId = undefined;
          await client.query(`select set_config('app.org_id', '${orgId}', false)`);
          client.tenantOrgId = orgId;
        }
        return await fn(tx);
      }
      try {
        await client.query(`begin read write; select set_config('app.org_id', '${orgId}', true)`);
        const result = await fn(tx);
        await client.query('commit');
        return result;
      } catch (err) {
        await client.query('rollback').catch((lost: Error) => (broken = lost));
        throw err;
      }
    } catch (err) {
      // A statement named on the server (decision 019) whose result's column types changed under it (a
      // migration by another instance) fails on this connection for as long as it lives: PostgreSQL's
      // "cached plan must not change result type", code 0A000. Dropped, the next request prepares it afresh.
      if (pgCode(err) === '0A000') broken = err as Error;
      throw err;
    } finally {
      // A connection that cannot even roll back is dropped rather than handed to the next request.
      client.release(broken);
    }
  };
}

/**
 * Request work on PGlite (decision 015). A read's statements each run whole in the database's thread, in a
 * read-only transaction of their own that first sets the tenant and the role, so that reads queue there
 * back to back. A write is one transaction, its settings local to it and sent with its BEGIN, as on PostgreSQL.
 * Every read shares one transaction object, so that it keeps its built statements for the next requests as
 * PostgreSQL's request connections do (decisions 017 and 020); each statement takes its request's settings
 * from the request's async context.
 */
function pgliteTenantRunner(
  client: PGliteThread,
  db: Db,
  Session: typeof import('drizzle-orm/pglite').PgliteSession,
  Transaction: typeof import('drizzle-orm/pglite').PgliteTransaction,
): TenantRunner {
  const { dialect, session } = db as unknown as { dialect: never; session: { schema: never; options: never } };
  // drizzle's own transaction object over our connection, so savepoints work as in any drizzle transaction.
  const over = (connection: Queryable) => new Transaction(dialect, new Session(connection as never, dialect, session.schema, session.options), session.schema) as unknown as Tx;
  const readSettings = new AsyncLocalStorage<string>();
  const reads = over(
    client.scoped(() => {
      const settings = readSettings.getStore();
      // Unreachable through withTenant; a statement without an organisation must never run as a tenant's.
      if (!settings) throw new Error('A tenant read outside withTenant');
      return settings;
    }),
  );
  keepPreparedOn(reads);
  return async (orgId, fn, readOnly) => {
    const settings = `select set_config('app.org_id', '${orgId}', true), set_config('role', '${RUNTIME_ROLE}', true)`;
    if (!readOnly) return client.transaction((connection) => fn(over(connection)), settings);
    // Awaited inside: drizzle's queries are lazy, and one `fn` returns unstarted would run outside the context.
    return readSettings.run(`${settings}, set_config('transaction_read_only', 'on', true)`, async () => await fn(reads));
  };
}

/** Runs `fn` as the runtime role with no organisation: only global tables are visible. */
export function withoutTenant<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local role ${RUNTIME_ROLE}`));
    return fn(tx as Tx);
  });
}
