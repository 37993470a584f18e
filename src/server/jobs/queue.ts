import type PgBoss from 'pg-boss';
import { sql, type SQL } from 'drizzle-orm';
import type { Database, Tx } from '../db/client';
import { rowsOf } from '../db/rows';
import { now as clockNow } from '../clock';

/**
 * The one queue for background work (decision 027): pg-boss, in the application's own database. On PostgreSQL
 * it keeps a small pool of its own (several instances share the jobs: each job is fetched by one of them with
 * SKIP LOCKED); on PGlite, which is one session in a worker thread, it runs through the application's connection.
 */
export interface JobQueue {
  /** pg-boss itself (its `work`, `send`, `schedule`…), once `start` has resolved. */
  readonly boss: PgBoss;
  /** Creates pg-boss's schema (once, under its own advisory lock) and lets the request role send jobs. */
  start(): Promise<void>;
  /**
   * Creates a queue if missing. Use this, not `boss.createQueue`: on PostgreSQL two instances creating queues
   * (a partition of pg-boss's job table each) or granting at once deadlock; this runs one instance at a time.
   */
  createQueue(name: string, options?: Omit<PgBoss.Queue, 'name'>): Promise<void>;
  /** Stops fetching, lets running jobs finish (a few seconds at most), closes pg-boss's pool. */
  stop(): Promise<void>;
  /**
   * pg-boss's `work` with a handler whose failure is logged as one line (`job failed`: the queue, the jobs' ids and
   * organisations, the error's message; never the data) and counted (`onJobFailed`), then thrown on to pg-boss,
   * which retries or fails the job. Every worker registers through this.
   */
  work<T extends object>(name: string, options: PgBoss.WorkOptions, handler: PgBoss.WorkHandler<T>): Promise<string>;
  /** Sends a job in `tx`: it exists, and is fetched, only if `tx` commits (the transactional outbox). */
  sendInTx(tx: Tx, name: string, data: object, options?: PgBoss.SendOptions): Promise<string | null>;
}

export interface JobQueueOptions {
  /** PostgreSQL: pg-boss connects here with a pool of `max` connections. Unset on PGlite. */
  databaseUrl?: string;
  max?: number;
  /** How often an idle worker looks for jobs (pg-boss's minimum is 0.5 s). */
  pollingIntervalSeconds?: number;
  /** pg-boss's schema; tests of the queue itself use their own. */
  schema?: string;
  /** Where pg-boss's errors go (a lost connection, a failing job); without a listener they would crash the process. */
  log?: { warn(obj: object, msg: string): void };
  /** Called once per failed run of a handler registered with `work` (the metrics, decision 067). */
  onJobFailed?: (queue: string) => void;
}

/**
 * pg-boss's statement as drizzle SQL: each `$n` becomes a drizzle parameter, so it runs on the connection of
 * the transaction it is given. A placeholder used twice becomes two parameters, each typed by where it
 * stands: right for the values sent here (jobs without `startAfter` or singleton options).
 */
export function sqlOf(text: string, values: readonly unknown[] = []): SQL {
  const parts = text.split(/\$(\d+)/);
  return sql.join(parts.map((part, i) => (i % 2 ? sql.param(values[Number(part) - 1] ?? null) : sql.raw(part))));
}

/** pg-boss's executor over a drizzle transaction. */
export function txExecutor(tx: Tx): PgBoss.Db {
  return {
    async executeSql(text, values) {
      return { rows: rowsOf(await tx.execute(sqlOf(text, values))) };
    },
  };
}

/**
 * pg-boss's executor on PGlite: the embedded database's own client (drizzle's `$client`). A statement with
 * values is one extended-protocol query; pg-boss's scripts without values (its schema, its maintenance)
 * hold several statements and run as one script.
 */
function pgliteExecutor(database: Database): PgBoss.Db {
  type Results = { rows: unknown[]; affectedRows?: number };
  const client = (database.db as unknown as { $client: { query(text: string, params?: unknown[]): Promise<Results>; exec(text: string): Promise<Results[]> } })
    .$client;
  return {
    async executeSql(text, values) {
      if (values?.length) {
        const result = await client.query(text, values as unknown[]);
        return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
      }
      const results = await client.exec(text);
      const last = results.at(-1);
      return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? last?.rows.length ?? 0 };
    },
  };
}

export function createJobQueue(database: Database, options: JobQueueOptions = {}): JobQueue {
  const schema = options.schema ?? 'pgboss';
  const connection: PgBoss.DatabaseOptions =
    database.kind === 'postgres'
      ? { connectionString: options.databaseUrl, max: options.max ?? 3, application_name: 'cmms-jobs' }
      : { db: pgliteExecutor(database) };
  if (database.kind === 'postgres' && !options.databaseUrl) throw new Error('The job queue on PostgreSQL needs its URL');
  let boss: PgBoss | undefined;
  let started: Promise<void> | undefined;
  /**
   * Runs `fn` while holding the queue's advisory lock (PostgreSQL): pg-boss's own changes to its schema (its
   * migrations, a queue's partition) and our grants on it, one instance at a time. The lock is held by a
   * transaction of the app's owner pool while pg-boss works on its own connections. PGlite has one process.
   */
  const serially = async (fn: (tx?: Tx) => Promise<void>) => {
    if (database.kind !== 'postgres') return fn();
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(727275)`);
      await fn(tx as unknown as Tx);
    });
  };
  const running = () => {
    if (!boss) throw new Error('The job queue is not started');
    return boss;
  };
  return {
    get boss() {
      return running();
    },
    start() {
      started ??= (async () => {
        // Loaded here, not with the app's modules: cold start (decision 013) parses only what requests need.
        const { default: PgBossClass } = await import('pg-boss');
        boss = new PgBossClass({
          ...connection,
          schema,
          // Mail and clean-up are small: fetched every few seconds, finished jobs kept a week.
          pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
          deleteAfterDays: 7,
        } as PgBoss.ConstructorOptions);
        boss.on('error', (err) => (options.log ?? console).warn({ err: err.message }, 'job queue error'));
        const created = boss;
        await serially(async (tx) => {
          await created.start();
          // Requests send jobs in their own transaction, as the runtime role (RLS, decision 001): it may read
          // the queue's settings and add jobs, nothing more (RETURNING needs the id column).
          const grant = (text: string) => (tx ? tx.execute(sql.raw(text)) : database.db.execute(sql.raw(text)));
          await grant(`grant usage on schema ${schema} to ${database.role}`);
          await grant(`grant select on ${schema}.queue to ${database.role}`);
          await grant(`grant insert, select (id) on ${schema}.job to ${database.role}`);
        });
      })();
      return started;
    },
    createQueue(name, queueOptions = {}) {
      const boss = running();
      return serially(async () => {
        if (!(await boss.getQueue(name))) await boss.createQueue(name, { ...queueOptions, name });
      });
    },
    work<T extends object>(name: string, workOptions: PgBoss.WorkOptions, handler: PgBoss.WorkHandler<T>) {
      return running().work<T>(name, workOptions, async (jobs) => {
        try {
          return await handler(jobs);
        } catch (err) {
          const orgIds = [...new Set(jobs.map((job) => (job.data as { orgId?: unknown }).orgId).filter((id) => typeof id === 'number'))];
          (options.log ?? console).warn(
            { queue: name, jobIds: jobs.map((job) => job.id), ...(orgIds.length ? { orgIds } : {}), err: (err as Error)?.message ?? String(err) },
            'job failed',
          );
          options.onJobFailed?.(name);
          throw err;
        }
      });
    },
    async stop() {
      if (!started) return;
      await started.catch(() => {});
      await boss?.stop({ graceful: true, wait: true, timeout: 5000 });
    },
    sendInTx(tx, name, data, sendOptions = {}) {
      // Not started here: on PGlite, starting inside a transaction would wait for the session that transaction holds.
      return running().send(name, data, { ...sendOptions, db: txExecutor(tx) });
    },
  };
}

/**
 * A scheduled job: its queue (created if missing, with `options`), its schedule (`cron`, UTC) and its worker, which
 * runs `run` with the data of the job it fetched.
 */
export async function scheduleJob<T extends object = object>(
  queue: JobQueue,
  name: string,
  cron: string,
  options: Omit<PgBoss.Queue, 'name'>,
  run: (data: Partial<T> | undefined) => Promise<void>,
): Promise<void> {
  await queue.createQueue(name, options);
  await queue.boss.schedule(name, cron, {}, { tz: 'UTC' });
  await queue.work<T>(name, {}, async ([job]) => {
    await run(job?.data);
  });
}

/**
 * The time a scheduled run works for: now, or outside production the time a test's job names (`at`). On PostgreSQL
 * every instance on the database fetches these jobs, and a test's clock offset is its own process's only.
 */
export function runTime(at: string | undefined): Date {
  if (!at || process.env.NODE_ENV === 'production') return clockNow();
  const time = new Date(at);
  return Number.isNaN(time.getTime()) ? clockNow() : time;
}
