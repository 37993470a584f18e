/**
 * UI tests on the real server (decision 085): the app of the API tests (`createTestApp`, PGlite or DATABASE_URL's
 * PostgreSQL) in the test's own process, and a `fetch` that hands the component's every call to it
 * (`app.inject`) on the organisation's host with a signed-in user's token. The component's queries and mutations
 * run the real routes, services and database; the test reads back what they did through the API or the database.
 *
 *   const server = realServer();                          // one app per file: beforeAll / afterAll
 *   it('…', async () => {
 *     const { org, user } = await server.signIn('manager'); // a new organisation, a manager signed in
 *     await org.admin.post('/api/…', { … });              // what the screen should find, through the API
 *     renderWithProviders(<Screen />);
 *   });
 *
 * Test code only: browser source never imports it (the lint zone lets only this file and *.test.tsx reach the server).
 */
import { TextDecoder as NodeTextDecoder, TextEncoder as NodeTextEncoder } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { configure } from '@testing-library/react';
import { createTestApp, createOrg, type Client, type TestApp, type TestOrg } from '../../server/test/harness';
import { multipart, type UploadFile } from '../../server/test/fixtures';
import { withTenant, type Tx } from '../../server/db/client';
import type { Config } from '../../server/env';
import { TOKEN_KEY } from '../lib/session';

export type Role = 'admin' | 'manager' | 'worker';

// A real answer comes from the database, not at once as a stub's did: `findBy…`/`waitFor` wait up to 30 s (not 1 s).
// On a loaded machine (several test runs on two cores) a page's first answers (the app data, then the list) took
// more than 15 s; a wait that finds its element returns at once, so the ceiling costs a green run nothing.
configure({ asyncUtilTimeout: 30_000 });

// The jsdom environment's Uint8Array, ArrayBuffer and TextEncoder are its own realm's, which the server's libraries
// refuse (jose: "Key … must be … Uint8Array. Received an instance of Uint8Array"): Node's, as the server runs with
// (standard ones for the page too).
const nodeBytes = Buffer.from('');
Object.assign(globalThis, {
  Uint8Array: Object.getPrototypeOf(Buffer.prototype).constructor,
  ArrayBuffer: nodeBytes.buffer.constructor,
  TextEncoder: NodeTextEncoder,
  TextDecoder: NodeTextDecoder,
});

/** One call the component sent, with the server's answer. */
export interface RealCall {
  method: string;
  url: URL;
  /** The JSON body sent, parsed (undefined without one; the raw text when not JSON). */
  body: unknown;
  status: number;
}

export interface RealSession {
  org: TestOrg;
  /** The signed-in user's API client (the same session as the component's calls). */
  user: Client & { userId: number };
  /** The component's calls so far, in order. */
  calls: RealCall[];
  /**
   * Until the returned function is called, calls whose "METHOD /path" is `route` (or starts with it when it ends
   * with "/": "GET /api/my-work/list-photos/") get `failure` instead of
   * reaching the server: an answer (a 500) or 'offline' (fetch rejects, as without a network). Only for the
   * browser's states the real server cannot produce on demand; every other call still reaches it.
   */
  fail(route: string, failure: Failure): () => void;
}

export type Failure = { status: number; body?: unknown } | 'offline';
type Failures = Map<string, Failure>;

/** The environment's own fetch (Node's), for what is not the component's call to the app. */
const ORIGINAL_FETCH = globalThis.fetch;

type Answer = { status: number; headers: Record<string, unknown>; payload: Buffer };

/** What the component sends, read into what `app.inject` takes: a string, bytes, or a multipart form encoded. */
async function payloadOf(body: BodyInit | null | undefined): Promise<{ payload?: string | Buffer; headers?: Record<string, string> }> {
  if (body === undefined || body === null) return {};
  if (typeof body === 'string') return { payload: body };
  if (body instanceof URLSearchParams) return { payload: body.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  if (body instanceof FormData) {
    const files: UploadFile[] = [];
    const fields: Record<string, string> = {};
    for (const [name, value] of body.entries()) {
      if (typeof value === 'string') fields[name] = value;
      else files.push({ field: name, name: (value as File).name || 'upload', type: value.type || 'application/octet-stream', bytes: await bytesOf(value) });
    }
    return multipart(files, fields);
  }
  if (body instanceof Blob) return { payload: await bytesOf(body) };
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return { payload: Buffer.from(body as ArrayBuffer) };
  throw new Error(`real-api: a body of this kind is not supported (${Object.prototype.toString.call(body)})`);
}

/** A Blob's bytes (jsdom's Blob has no arrayBuffer() in every version: FileReader, which it has). */
function bytesOf(blob: Blob): Promise<Buffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer().then((b) => Buffer.from(b));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(Buffer.from(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

/** The server's answer as the browser's fetch gives it. */
function responseOf(answer: Answer): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, String(v));
  }
  const empty = answer.status === 204 || answer.status === 304;
  return new Response(empty ? null : new Uint8Array(answer.payload), { status: answer.status, headers });
}

function parsed(payload: string | Buffer | undefined) {
  if (typeof payload !== 'string') return undefined;
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return payload;
  }
}

/** A fetch that sends each call to `t`'s app on `host`, with `token` unless the call carries its own. */
function fetchToApp(t: TestApp, host: string, token: string | undefined, calls: RealCall[], failures: Failures = new Map()): typeof fetch {
  return async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? String(input) : input.url, `http://${host}`);
    // Another host (the app's own outgoing calls share this process's fetch): the network, as before. The page's own
    // origin (jsdom's location) is the organisation's, as in the browser.
    if (url.host !== host && url.host !== window.location.host) return ORIGINAL_FETCH(input, init);
    const signal = init.signal;
    if (signal?.aborted) throw signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
    const method = (init.method ?? 'GET').toUpperCase();
    const call = `${method} ${url.pathname}`;
    const failure = [...failures].find(([route]) => call === route || (route.endsWith('/') && call.startsWith(route)))?.[1];
    if (failure === 'offline') throw new TypeError('Failed to fetch');
    if (failure) {
      calls.push({ method, url, body: parsed(typeof init.body === 'string' ? init.body : undefined), status: failure.status });
      return new Response(JSON.stringify(failure.body ?? { error: 'Internal Server Error' }), {
        status: failure.status,
        headers: { 'content-type': 'application/json' },
      });
    }
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const body = await payloadOf(init.body);
    if (token && !headers.authorization) headers.authorization = `Bearer ${token}`;
    const sent = t.app
      .inject({ method: method as 'GET', url: url.pathname + url.search, headers: { ...headers, ...body.headers, host }, payload: body.payload })
      .then((res) => {
        calls.push({ method, url, body: parsed(body.payload), status: res.statusCode });
        return responseOf({ status: res.statusCode, headers: res.headers, payload: res.rawPayload });
      });
    if (!signal) return sent;
    // The browser gives up on an aborted call at once (the server may still finish it, as a real one would).
    return new Promise<Response>((resolve, reject) => {
      const abort = () => reject(signal.reason ?? new DOMException('The operation was aborted.', 'AbortError'));
      signal.addEventListener('abort', abort, { once: true });
      sent.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
    });
  };
}

/**
 * The real app for this test file: created before its tests and closed after them. `signIn` makes a new
 * organisation (or uses `org`), signs in a user of `role` in it and points `fetch` at the app as that user.
 */
export function realServer(overrides: Partial<Config> = {}) {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await createTestApp(overrides);
    // The app's first start (the worker's PGlite copy) took over a minute on a loaded machine.
  }, 180_000);
  afterAll(async () => {
    globalThis.fetch = ORIGINAL_FETCH;
    await t?.close();
  });
  const app = () => {
    if (!t) throw new Error('real-api: the app starts in beforeAll; call the server from a test or a hook');
    return t;
  };

  return {
    /** The test app (its Fastify instance, database and config). */
    get test() {
      return app();
    },
    /** A new organisation of its own, through the real signup (its admin signed in as `org.admin`). */
    newOrg: (name?: string) => createOrg(app(), name),
    /**
     * Signs in a user of `role` (the organisation's admin for 'admin'; a new user otherwise) of a new organisation or
     * of `opts.org`, and sends the component's calls to the app as that user from now on.
     */
    async signIn(role: Role = 'admin', opts: { org?: TestOrg; fields?: { firstName?: string; lastName?: string } } = {}): Promise<RealSession> {
      const org = opts.org ?? (await createOrg(app()));
      const user = role === 'admin' && !opts.fields ? Object.assign(org.admin, { userId: subjectOf(org.admin.token!) }) : await org.as(role, opts.fields);
      const calls: RealCall[] = [];
      const failures: Failures = new Map();
      globalThis.fetch = fetchToApp(app(), org.host, user.token, calls, failures);
      // The API client sends the token of this tab's session, as after a sign-in (setup.ts clears it after each test).
      window.sessionStorage.setItem(TOKEN_KEY, user.token!);
      const fail = (route: string, failure: Failure) => {
        failures.set(route, failure);
        return () => void failures.delete(route);
      };
      return { org, user, calls, fail };
    },
    /** Points `fetch` at the app on `org`'s host with no session (the public pages). */
    anonymous(org: TestOrg): RealCall[] {
      const calls: RealCall[] = [];
      globalThis.fetch = fetchToApp(app(), org.host, undefined, calls);
      return calls;
    },
    /** Runs `fn` in `org`'s tenant scope on the app's database: to read what a screen wrote, or set up what no route makes. */
    inTenant: <T>(org: TestOrg, fn: (tx: Tx) => Promise<T>) => withTenant(app().database.db, org.orgId, fn),
  };
}

/** The user id a token was signed for (its subject). */
function subjectOf(token: string): number {
  return Number(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sub);
}
