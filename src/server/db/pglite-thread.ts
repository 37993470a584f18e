import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { OpenWhile } from './open-while';

/** How long a statement may wait for the embedded database (and a request for a PostgreSQL connection). */
export const DB_WAIT_MS = Number(process.env.DB_WAIT_MS) || 10_000;

/** A statement that waited too long: the request fails with 503 (code ETIMEDOUT) instead of hanging. */
export class DatabaseWaitError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(waitMs: number) {
    super(`The embedded database did not answer within ${waitMs} ms`);
  }
}

type RowMode = 'array' | 'object';
interface Results {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}
/** What drizzle's PGlite driver uses of a PGlite client (and of the transaction it is handed). */
export interface Queryable {
  query(text: string, params?: unknown[], options?: { rowMode?: RowMode; name?: string }): Promise<Results>;
  exec(text: string): Promise<Results[]>;
}
/** A message to the thread (see the worker). `tx`: the transaction it belongs to, 0 for none. */
interface Request {
  op: 'query' | 'exec' | 'scoped' | 'begin' | 'end' | 'close';
  text?: string;
  params?: unknown[];
  rowMode?: RowMode;
  settings?: string;
  name?: string;
  tx?: number;
}

/**
 * PGlite in a worker thread (decision 015), behind the part of PGlite's interface drizzle uses.
 *
 * PGlite is one session. Every message is sent at once and the thread runs them in order, so the database
 * never waits for this thread between two statements. A transaction holds the session from BEGIN to its end:
 * the thread sets other work aside until then. Request work (`scoped`, a `timed` transaction) not answered
 * within `waitMs` fails with DatabaseWaitError. Work sent from inside a transaction's own async context other
 * than through its connection would wait for the transaction, which waits for it: it throws instead (with the
 * nested-call check on, decision 052; off, it fails after `waitMs` when it is request work).
 */
export class PGliteThread implements Queryable {
  readonly ready: Promise<void>;
  #worker: Worker;
  #pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
  #nextId = 1;
  #nextTx = 1;
  #stopped?: Error;
  /** Open while a transaction runs, in its async context. */
  #inTransaction: OpenWhile;
  #onClose: () => void;
  #waitMs: number;
  #started = false;

  /** `dataDir` undefined: in memory. `onClose` runs when the thread is closed (releases the lock). */
  constructor(dataDir: string | undefined, onClose: () => void = () => {}, waitMs = DB_WAIT_MS) {
    this.#inTransaction = new OpenWhile();
    this.#onClose = onClose;
    this.#waitMs = waitMs;
    this.#worker = new Worker(new URL('./pglite-thread.worker.mjs', import.meta.url), { workerData: { dataDir } });
    // The thread keeps the process alive only while it has work: an idle database never holds up an exit.
    this.#worker.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      this.#worker.once('message', (message: { ready: boolean; error?: object }) => {
        if (message.ready) resolve();
        else reject(revive(message.error ?? {}));
        this.#worker.on('message', ([id, result, error]: [number, unknown, object?]) => this.#settle(id, result, error));
      });
      this.#worker.once('error', reject);
    });
    this.ready.then(() => (this.#started = true)).catch(() => {}); // the first query reports a failed start
    const stop = (err: Error) => {
      this.#stopped ??= err;
      for (const { reject } of this.#pending.values()) reject(this.#stopped);
      this.#pending.clear();
    };
    this.#worker.on('error', (err: unknown) =>
      stop(Object.assign(new Error(`The embedded database stopped: ${(err as Error)?.message ?? String(err)}`), { cause: err })),
    );
    this.#worker.on('exit', () => stop(new Error('The embedded database connection is closed')));
  }

  query(text: string, params?: unknown[], options?: { rowMode?: RowMode }): Promise<Results> {
    return this.#outside({ op: 'query', text, params, rowMode: options?.rowMode }, false) as Promise<Results>;
  }

  exec(text: string): Promise<Results[]> {
    return this.#outside({ op: 'exec', text }, false) as Promise<Results[]>;
  }

  /**
   * Each statement in a transaction of its own that first runs `settings` (trusted SQL: the tenant and the
   * role), in one call. A read of several statements sees each one's own instant, as reads do on PostgreSQL.
   * Request work: a statement not answered within `waitMs` fails (the server's own, `query`, may take longer).
   * A statement given a `name` stays parsed in the session under it (decision 019: one plan).
   */
  scoped(settings: string): Queryable {
    return {
      query: (text, params, options) =>
        this.#outside({ op: 'scoped', text, params, rowMode: options?.rowMode, settings, name: options?.name }, true) as Promise<Results>,
      exec: () => Promise.reject(new Error('A scoped read runs statements, not scripts')),
    };
  }

  /**
   * BEGIN … COMMIT with the session to itself; ROLLBACK when `fn` throws. `settings` (trusted SQL: the tenant
   * and the role, local to the transaction) go with the BEGIN, in one call. `timed` (request work): its turn
   * and each of its statements are waited for at most `waitMs`.
   */
  async transaction<T>(fn: (tx: Queryable) => Promise<T>, settings?: string, timed = false): Promise<T> {
    if (this.#inTransaction.open) throw nestedCall();
    const id = this.#nextTx++;
    const state = { open: true };
    // Its connection ends with it: kept past its end, it would run outside the session's turn.
    const inside = (request: Request) =>
      state.open ? this.#timed(this.#send({ ...request, tx: id }), timed) : Promise.reject(new Error('This transaction has ended'));
    const tx: Queryable = {
      query: (text, params, options) => inside({ op: 'query', text, params, rowMode: options?.rowMode }) as Promise<Results>,
      exec: (text) => inside({ op: 'exec', text }) as Promise<Results[]>,
    };
    try {
      await inside({ op: 'begin', settings });
      const result = await this.#inTransaction.run(() => fn(tx));
      await inside({ op: 'end', text: 'commit' });
      return result;
    } catch (err) {
      // Sent, not awaited: it follows the transaction's work in the thread, even when BEGIN is still waiting.
      this.#send({ op: 'end', text: 'rollback', tx: id }).catch(() => {});
      throw err;
    } finally {
      state.open = false;
    }
  }

  async close() {
    await this.#send({ op: 'close' }).catch(() => {});
    await this.#worker.terminate();
    this.#onClose();
  }

  /** Work outside a transaction: refused from inside one's async context (it would wait for it). */
  #outside(request: Request, timed: boolean): Promise<unknown> {
    if (this.#inTransaction.open) return Promise.reject(nestedCall());
    return this.#timed(this.#send(request), timed);
  }

  /** `work`, or when `timed` a DatabaseWaitError after `waitMs` (counted once the database has started). */
  #timed<T>(work: Promise<T>, timed: boolean): Promise<T> {
    if (!timed) return work;
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const start = () => {
        if (!settled) timer = setTimeout(() => reject(new DatabaseWaitError(this.#waitMs)), this.#waitMs);
      };
      if (this.#started) start();
      else this.ready.then(start, () => {});
      work.then(resolve, reject).finally(() => {
        settled = true;
        clearTimeout(timer);
      });
    });
  }

  async #send(request: Request): Promise<unknown> {
    await this.ready;
    if (this.#stopped) throw this.#stopped;
    const id = this.#nextId++;
    if (this.#pending.size === 0) this.#worker.ref();
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...request, id });
    });
  }

  #settle(id: number, result: unknown, error: object | undefined) {
    const waiting = this.#pending.get(id);
    if (!waiting) return;
    this.#pending.delete(id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (error) waiting.reject(revive(error));
    else waiting.resolve(result);
  }
}

/**
 * Starts the embedded database of `dataDir` ('memory://' or undefined: in memory) in its thread, after taking
 * its lock. Light on purpose: `npm start` calls it before loading the rest of the server, so that PostgreSQL
 * starts in WebAssembly on the other core meanwhile.
 */
export function startEmbedded(dataDir = 'memory://'): PGliteThread {
  if (dataDir.startsWith('memory://')) return new PGliteThread(undefined);
  const unlock = lockDataDir(dataDir);
  let locked = true;
  const releaseLock = () => {
    if (locked) unlock();
    locked = false;
  };
  const thread = new PGliteThread(join(dataDir, 'pglite'), releaseLock);
  // A database that cannot start frees its lock at once (the first query reports the error).
  thread.ready.catch(releaseLock);
  return thread;
}

/**
 * PGlite is one process's database: a second process opening the same files would corrupt them.
 * A lock file with the owner's pid refuses the second opener; a lock left by a dead process is taken over.
 */
function lockDataDir(dir: string) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'pglite.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch {
      const owner = Number(readFileSync(file, 'utf8'));
      if (owner && isAlive(owner)) {
        throw new Error(`The embedded database in ${dir} is already in use by process ${owner}. Stop it first, or set DATA_DIR to another folder.`);
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database in ${dir}`);
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM';
  }
}

const nestedCall = () => new Error("A second database call inside a transaction on the embedded database: use the transaction's tx");

/** A database error as thrown in the thread: its message, code, constraint and the rest of its fields. */
function revive(fields: object): Error {
  const { message, ...rest } = fields as { message?: string };
  return Object.assign(new Error(message), rest);
}
