// @ts-check
// The embedded database's own thread (decision 015). PGlite runs PostgreSQL compiled to WebAssembly; in the
// server's thread its start-up and every query stopped the event loop. Here it starts while the server's
// modules load, and runs queries while the server parses and answers other requests.
// Plain JavaScript, so that tsx, vitest and the server bundle all start it as it is.
import { parentPort, workerData } from 'node:worker_threads';
import v8 from 'node:v8';
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { serialize } from 'pg-protocol';

if (!parentPort) throw new Error('pglite-thread.worker.mjs runs as a worker thread');
const port = parentPort;

// PGlite's WebAssembly is optimised by V8 in the background once its functions run hot, by as many compiler
// threads as V8's pool has (four). During a start they took the CPU from this thread and from the server's
// (two cores): one compiler thread starts an existing database 250 ms sooner (bench/README.md). Only
// WebAssembly compilation is limited, and only PGlite runs WebAssembly here.
v8.setFlagsFromString('--wasm-num-compilation-tasks=1');

/** @type {PGlite} */
let db;
/** @param {string} value */
const asText = (value) => value;
/**
 * PGlite's parsers, except that dates, times and intervals stay as PostgreSQL writes them (as drizzle asks).
 * @type {Record<number, (value: string, typeId: number) => unknown>}
 */
let parsers = {};

const started = PGlite.create(workerData.dataDir, {
  extensions: { pg_trgm, btree_gin },
  // PGlite starts PostgreSQL with its server defaults (128 MB of shared buffers, 100 connections), and
  // setting up that shared memory in WebAssembly was a third of a start's CPU. One backend: 32 MB and a
  // handful of connection slots start faster and hold an embedded database's working set.
  // The planner settings of PostgreSQL's request connections (decision 016): no Memoize, no JIT.
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB', '-c', 'max_connections=5', '-c', 'enable_memoize=off', '-c', 'jit=off'],
}).then(
  (created) => {
    db = created;
    parsers = {
      ...db.parsers,
      [types.TIMESTAMP]: asText,
      [types.TIMESTAMPTZ]: asText,
      [types.INTERVAL]: asText,
      [types.DATE]: asText,
      1231: asText, // numeric[]
      1115: asText, // timestamp[]
      1185: asText, // timestamptz[]
      1187: asText, // interval[]
      1182: asText, // date[]
    };
    port.postMessage({ ready: true });
  },
  (err) => {
    port.postMessage({ ready: false, error: serialise(err) });
    process.exit(1);
  },
);

/**
 * A parameter as text, as node-postgres writes it (Buffers stay binary), so both databases receive the same
 * values: arrays as array literals, dates in ISO form (every timestamp column has a time zone), objects as JSON.
 * @param {unknown} value @returns {string | Buffer | null}
 */
const asParam = (value) => {
  if (value === null || value === undefined) return null;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (Array.isArray(value)) return arrayLiteral(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
};
/** @param {unknown[]} values @returns {string} */
const arrayLiteral = (values) =>
  `{${values.map((v) => (v == null ? 'NULL' : Array.isArray(v) ? arrayLiteral(v) : `"${String(asParam(v)).replace(/[\\"]/g, '\\$&')}"`)).join(',')}}`;

/** Names of the one-plan statements this session has parsed (decision 019): run again, they are only bound. */
const parsed = new Set();

/**
 * One statement as node-postgres sends it: parse, bind, describe, execute. PGlite's own `query` makes six
 * calls into PostgreSQL for a statement (it asks for the parameters' types first); this is one part of one.
 * A `name` keeps the parsed statement in the session, so that PostgreSQL may keep one generic plan for it.
 * @param {string} text @param {unknown[] | undefined} params @param {string} [name]
 */
const statement = (text, params = [], name = '') => [
  ...(name && parsed.has(name) ? [] : [serialize.parse({ name, text })]),
  serialize.bind({ statement: name, values: params.map(asParam) }),
  serialize.describe({ type: 'P' }),
  serialize.execute({}),
];

/**
 * Runs statements in one call into PostgreSQL, ended by Sync: outside a transaction they run as one
 * (PostgreSQL's implicit transaction until Sync), so settings made local by the first hold for the next.
 * Returns the last statement's result. A failed statement throws PGlite's DatabaseError.
 * @param {Buffer[][]} statements @param {'array' | 'object' | undefined} rowMode
 */
const run = async (statements, rowMode) => {
  const { messages } = await db.execProtocol(Buffer.concat([...statements.flat(), serialize.sync()]));
  /** @type {{ name: string, dataTypeID: number }[]} */
  let fields = [];
  /** @type {unknown[]} */
  let rows = [];
  let affectedRows = 0;
  let idle = true;
  for (const message of /** @type {any[]} */ (messages)) {
    switch (message.name) {
      case 'rowDescription':
        fields = message.fields.map((/** @type {{ name: string, dataTypeID: number }} */ f) => ({ name: f.name, dataTypeID: f.dataTypeID }));
        rows = [];
        affectedRows = 0;
        break;
      case 'dataRow': {
        const values = message.fields.map((/** @type {string | null} */ value, /** @type {number} */ i) =>
          types.parseType(value, fields[i].dataTypeID, parsers),
        );
        if (rowMode === 'array') rows.push(values);
        else rows.push(Object.fromEntries(fields.map((f, i) => [f.name, values[i]])));
        break;
      }
      case 'commandComplete': {
        const [command, ...counts] = message.text.split(' ');
        affectedRows = ['INSERT', 'UPDATE', 'DELETE', 'MERGE'].includes(command) ? Number(counts.at(-1)) : 0;
        break;
      }
      case 'readyForQuery':
        idle = message.status === 'I';
        break;
    }
  }
  // As PGlite's own query does after work outside a transaction (a no-op on its Node file system).
  if (idle) await db.syncToFs();
  return { rows, fields, affectedRows };
};

/**
 * @typedef {{ id: number, op: 'query' | 'exec' | 'scoped' | 'begin' | 'end' | 'close', text?: string,
 *   params?: unknown[], rowMode?: 'array' | 'object', settings?: string, name?: string, tx?: number }} Request
 */

/**
 * - query: one statement;
 * - scoped: `settings` (the tenant and the role, local) and one statement, in one call and one transaction,
 *   so that a read never leaves the database waiting for the server's thread; `name`: a one-plan statement;
 * - begin: BEGIN, and `settings` when given, in one call (transaction `tx`); end: its COMMIT or ROLLBACK (`text`);
 * - exec: a script (simple protocol);
 * - close.
 * @param {Request} request
 */
const handle = async ({ id, op, text = '', params, rowMode, settings = '', name = '' }) => {
  if (op === 'close') {
    await db.close();
    port.postMessage([id]);
    port.close();
    return;
  }
  /** @type {unknown} */
  let reply;
  try {
    if (op === 'exec') {
      const results = await db.exec(text);
      reply = [id, results.map(({ rows, fields, affectedRows }) => ({ rows, fields, affectedRows }))];
    } else if (op === 'begin') {
      reply = [id, await run(settings ? [statement('begin'), statement(settings)] : [statement('begin')], undefined)];
    } else if (op === 'scoped') {
      reply = [id, await run([statement(settings), statement(text, params, name)], rowMode)];
      if (name) parsed.add(name);
    } else {
      reply = [id, await run([statement(text, params)], rowMode)];
    }
  } catch (err) {
    reply = [id, undefined, serialise(err)];
    // A named statement that failed is parsed afresh next time ("cached plan must not change result type"
    // stays for as long as the statement does), also when its first run failed after its parse. Closing a
    // statement that does not exist is no error.
    if (name) {
      parsed.delete(name);
      await db.execProtocol(Buffer.concat([serialize.close({ type: 'S', name }), serialize.sync()])).catch(() => {});
    }
  }
  try {
    port.postMessage(reply);
  } catch (err) {
    // A value that cannot be copied to the server's thread fails its query, not the database.
    port.postMessage([id, undefined, serialise(err)]);
  }
};

// One at a time, in the order the server sent them, the first once PostgreSQL has started. From a
// transaction's BEGIN to its end, the work of others is set aside, then taken in the order it came.
// Listened to from the start, while PGlite starts: attached only once it had started, the first message
// reached this thread 200 to 300 ms late on every start, the thread blocked (strace: in a condition
// variable) until one of V8's compiler threads, optimising PGlite's WebAssembly, woke it.
/** @type {Promise<unknown>} */
let queue = started;
/** The transaction holding the session (0: none), and the work set aside until it ends. */
let holder = 0;
/** @type {Request[]} */
const setAside = [];
/** @param {Request} request */
const accept = (request) => {
  if (holder && request.tx !== holder) return void setAside.push(request);
  if (request.op === 'begin') holder = request.tx ?? 0;
  queue = queue.then(() => handle(request)).catch((err) => port.postMessage([request.id, undefined, serialise(err)]));
  if (request.op === 'end') {
    holder = 0;
    for (const next of setAside.splice(0)) accept(next);
  }
};
port.on('message', accept);

/**
 * A DatabaseError's fields (code, constraint, detail…) cross the thread; the query, its parameters and its
 * options (functions) stay here.
 * @param {unknown} err
 */
function serialise(err) {
  const e = /** @type {Error & Record<string, unknown>} */ (err instanceof Error ? err : new Error(String(err)));
  /** @type {Record<string, string | number>} */
  const fields = { message: e.message, name: e.name };
  for (const [key, value] of Object.entries(e)) {
    if ((typeof value === 'string' || typeof value === 'number') && key !== 'query') fields[key] = value;
  }
  return fields;
}
