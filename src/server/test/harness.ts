import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { openDatabase, withTenant, type Database, type DbSettings } from '../db/client';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../env';
import type { Mailer } from '../mailer';
import type { JobsOptions } from '../jobs';
import { users } from '../db/schema';
import { hashPassword } from '../passwords';
import { and, eq, sql } from 'drizzle-orm';
import { multipart, type UploadFile } from './fixtures';
import { migratedDataDir, runDataDir, runScratchRoot, scratchDataDir } from './pglite-template';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

/**
 * A real app on a real database: PostgreSQL when DATABASE_URL is set (migrated once by the global setup), otherwise
 * the PGlite database of this worker process, copied once from the run's migrated template and shared by the apps
 * of every file the worker runs, as the PostgreSQL pass shares its one database (every test makes its own
 * organisations). `ownDatabase`: a database of the app's own (a copy of the template on PGlite), closed with it,
 * for a test that closes or breaks the database (decision 028, addendum).
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  extra: {
    mailer?: Mailer;
    logger?: object;
    ownDatabase?: boolean;
    databaseUrl?: string;
    directUrl?: string;
    settings?: Partial<DbSettings>;
    jobOptions?: JobsOptions;
    /**
     * On the shared PostgreSQL, a pg-boss schema of the app's own: no other file's app runs its jobs (another
     * file's app may have moved its clock: a job that reads the time must run on this app's).
     */
    ownJobs?: boolean;
  } = {},
): Promise<TestApp> {
  const shared = !process.env.DATABASE_URL && !extra.ownDatabase && !extra.databaseUrl;
  // The app's DATA_DIR (uploads); with a database of its own, the database too, where the server keeps it.
  const { dir: dataDir, remove } = shared ? scratchDataDir() : runDataDir();
  const base = loadConfig({ ...process.env, DATA_DIR: dataDir, JWT_SECRET: 'test-secret-' + randomBytes(8).toString('hex'), LOG_LEVEL: 'silent' });
  const config = {
    ...base,
    // Every test signs in from 127.0.0.1 and all files share one database: the per-IP limit would trip across
    // the run. Tests of the limits pass their own.
    loginLimits: { ...base.loginLimits, perIp: 1_000_000 },
    // The same for the other throttled routes (createOrg signs up from 127.0.0.1).
    routeLimits: Object.fromEntries(Object.entries(base.routeLimits).map(([name, limit]) => [name, { ...limit, max: 1_000_000 }])) as Config['routeLimits'],
    // Webhook receivers of tests listen on 127.0.0.1, and any app on the shared database may run a delivery's job:
    // every test app reaches private addresses and retries after a second (decision 043).
    webhooks: { ...base.webhooks, allowPrivate: true, retryBaseSeconds: 1 },
    // The test OpenID provider listens on 127.0.0.1 (decision 083: allowed explicitly, refused by default).
    ssoAllowPrivate: true,
    ...overrides,
  };
  const database = shared
    ? await workerDatabase()
    : await openDatabase({ databaseUrl: extra.databaseUrl ?? process.env.DATABASE_URL, directUrl: extra.directUrl, dataDir, settings: extra.settings });
  // On the shared PostgreSQL an app with an SMTP server of its own gets a pg-boss schema of its own, as
  // jobs/mail.test.ts does: another file's app (another SMTP server, or none) never fetches its mail jobs.
  const jobSchema = process.env.DATABASE_URL && (overrides.smtpUrl || extra.ownJobs) ? `pgboss_${randomBytes(4).toString('hex')}` : undefined;
  // Every answer of a route that declares its response is checked against the schema whole (issue 28).
  // TEST_LOG=warn prints what the server logs at that level (a 5xx's cause) to see why a run failed.
  // `extra.logger`: a test that reads the log (e.g. that a secret never reaches it) passes its own.
  const logger = extra.logger ?? (process.env.TEST_LOG ? { level: process.env.TEST_LOG } : false);
  const app = await buildApp({
    database,
    config,
    logger,
    mailer: extra.mailer,
    checkResponses: true,
    jobOptions: jobSchema ? { ...extra.jobOptions, schema: jobSchema } : extra.jobOptions,
  });
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      if (jobSchema) await database.db.execute(sql.raw(`drop schema if exists ${jobSchema} cascade`));
      if (!shared) await database.close();
      remove();
    },
  };
}

/**
 * The test file's app: made in its beforeAll (createTestApp's arguments) and closed in its afterAll, so a file
 * writes `const t = useTestApp();` instead of the hooks. Read it inside the tests (before, it is not made yet).
 */
export function useTestApp(...args: Parameters<typeof createTestApp>): TestApp {
  return useTestAppWith(
    async () => ({ close: async () => {} }),
    () => args,
  )[0];
}

/**
 * useTestApp with a service of the file's own (a real SMTP server, a bucket): started first in the beforeAll, its
 * `args` are createTestApp's; closed after the app in the afterAll. The second item reads the service inside the tests.
 */
export function useTestAppWith<S extends { close(): Promise<void> }>(
  start: () => Promise<S>,
  args: (service: S) => Parameters<typeof createTestApp>,
): [TestApp, () => S] {
  let made: TestApp | undefined;
  let service: S | undefined;
  beforeAll(async () => {
    service = await start();
    made = await createTestApp(...args(service));
  });
  afterAll(async () => {
    await made?.close();
    await service?.close();
  });
  const current = () => {
    if (!made) throw new Error('useTestApp: the app is made in beforeAll; read it inside a test or a hook');
    return made;
  };
  const app = madeLater<TestApp>(['app', 'database', 'config', 'close'], current);
  return [app, () => (current(), service!)];
}

/**
 * The file's organisations, one per name, made in a beforeAll after the app's: `const [a, b] = useOrgs(t, 'Alpha', 'Beta');`
 * instead of `let a` and the hook. Read them inside the tests, as the app.
 */
export function useOrgs(t: TestApp, ...names: string[]): TestOrg[] {
  const made: TestOrg[] = [];
  beforeAll(async () => {
    for (const name of names) made.push(await createOrg(t, name));
  });
  return names.map((name, i) =>
    madeLater<TestOrg>(['orgId', 'subdomain', 'host', 'email', 'password', 'admin', 'anonymous', 'as'], () => {
      if (!made[i]) throw new Error(`useOrgs: ${name} is made in beforeAll; read it inside a test or a hook`);
      return made[i];
    }),
  );
}

/** What a hook makes before the tests, to read inside them: each of `keys` reads `current()`'s when it is read. */
function madeLater<T extends object>(keys: (keyof T)[], current: () => T): T {
  const later = {} as T;
  for (const key of keys) Object.defineProperty(later, key, { get: () => current()[key], enumerable: true });
  return later;
}

let workerPGlite: Promise<Database> | undefined;

/**
 * This worker process's PGlite database (a copy of the run's template, in the run's scratch folder, which the
 * global setup's teardown deletes). Opened on first use and never closed: it lives as long as the worker, whose
 * exit it does not hold up (its thread is unreferenced). Opening one costs about a second of CPU, and closing it
 * as much again (PostgreSQL's shutdown checkpoint): once per worker instead of once per file.
 */
function workerDatabase(): Promise<Database> {
  workerPGlite ??= (async () => {
    const database = await openDatabase({ dataDir: migratedDataDir('cmms-worker-', runScratchRoot()).dir });
    // Failing here rather than in the first test's first request.
    await database.db.execute(sql`select 1`);
    return database;
  })();
  return workerPGlite;
}

export interface Res<T = any> {
  status: number;
  body: T;
  headers: Record<string, unknown>;
}

/** A small client bound to one organisation's host and (optionally) a token. */
export function client(app: FastifyInstance, host: string, token?: string) {
  const call = async (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}): Promise<Res> => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: { host, ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    let body: unknown = res.body;
    try {
      body = res.json();
    } catch {
      /* not JSON */
    }
    return { status: res.statusCode, body, headers: res.headers };
  };
  return {
    host,
    token,
    get: (url: string, headers?: Record<string, string>) => call('GET', url, undefined, headers),
    post: (url: string, payload?: unknown, headers?: Record<string, string>) => call('POST', url, payload ?? {}, headers),
    put: (url: string, payload?: unknown, headers?: Record<string, string>) => call('PUT', url, payload ?? {}, headers),
    del: (url: string, headers?: Record<string, string>) => call('DELETE', url, undefined, headers),
    /** POSTs files (and text fields) as multipart/form-data, the way the SPA's forms do. */
    upload: (url: string, files: UploadFile[], fields?: Record<string, string>) => {
      const body = multipart(files, fields);
      return call('POST', url, body.payload, body.headers);
    },
  };
}
export type Client = ReturnType<typeof client>;

/** A call of one record by id: `['get', path]`, `['put', path, body]`… */
export type CallById = ['get' | 'del', string] | ['post' | 'put', string, unknown];

const send = (c: Client, [method, url, body]: CallById) => (method === 'get' || method === 'del' ? c[method](url) : c[method](url, body));

/**
 * "Another organisation gets 404 and changes nothing" (every feature's API tests): each of `calls` by `other`
 * answers 404, and the owner reads `path` as before them. Returns what the owner read, for later checks.
 */
export async function expectWalledOff(owner: Client, path: string, other: Client, calls: CallById[]) {
  const before = (await owner.get(path)).body;
  for (const call of calls) expect((await send(other, call)).status, `${call[0]} ${call[1]}`).toBe(404);
  expect((await owner.get(path)).body).toEqual(before);
  return before;
}

/** A delete through `path` answers 200 with `message`, and then `gone` (the record's read, or the delete again) 404. Returns the answer's body. */
export async function expectDeleted(c: Client, path: string, message: string, gone: CallById) {
  const res = await c.del(path);
  expect(res.status).toBe(200);
  expect(res.body.message).toBe(message);
  expect((await send(c, gone)).status).toBe(404);
  return res.body;
}

export interface TestOrg {
  orgId: number;
  subdomain: string;
  host: string;
  email: string;
  password: string;
  /** The admin's client. */
  admin: Client;
  /** Signs in as another user of this organisation with the given role, creating them (`hourlyRate` in minor units). */
  as(role: 'admin' | 'manager' | 'worker', fields?: { firstName?: string; lastName?: string; hourlyRate?: number }): Promise<Client & { userId: number }>;
  /** No token, on this organisation's host. */
  anonymous: Client;
}

const PASSWORD = 'Passw0rd!long';
let hashed: Promise<string> | undefined;

/** Signs up a new organisation through the API and signs its admin in. Each test makes its own. */
export async function createOrg(t: TestApp, name = 'Org'): Promise<TestOrg> {
  const subdomain = `t${randomBytes(5).toString('hex')}`;
  const host = `${subdomain}.${t.config.baseDomain}`;
  const email = `admin@${subdomain}.example.com`;
  const anonymous = client(t.app, host);
  const signup = await client(t.app, t.config.baseDomain).post('/api/signup', {
    organization: `${name} ${subdomain}`,
    email,
    password: PASSWORD,
    subdomainName: subdomain,
    numberOfWorkers: 5,
    consent: true,
  });
  if (signup.status !== 201) throw new Error(`signup failed: ${JSON.stringify(signup.body)}`);
  const login = await anonymous.post('/api/login', { email, password: PASSWORD });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  const orgId = Number(JSON.parse(Buffer.from(login.body.accessToken.split('.')[1], 'base64url').toString()).org);
  let n = 0;
  return {
    orgId,
    subdomain,
    host,
    email,
    password: PASSWORD,
    admin: client(t.app, host, login.body.accessToken),
    anonymous,
    async as(role, fields = {}) {
      n += 1;
      const userEmail = `${role}${n}@${subdomain}.example.com`;
      hashed ??= hashPassword(PASSWORD);
      const [row] = await withTenant(t.database.db, orgId, async (tx) =>
        tx
          .insert(users)
          .values({
            orgId,
            email: userEmail,
            passwordHash: await hashed!,
            role,
            firstName: fields.firstName ?? `${role}${n}`,
            lastName: fields.lastName ?? 'Tester',
            hourlyRate: fields.hourlyRate,
          })
          .returning({ id: users.id }),
      );
      const res = await anonymous.post('/api/login', { email: userEmail, password: PASSWORD });
      return Object.assign(client(t.app, host, res.body.accessToken), { userId: row.id });
    },
  };
}

/** The e-mail address of an organisation's user, read from the database (where a test looks for their mail). */
export async function emailOfUser(t: TestApp, orgId: number, userId: number): Promise<string> {
  const [row] = await withTenant(t.database.db, orgId, (tx) =>
    tx
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.orgId, orgId), eq(users.id, userId))),
  );
  return row.email;
}

/** A raw GET as the organisation's admin (`t.app.inject`: for bytes, a PDF or a ZIP, as they leave the server). */
export function adminGet(t: TestApp, org: Pick<TestOrg, 'host' | 'admin'>, url: string) {
  return t.app.inject({ method: 'GET', url, headers: { host: org.host, authorization: `Bearer ${org.admin.token}` } });
}
