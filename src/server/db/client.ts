import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import { applyTenancy, RUNTIME_ROLE } from './tenancy';
import { ROOT } from '../paths';
import { DB_WAIT_MS, startEmbedded, type PGliteThread, type Queryable } from './pglite-thread';
import { OpenWhile } from './open-while';
import { pgCode } from '../plugins/errors';
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
  /** PostgreSQL's connection string: what else must reach this same database (the job queue) connects with it. */
  url?: string;
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
    tenantRunners.set(db, pgTenantRunner(tenantPool, drizzle, pg.types as PgTypes));
    return { db, kind: 'postgres', url: opts.databaseUrl, close: async () => void (await Promise.all([pool.end(), tenantPool.end()])) };
  }
  // PGlite runs in its own thread (decision 015); `npm start` starts it before loading this module.
  const thread = opts.embedded ?? startEmbedded(opts.dataDir);
  const { drizzle } = await import('drizzle-orm/pglite');
  const db = drizzle({ client: thread as never, schema, casing: 'snake_case' }) as unknown as Db;
  tenantRunners.set(db, pgliteTenantRunner(thread, drizzle));
  // Not waiting for it: the first query does (its start-up overlaps the caller's).
  return { db, kind: 'pglite', close: () => thread.close() };
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
export function withTenant<T>(db: Db, orgId: number, fn: (tx: ReadTx) => Promise<T>, options: { readOnly: true }): Promise<T>;
export function withTenant<T>(db: Db, orgId: number, fn: (tx: Tx) => Promise<T>, options?: { readOnly?: boolean }): Promise<T>;
export function withTenant<T>(db: Db, orgId: number, fn: (tx: Tx) => Promise<T>, options: { readOnly?: boolean } = {}): Promise<T> {
  const runner = tenantRunners.get(db);
  if (!runner) return Promise.reject(new Error('withTenant needs a database opened by openDatabase'));
  // The runners write the organisation id into their settings statement: it must be the integer we checked.
  if (!Number.isSafeInteger(orgId) || orgId <= 0) return Promise.reject(new Error(`Invalid organisation id ${orgId}`));
  if (writing.open) return Promise.reject(nestedCall());
  if (options.readOnly) return runner(orgId, fn, true);
  return writing.run(() => runner(orgId, fn, false)).then(committed(db, orgId));
}

/**
 * Called after each write scope of `db` commits, with its organisation ('' for `withoutTenant`): what this
 * process keeps about an organisation (the callers' rights, decision 021) is forgotten before the answer leaves.
 */
export function onCommittedWrite(db: Db, listener: (orgId: number | '') => void) {
  writeListeners.set(db, listener);
}
const writeListeners = new WeakMap<Db, (orgId: number | '') => void>();
const committed =
  (db: Db, orgId: number | '') =>
  <T>(result: T): T => {
    writeListeners.get(db)?.(orgId);
    return result;
  };

/**
 * Planner settings of request connections (decision 016). Requests read pages: a LIMIT over an organisation's
 * rows with a few lookups. For a big organisation the planner puts Memoize on those lookups, sized for the
 * hundred thousand rows it expects rather than the ten the LIMIT takes, and setting up its hash tables cost
 * 1.5 ms where the whole page takes 0.3 ms; and its cost estimates cross JIT's threshold, where compiling takes
 * tens of milliseconds for a query that runs in one.
 */
export const REQUEST_PLANNER_SETTINGS = 'set enable_memoize = off; set jit = off';

/** `orgId` '' : no organisation (`withoutTenant`). */
type TenantRunner = <T>(orgId: number | '', fn: (tx: Tx) => Promise<T>, readOnly: boolean) => Promise<T>;
const tenantRunners = new WeakMap<Db, TenantRunner>();

/**
 * Open while a write scope runs, in its async context (when NESTED_CALL_CHECK is on). PGlite is one session,
 * which a write holds from BEGIN to COMMIT: a second call from inside would wait for the write, which waits for
 * it. It throws instead, on both databases alike.
 */
const writing = new OpenWhile();
const nestedCall = () => new Error('A second database call inside a write scope: use the scope\'s tx');

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
 * PostgreSQL (decision 014). The request pool's connections are set once to the runtime role, read-only by
 * default, with the planner settings. A read sets `app.org_id` for the session only when the connection last
 * served another organisation, then runs its statements as they are (each its own read-only transaction: a
 * read that must see several tables at one instant is one statement). A write is drizzle's transaction,
 * `begin read write`, with `app.org_id` local to it. Each scope has its own drizzle instance (it costs well
 * under a microsecond) over a wrapper of its connection that refuses once the scope has ended.
 */
function pgTenantRunner(pool: import('pg').Pool, drizzle: typeof import('drizzle-orm/node-postgres').drizzle, types: PgTypes): TenantRunner {
  const setUp = new WeakSet<import('pg').PoolClient>();
  const orgOf = new WeakMap<import('pg').PoolClient, number | ''>();
  const parsing = { getTypeParser: (typeId: number, format?: string) => (TEXT_TYPES.has(typeId) ? asText : types.getTypeParser(typeId, format)) };
  return async (orgId, fn, readOnly) => {
    const client = await pool.connect();
    const scope = { open: true };
    const query = (...args: unknown[]) => (scope.open ? (client.query as (...a: unknown[]) => Promise<unknown>)(...args) : Promise.reject(new ScopeEndedError()));
    const runRows: RowsRunner = async (text, values, name) => rowsOf<unknown[]>(await query({ text, values, name: name || undefined, rowMode: 'array', types: parsing }));
    const db = drizzle({ client: { query } as never, casing: 'snake_case' }) as unknown as Db;
    let broken: Error | undefined;
    try {
      if (!setUp.has(client)) {
        await client.query(`set role ${RUNTIME_ROLE}; set default_transaction_read_only = on; ${REQUEST_PLANNER_SETTINGS}`);
        setUp.add(client);
      }
      if (readOnly) {
        if (orgOf.get(client) !== orgId) {
          orgOf.delete(client);
          await client.query(`select set_config('app.org_id', '${orgId}', false)`);
          orgOf.set(client, orgId);
        }
        // withTenant's overloads typed a read's `fn` for a ReadTx.
        return await fn(readScope(db, runRows) as Tx);
      }
      return await db.transaction(
        async (tx) => {
          await tx.execute(sql.raw(`select set_config('app.org_id', '${orgId}', true)`));
          return fn(withRowsRunner(tx as unknown as Tx, runRows));
        },
        { accessMode: 'read write' },
      );
    } catch (err) {
      // Dropped rather than handed to the next request: a connection that failed below SQL (it may not have
      // rolled back), and one holding a named statement whose columns changed under it (decision 019:
      // "cached plan must not change result type", code 0A000, for as long as the connection lives).
      const code = pgCode(err);
      if (code === '0A000' || (!code && !(err instanceof HttpError))) broken = err as Error;
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
function pgliteTenantRunner(thread: PGliteThread, drizzle: typeof import('drizzle-orm/pglite').drizzle): TenantRunner {
  return async (orgId, fn, readOnly) => {
    const settings = `select set_config('app.org_id', '${orgId}', true), set_config('role', '${RUNTIME_ROLE}', true)`;
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
export function withoutTenant<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const runner = tenantRunners.get(db);
  if (!runner) return Promise.reject(new Error('withoutTenant needs a database opened by openDatabase'));
  if (writing.open) return Promise.reject(nestedCall());
  return writing.run(() => runner('', fn, false)).then(committed(db, ''));
}
