import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import { applyTenancy, RUNTIME_ROLE } from './tenancy';
import { ROOT } from '../paths';
import { DB_WAIT_MS, startEmbedded, type PGliteThread, type Queryable } from './pglite-thread';
import { OpenWhile } from './open-while';
import { pgCode } from './pg-code';
import { HttpError } from '../http-error';
import { rowsOf } from './rows';

export type Schema = typeof schema;
/** The one database type: PGlite (embedded) and node-postgres both satisfy it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/**
 * A write scope: drizzle's transaction, as the runtime role with `app.org_id` set. Scopes have no relational
 * queries (`tx.query`): building them for every request would cost more than the request.
 */
export type Tx = PgTransaction<PgQueryResultHKT, Record<string, never>, Record<string, never>>;
/** A read scope: selects and raw statements, which the database runs read-only. A write scope is one too. */
export type ReadTx = Pick<Tx, 'select' | 'selectDistinct' | 'selectDistinctOn' | '$with' | 'with' | 'execute'>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** PostgreSQL's connection string of request work (it may be a transaction pooler such as PgBouncer). */
  url?: string;
  /**
   * Where session work connects (the job queue, the start-up migration): DATABASE_DIRECT_URL when set,
   * else `url`. A transaction pooler keeps no session for us (decision 062).
   */
  directUrl?: string;
  /** The runtime role request scopes switch to (`cmms_app`; a test may name another, roles are cluster-wide). */
  role: string;
  /** PostgreSQL: the two pools' connections (metrics, decision 067): `requests` (tenant scopes) and `owner`. */
  pools?(): { pool: 'requests' | 'owner'; total: number; idle: number; waiting: number }[];
  close(): Promise<void>;
}

/** Time limits of database work (decision 062); 0 turns one off. */
export interface Timeouts {
  /** A statement of a request's scope. */
  statementMs: number;
  /** A statement of a scope that asked for more (`long`: exports, jobs). */
  longStatementMs: number;
  /** Waiting for a row or table lock. */
  lockMs: number;
  /** A transaction left idle (its session is ended by PostgreSQL). */
  idleInTransactionMs: number;
}

export interface DbSettings {
  timeouts: Timeouts;
  /**
   * Named prepared statements (`onePlan`, decision 019). Off by default: a transaction pooler (PgBouncer before
   * 1.21, or without max_prepared_statements) sends a connection's next statement to another server connection,
   * where the name is unknown ("prepared statement kept_1 does not exist"). DB_PREPARED_STATEMENTS=on where
   * DATABASE_URL reaches PostgreSQL directly or a pooler that keeps them.
   */
  preparedStatements: boolean;
  /** The runtime role; DB_RUNTIME_ROLE, `cmms_app` by default. */
  role: string;
}

const ms = (value: string | undefined, fallback: number) =>
  value !== undefined && value !== '' && Number.isFinite(Number(value)) ? Math.max(0, Math.round(Number(value))) : fallback;

/** The database settings from the environment (DB_STATEMENT_TIMEOUT_MS & co., DB_PREPARED_STATEMENTS, DB_RUNTIME_ROLE). */
export function dbSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): DbSettings {
  return {
    timeouts: {
      statementMs: ms(env.DB_STATEMENT_TIMEOUT_MS, 15_000),
      longStatementMs: ms(env.DB_LONG_STATEMENT_TIMEOUT_MS, 300_000),
      lockMs: ms(env.DB_LOCK_TIMEOUT_MS, 5_000),
      idleInTransactionMs: ms(env.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS, 60_000),
    },
    preparedStatements: env.DB_PREPARED_STATEMENTS === 'on',
    role: env.DB_RUNTIME_ROLE || RUNTIME_ROLE,
  };
}

const MIGRATIONS = join(ROOT, 'drizzle');

/**
 * Opens PostgreSQL when a URL is given, else PGlite: the `embedded` thread already started, or one started
 * here in `dataDir` (in memory when dataDir is 'memory://' or unset).
 */
export async function openDatabase(opts: {
  databaseUrl?: string;
  /** DATABASE_DIRECT_URL: session work (jobs, migrations) connects here; `databaseUrl` when unset. */
  directUrl?: string;
  dataDir?: string;
  embedded?: PGliteThread;
  settings?: Partial<DbSettings>;
}): Promise<Database> {
  const settings = { ...dbSettingsFromEnv(), ...opts.settings };
  const { role } = settings;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(role)) throw new Error(`Invalid runtime role name ${role}`);
  if (opts.databaseUrl) {
    // The environment's direct URL belongs to the environment's DATABASE_URL, not to a database a test made.
    const directUrl = opts.directUrl || (opts.databaseUrl === process.env.DATABASE_URL && process.env.DATABASE_DIRECT_URL) || opts.databaseUrl;
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    // A request that waits this long for a connection fails (503) rather than waiting for ever.
    const poolOf = () => new pg.Pool({ connectionString: opts.databaseUrl, max: Number(process.env.DB_POOL_SIZE ?? 10), connectionTimeoutMillis: DB_WAIT_MS });
    const pool = poolOf();
    // An idle client that loses its server (restart, killed backend) must not crash the process.
    pool.on('error', () => {});
    // …nor may one that dies while checked out: the query fails (503 to the caller) and the pool replaces it.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = drizzle(pool, { schema, casing: 'snake_case' }) as unknown as Db;
    // Request work has its own pool: its connections are switched to the runtime role for good.
    const tenantPool = poolOf();
    tenantPool.on('error', () => {});
    tenantPool.on('connect', (client) => client.on('error', () => {}));
    tenantRunners.set(db, pgTenantRunner(tenantPool, drizzle, pg.types as PgTypes, settings));
    const pools = () =>
      (
        [
          ['requests', tenantPool],
          ['owner', pool],
        ] as const
      ).map(([name, p]) => ({ pool: name, total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount }));
    return { db, kind: 'postgres', url: opts.databaseUrl, directUrl, role, pools, close: async () => void (await Promise.all([pool.end(), tenantPool.end()])) };
  }
  // PGlite runs in its own thread (decision 015); `npm start` starts it before loading this module.
  const thread = opts.embedded ?? startEmbedded(opts.dataDir);
  const { drizzle } = await import('drizzle-orm/pglite');
  const db = drizzle({ client: thread as never, schema, casing: 'snake_case' }) as unknown as Db;
  tenantRunners.set(db, pgliteTenantRunner(thread, drizzle, role));
  // Not waiting for it: the first query does (its start-up overlaps the caller's).
  return { db, kind: 'pglite', role, close: () => thread.close() };
}

/** The advisory lock that serialises start-up migrations (every instance, `npm run migrate`, test runs). */
export const MIGRATION_LOCK = 727274;

export interface MigrateOptions {
  /** How long an instance waits for another one's migration (the advisory lock); default 10 minutes. */
  waitMs?: number;
  /** lock_timeout of the migration's DDL: it must not queue behind (and in front of) live requests for long. */
  lockTimeoutMs?: number;
  /** Tries when the DDL met a lock held too long (55P03) or a deadlock; default 5. */
  tries?: number;
  /** Tests: a start-up whose lock is left out (the mutation check of the concurrent start). */
  withoutLock?: boolean;
}

/**
 * Applies the generated migrations, then the tenancy wall (idempotent). On PostgreSQL all of it is one
 * transaction on a dedicated connection (the direct URL when set) that first takes the migration lock
 * (`pg_advisory_xact_lock`): the lock is held from the first migration to the last grant and released only by
 * that transaction's end, so concurrent starters run one after the other, and one that finds the work done does
 * nothing. The migrations are applied here, in that transaction, with the bookkeeping of drizzle's migrator
 * (`drizzle.__drizzle_migrations`): drizzle's own migrator commits a transaction of its own, which released
 * the lock half-way (issue 38). One transaction also works through a transaction pooler (PgBouncer keeps its
 * server connection for the whole of it), where a session lock would stay on a pooled connection.
 */
export async function migrate(database: Database, options: MigrateOptions = {}) {
  if (database.kind === 'postgres') {
    const tries = options.tries ?? 5;
    for (let attempt = 1; ; attempt++) {
      try {
        return await migratePostgres(database, options);
      } catch (err) {
        const code = pgCode(err);
        // Only the lock waits of the DDL are retried; anything else is a fault to report.
        if (attempt >= tries || (code !== '55P03' && code !== '40P01')) throw err;
        await new Promise((resolve) => setTimeout(resolve, 250 * attempt + Math.random() * 250));
      }
    }
  }
  const { migrate: run } = await import('drizzle-orm/pglite/migrator');
  if (!(await upToDate(database.db))) await run(database.db as never, { migrationsFolder: MIGRATIONS });
  await applyTenancy(database.db, database.role);
}

async function migratePostgres(database: Database, options: MigrateOptions) {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { readMigrationFiles } = await import('drizzle-orm/migrator');
  const client = new pg.Client({ connectionString: database.directUrl ?? database.url, application_name: 'cmms-migrate' });
  client.on('error', () => {});
  await client.connect();
  try {
    const db = drizzle(client, { casing: 'snake_case' }) as unknown as Db;
    await client.query('begin');
    try {
      // Waiting for another instance's migration is not a lock wait of our DDL: its own, longer bound.
      await client.query(
        `set local lock_timeout = ${options.waitMs ?? 600_000}; set local statement_timeout = 0; set local idle_in_transaction_session_timeout = 0`,
      );
      if (!options.withoutLock) await client.query(`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      await client.query(`set local lock_timeout = ${options.lockTimeoutMs ?? 10_000}`);
      if (!(await upToDate(db))) {
        await client.query('create schema if not exists drizzle');
        await client.query('create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)');
        const last = rowsOf<{ created_at: string }>(
          await client.query('select created_at::text from drizzle.__drizzle_migrations order by created_at desc limit 1'),
        )[0];
        for (const migration of readMigrationFiles({ migrationsFolder: MIGRATIONS })) {
          if (last && Number(last.created_at) >= migration.folderMillis) continue;
          for (const statement of migration.sql) if (statement.trim()) await client.query(statement);
          await client.query('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [migration.hash, migration.folderMillis]);
        }
      }
      await applyTenancy(db, database.role);
      await client.query('commit');
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    }
  } finally {
    await client.end().catch(() => {});
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
  if (!rowsOf<{ present: boolean }>(result)[0].present) return false;
  const applied = await db.execute(sql.raw('select max(created_at)::text as last from drizzle.__drizzle_migrations'));
  return Number(rowsOf<{ last: string | null }>(applied)[0].last ?? 0) >= newest;
}

/**
 * Request work, in one place (decision 026). Each call of `withTenant` gets a scope of its own:
 * - a read scope (GET/HEAD): `ReadTx`, selects and raw statements only, which the database runs read-only;
 * - a write scope (every other method): `Tx`, drizzle's own transaction, with savepoints.
 * Either runs as the runtime role with `app.org_id` set, so row-level security walls off other tenants.
 * A scope sits on a wrapper of its connection that is revoked when `fn` settles: a scope kept past its
 * request throws, on both databases, instead of running on a connection another organisation now uses.
 */
export function withTenant<T>(db: Db, orgId: number, fn: (tx: ReadTx) => Promise<T>, options: { readOnly: true; long?: boolean }): Promise<T>;
export function withTenant<T>(db: Db, orgId: number, fn: (tx: Tx) => Promise<T>, options?: ScopeOptions): Promise<T>;
export function withTenant<T>(db: Db, orgId: number, fn: (tx: Tx) => Promise<T>, options: ScopeOptions = {}): Promise<T> {
  const runner = tenantRunners.get(db);
  if (!runner) return Promise.reject(new Error('withTenant needs a database opened by openDatabase'));
  // The runners write the organisation id into their settings statement: it must be the integer we checked.
  if (!Number.isSafeInteger(orgId) || orgId <= 0) return Promise.reject(new Error(`Invalid organisation id ${orgId}`));
  if (writing.open) return Promise.reject(nestedCall());
  const long = options.long ?? false;
  if (options.readOnly) return runner(orgId, fn, true, long);
  return writing.run(() => runner(orgId, fn, false, long));
}

export interface ScopeOptions {
  readOnly?: boolean;
  /** The longer statement timeout (DB_LONG_STATEMENT_TIMEOUT_MS): exports, jobs. */
  long?: boolean;
}

/**
 * Planner settings of request connections (decision 016). Requests read pages: a LIMIT over an organisation's
 * rows with a few lookups. For a big organisation the planner puts Memoize on those lookups, sized for the
 * hundred thousand rows it expects rather than the ten the LIMIT takes, and setting up its hash tables cost
 * 1.5 ms where the whole page takes 0.3 ms; and its cost estimates cross JIT's threshold, where compiling takes
 * tens of milliseconds for a query that runs in one.
 */
export const REQUEST_PLANNER_SETTINGS = 'set enable_memoize = off; set jit = off';

/** `orgId` '' : no organisation (`withoutTenant`). */
type TenantRunner = <T>(orgId: number | '', fn: (tx: Tx) => Promise<T>, readOnly: boolean, long: boolean) => Promise<T>;
const tenantRunners = new WeakMap<Db, TenantRunner>();

/**
 * Open while a write scope runs, in its async context (everywhere, production included). PGlite is one session,
 * which a write holds from BEGIN to COMMIT: a second call from inside would wait for the write, which waits for
 * it. It throws instead, on both databases alike.
 */
const writing = new OpenWhile();
const nestedCall = () => new Error("A second database call inside a write scope: use the scope's tx");

/** Thrown by a scope used after its request: it would otherwise run on a connection another request now has. */
export class ScopeEndedError extends Error {
  constructor() {
    super('A database scope was used after its request ended: keep no tx past withTenant or req.inTenant');
  }
}

/**
 * How a scope runs a statement kept by `preparedRead` (its text, its values, a name for one plan or ''): on the
 * scope's own connection, rows as arrays (decoded by the statement's own decoder).
 */
export type RowsRunner = (text: string, values: unknown[], name: string) => Promise<unknown[][]>;
const RUN_ROWS = Symbol('runRows');

/** A write scope's tx with its way of running kept statements, and so each savepoint's (`tx.transaction`). */
function withRowsRunner(tx: Tx, runRows: RowsRunner): Tx {
  const savepoint = tx.transaction.bind(tx);
  return Object.assign(tx, {
    [RUN_ROWS]: runRows,
    transaction: (fn: (inner: Tx) => Promise<unknown>) => savepoint((inner) => fn(withRowsRunner(inner as unknown as Tx, runRows))),
  }) as Tx;
}

/** The scope's way of running kept statements; only scopes handed out by `withTenant` have one. */
export function rowsRunnerOf(tx: ReadTx): RowsRunner {
  const run = (tx as { [RUN_ROWS]?: RowsRunner })[RUN_ROWS];
  if (!run) throw new Error('preparedRead needs the tx of a scope from withTenant');
  return run;
}

/** node-postgres's parsing as drizzle's driver sets it: dates, timestamps, intervals (and their arrays) stay text, the columns decode them. */
const asText = (value: string) => value;
const TEXT_TYPES = new Set([1082, 1114, 1184, 1186, 1182, 1115, 1185, 1187, 1231]);
type PgTypes = { getTypeParser(typeId: number, format?: string): unknown };

/** A read scope: the builder's reads and raw statements over the scope's own drizzle instance. */
const readScope = (db: Db, runRows: RowsRunner): ReadTx =>
  ({
    select: db.select.bind(db),
    selectDistinct: db.selectDistinct.bind(db),
    selectDistinctOn: db.selectDistinctOn.bind(db),
    $with: db.$with.bind(db),
    with: db.with.bind(db),
    execute: db.execute.bind(db),
    [RUN_ROWS]: runRows,
  }) as unknown as ReadTx;

/**
 * The settings of one scope, local to its transaction (decision 062): the runtime role, the organisation, the
 * planner settings (decision 016) and the time limits. Nothing is set for the session, so a connection handed
 * back (to our pool, or by a transaction pooler to another client) carries nothing of ours.
 */
function scopeSettings(role: string, orgId: number | '', timeouts: Timeouts, long: boolean) {
  const local = (name: string, value: string | number) => `set_config('${name}', '${value}', true)`;
  return `select ${[
    local('role', role),
    local('app.org_id', orgId),
    local('enable_memoize', 'off'),
    local('jit', 'off'),
    local('statement_timeout', long ? timeouts.longStatementMs : timeouts.statementMs),
    local('lock_timeout', timeouts.lockMs),
    local('idle_in_transaction_session_timeout', timeouts.idleInTransactionMs),
  ].join(', ')}`;
}

/**
 * Errors after which a connection is dropped rather than handed to the next request: a failure below SQL (it
 * may not have rolled back), a session PostgreSQL ended (class 08, 57P0x, an idle transaction's 25P03), and a
 * named statement whose columns changed under it (decision 019: "cached plan must not change result type",
 * 0A000, for as long as the connection lives).
 */
function breaksConnection(err: unknown): boolean {
  const code = pgCode(err);
  if (!code) return !(err instanceof HttpError);
  return code === '0A000' || code === '25P03' || code.startsWith('08') || code.startsWith('57P');
}

/**
 * PostgreSQL (decisions 014, 062). Every scope is a transaction of its own: a read is `begin read only`, a write
 * drizzle's transaction (`begin read write`, savepoints), and each starts by setting the runtime role, the
 * organisation and the time limits local to it. So the request pool works through a transaction pooler
 * (PgBouncer, pool_mode = transaction): no setting, and no named statement unless DB_PREPARED_STATEMENTS=on,
 * outlives the transaction. A read that must see several tables at one instant is still one statement (read
 * committed). Each scope has its own drizzle instance (it costs well under a microsecond) over a wrapper of
 * its connection that refuses once the scope has ended.
 */
function pgTenantRunner(
  pool: import('pg').Pool,
  drizzle: typeof import('drizzle-orm/node-postgres').drizzle,
  types: PgTypes,
  settings: DbSettings,
): TenantRunner {
  const parsing = { getTypeParser: (typeId: number, format?: string) => (TEXT_TYPES.has(typeId) ? asText : types.getTypeParser(typeId, format)) };
  const named = settings.preparedStatements;
  return async (orgId, fn, readOnly, long) => {
    const client = await pool.connect();
    const scope = { open: true };
    const query = (...args: unknown[]) =>
      scope.open ? (client.query as (...a: unknown[]) => Promise<unknown>)(...args) : Promise.reject(new ScopeEndedError());
    const runRows: RowsRunner = async (text, values, name) =>
      rowsOf<unknown[]>(await query({ text, values, name: (named && name) || undefined, rowMode: 'array', types: parsing }));
    const db = drizzle({ client: { query } as never, casing: 'snake_case' }) as unknown as Db;
    const setUp = scopeSettings(settings.role, orgId, settings.timeouts, long);
    let broken: Error | undefined;
    try {
      if (readOnly) {
        try {
          // One round trip opens the transaction and sets it up; the pooler keeps this server connection until commit.
          await client.query(`begin read only; ${setUp}`);
          // withTenant's overloads typed a read's `fn` for a ReadTx.
          const result = await fn(readScope(db, runRows) as Tx);
          await client.query('commit');
          return result;
        } catch (err) {
          await client.query('rollback').catch((rollbackFailed: Error) => (broken = rollbackFailed));
          throw err;
        }
      }
      return await db.transaction(
        async (tx) => {
          await tx.execute(sql.raw(setUp));
          return fn(withRowsRunner(tx as unknown as Tx, runRows));
        },
        { accessMode: 'read write' },
      );
    } catch (err) {
      if (breaksConnection(err)) broken ??= err as Error;
      throw err;
    } finally {
      scope.open = false;
      client.release(broken);
    }
  };
}

/**
 * PGlite, in its own thread (decision 015). A read's statements each run whole there, in a read-only
 * transaction of their own that first sets the tenant and the role, so that reads queue back to back. A write
 * is drizzle's transaction, which has the session to itself, its settings sent with its BEGIN.
 */
function pgliteTenantRunner(thread: PGliteThread, drizzle: typeof import('drizzle-orm/pglite').drizzle, role: string): TenantRunner {
  return async (orgId, fn, readOnly) => {
    const settings = `select set_config('app.org_id', '${orgId}', true), set_config('role', '${role}', true)`;
    const scope = { open: true };
    const ended = () => Promise.reject(new ScopeEndedError());
    try {
      if (readOnly) {
        const scoped = thread.scoped(`${settings}, set_config('transaction_read_only', 'on', true)`);
        const query: Queryable['query'] = (text, params, options) => (scope.open ? scoped.query(text, params, options) : ended());
        const runRows: RowsRunner = async (text, values, name) => rowsOf<unknown[]>(await query(text, values, { rowMode: 'array', name: name || undefined }));
        const db = drizzle({ client: { query } as never, casing: 'snake_case' }) as unknown as Db;
        return await fn(readScope(db, runRows) as Tx);
      }
      // The transaction's own connection, for kept statements: drizzle's transaction runs on it too.
      let inside: Queryable | undefined;
      const transaction = <R>(work: (tx: Queryable) => Promise<R>) =>
        scope.open ? thread.transaction((tx) => work((inside = tx)), settings, true) : (ended() as Promise<R>);
      const runRows: RowsRunner = async (text, values) => rowsOf<unknown[]>(await inside!.query(text, values, { rowMode: 'array' }));
      const db = drizzle({ client: { transaction } as never, casing: 'snake_case' }) as unknown as Db;
      return await db.transaction((tx) => fn(withRowsRunner(tx as unknown as Tx, runRows)));
    } finally {
      scope.open = false;
    }
  };
}

/** Runs `fn` in a write scope as the runtime role with no organisation: only global tables are visible. */
export function withoutTenant<T>(db: Db, fn: (tx: Tx) => Promise<T>, options: { long?: boolean } = {}): Promise<T> {
  const runner = tenantRunners.get(db);
  if (!runner) return Promise.reject(new Error('withoutTenant needs a database opened by openDatabase'));
  if (writing.open) return Promise.reject(nestedCall());
  return writing.run(() => runner('', fn, false, options.long ?? false));
}

/**
 * The request pool answers (`/api/ready`): a read scope of no organisation, through the same runner, pool and
 * settings as a request's (the runtime role exists, the pooler passes transactions).
 */
export async function requestPoolReady(db: Db): Promise<void> {
  const runner = tenantRunners.get(db);
  if (!runner) throw new Error('requestPoolReady needs a database opened by openDatabase');
  await runner('', (tx) => tx.execute(sql`select 1`), true, false);
}
