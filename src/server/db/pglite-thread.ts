import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { onePlanNameOf } from './one-plan-names';

type RowMode = 'array' | 'object';
type Op = 'query' | 'exec' | 'scoped' | 'begin' | 'close';
interface Results {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}
/** What drizzle's PGlite driver uses of a PGlite client (and of the transaction it is handed). */
export interface Queryable {
  query(text: string, params?: unknown[], options?: { rowMode?: RowMode }): Promise<Results>;
  exec(text: string): Promise<Results[]>;
}

/**
 * PGlite in a worker thread (decision 015), behind the part of PGlite's interface drizzle uses.
 *
 * PGlite is one session. Work that the thread runs whole (a statement, a script, a scoped statement) is
 * sent at once: several are queued there, so the database never waits for this thread between them. A
 * transaction spans several messages from here, so it waits until that work is done and holds the session
 * from BEGIN to COMMIT; work that arrives meanwhile waits for it.
 */
export class PGliteThread implements Queryable {
  readonly ready: Promise<void>;
  #worker: Worker;
  #pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
  #nextId = 1;
  #stopped?: Error;
  /** Work sent whole and not answered yet; a transaction starts when it is 0. */
  #inFlight = 0;
  #whenIdle: (() => void)[] = [];
  /** The transactions in line, one after another; `#gate` is set while one waits or runs. */
  #turn: Promise<unknown> = Promise.resolve();
  #gate?: Promise<void>;

  #onClose: () => void;

  /** `dataDir` undefined: in memory. `onClose` runs when the thread is closed (releases the lock). */
  constructor(dataDir: string | undefined, onClose: () => void = () => {}) {
    this.#onClose = onClose;
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
    this.ready.catch(() => {}); // the first query reports it
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
    return this.#whole(() => this.#send('query', text, params, options?.rowMode) as Promise<Results>);
  }

  exec(text: string): Promise<Results[]> {
    return this.#whole(() => this.#send('exec', text) as Promise<Results[]>);
  }

  /**
   * Each statement in a transaction of its own that first runs `settings` (trusted SQL: the tenant and the
   * role), or what `settings()` gives when the statement is sent. A read of several statements sees each one's own instant, as reads do on PostgreSQL (decision 014).
   */
  scoped(settings: string | (() => string)): Queryable {
    const settingsOf = typeof settings === 'string' ? () => settings : settings;
    return {
      // A read that may keep one plan (decision 019) goes by its name, so that the session keeps its plan.
      query: (text, params, options) => {
        // Taken now, in the caller's async context (the request's organisation: decision 020).
        const now = settingsOf();
        return this.#whole(() => this.#send('scoped', text, params, options?.rowMode, now, onePlanNameOf(text)) as Promise<Results>);
      },
      exec: () => Promise.reject(new Error('A scoped read runs statements, not scripts')),
    };
  }

  /**
   * BEGIN … COMMIT with the session to itself; ROLLBACK when `fn` throws. `settings` (trusted SQL: the tenant
   * and the role, local to the transaction) go with the BEGIN, in one call.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, settings?: string): Promise<T> {
    return this.#alone(async () => {
      const tx: Queryable = {
        query: (text, params, options) => this.#send('query', text, params, options?.rowMode) as Promise<Results>,
        exec: (text) => this.#send('exec', text) as Promise<Results[]>,
      };
      try {
        await this.#send('begin', undefined, undefined, undefined, settings);
        const result = await fn(tx);
        await this.#send('query', 'commit');
        return result;
      } catch (err) {
        await this.#send('query', 'rollback').catch(() => {});
        throw err;
      }
    });
  }

  async close() {
    await this.#alone(() => this.#send('close')).catch(() => {});
    await this.#worker.terminate();
    this.#onClose();
  }

  /** Work the thread runs whole: sent now, unless a transaction waits or runs. */
  #whole<T>(work: () => Promise<T>): Promise<T> {
    if (this.#gate) return this.#gate.then(() => this.#whole(work));
    this.#inFlight++;
    const done = work();
    const leave = () => {
      if (--this.#inFlight === 0) for (const wake of this.#whenIdle.splice(0)) wake();
    };
    done.then(leave, leave);
    return done;
  }

  /** Runs `work` with the session to itself: after the transactions before it and the work in flight. */
  #alone<T>(work: () => Promise<T>): Promise<T> {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    this.#gate = gate;
    const idle = () => (this.#inFlight === 0 ? undefined : new Promise<void>((wake) => this.#whenIdle.push(wake)));
    const run = this.#turn
      .then(idle)
      .then(work)
      .finally(() => {
        if (this.#gate === gate) this.#gate = undefined;
        open();
      });
    this.#turn = run.catch(() => {});
    return run;
  }

  async #send(op: Op, text?: string, params?: unknown[], rowMode?: RowMode, settings?: string, name?: string): Promise<unknown> {
    await this.ready;
    if (this.#stopped) throw this.#stopped;
    const id = this.#nextId++;
    if (this.#pending.size === 0) this.#worker.ref();
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage([id, op, text, params, rowMode, settings, name]);
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

/** A database error as thrown in the thread: its message, code, constraint and the rest of its fields. */
function revive(fields: object): Error {
  const { message, ...rest } = fields as { message?: string };
  return Object.assign(new Error(message), rest);
}
