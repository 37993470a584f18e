/**
 * Real server processes for the operations tests (decision 068): what `npm start` serves, the server bundle
 * dist/server/main.mjs, built when older than its sources (scripts/ensure-built.mjs, shared with the browser
 * journeys: one build per run), on a PostgreSQL database of the test's own; and plain HTTP(S) calls with a
 * chosen Host (the organisation's subdomain), JSON or multipart.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import sharp from 'sharp';
import { expect } from 'vitest';
import { ensureServerBundle } from '../../../scripts/ensure-built.mjs';
import { hashPassword } from '../passwords';
import { scratchDatabase } from './scratch-database';
import { multipart, type UploadFile } from './fixtures';
import { startServerProcess, type ServerProcess } from './server-process';

/** The PostgreSQL server itself (through PgBouncer's CI run: the server behind the pooler), for createdb and pg_dump. */
export const ADMIN_URL = process.env.PGBOUNCER_UPSTREAM_URL ?? process.env.DATABASE_URL;

/** The app's URL of database `name`: the run's DATABASE_URL (through the pooler when the run goes through one) with that database. */
export function appUrlOf(name: string) {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A new database named after the run's own (`<run db>_<what>_<pid>_<ms>`), and a way to drop it. */
export async function ownDatabase(what: string) {
  const run = new URL(ADMIN_URL!).pathname.slice(1).slice(0, 24);
  const scratch = await scratchDatabase(ADMIN_URL!, `${run}_${what}`);
  const name = new URL(scratch.url).pathname.slice(1);
  return { name, adminUrl: scratch.url, appUrl: appUrlOf(name), drop: scratch.drop };
}

export const TEST_SECRET = `ops-test-${randomBytes(16).toString('hex')}`;

/** Starts the server bundle with `env` (DATABASE_URL, DATA_DIR… of the caller) on a free port. */
export function startBundle(env: Record<string, string | undefined>): Promise<ServerProcess> {
  const bundle = ensureServerBundle();
  return startServerProcess(
    { BASE_DOMAIN: 'localhost', SEED_DEMO: 'false', JWT_SECRET: TEST_SECRET, DATABASE_DIRECT_URL: undefined, NODE_ENV: 'development', ...env },
    undefined,
    [bundle],
  );
}

/** Stops a server process (SIGTERM, as an orchestrator does) and returns its exit code. */
export async function stopServer(server: ServerProcess | undefined) {
  if (!server || server.child.exitCode !== null) return server?.child.exitCode ?? null;
  server.child.kill('SIGTERM');
  return server.exited;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  json(): any;
}

export interface CallOptions {
  method?: string;
  json?: unknown;
  files?: UploadFile[];
  token?: string;
  headers?: Record<string, string>;
  /** Over TLS (a self-signed certificate: not verified). */
  https?: boolean;
  /** The client's own address (a loopback address other than 127.0.0.1: what a proxy sees as the client). */
  localAddress?: string;
}

/** One HTTP request to 127.0.0.1:`port` with the Host `host`. */
export function call(port: number, host: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const form = options.files ? multipart(options.files) : undefined;
  const payload = form ? form.payload : options.json !== undefined ? Buffer.from(JSON.stringify(options.json)) : undefined;
  const headers: Record<string, string | number> = {
    host,
    ...(form ? form.headers : options.json !== undefined ? { 'content-type': 'application/json' } : {}),
    ...(payload ? { 'content-length': payload.length } : {}),
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...options.headers,
  };
  const send = options.https ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? (payload ? 'POST' : 'GET'),
        headers,
        localAddress: options.localAddress,
        ...(options.https ? { rejectUnauthorized: false, servername: host.split(':')[0] } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body.toString('utf8')) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

export const PASSWORD = 'Sup3r-Secret-Passw0rd';

export interface SignedUpOrg {
  subdomain: string;
  host: string;
  email: string;
  orgId: number;
  token: string;
}

/** Signs a new organisation up through the server on `port` and its admin in. */
export async function signUp(port: number, options: CallOptions = {}): Promise<SignedUpOrg> {
  const subdomain = `o${randomBytes(5).toString('hex')}`;
  const email = `admin@${subdomain}.example.com`;
  const up = await call(port, 'localhost', '/api/signup', {
    ...options,
    json: { organization: `Ops ${subdomain}`, email, password: PASSWORD, subdomainName: subdomain, numberOfWorkers: 5, consent: true },
  });
  if (up.status !== 201) throw new Error(`signup: ${up.status} ${up.body}`);
  const host = `${subdomain}.localhost`;
  const token = await signIn(port, host, email, options);
  const orgId = Number(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).org);
  return { subdomain, host, email, orgId, token };
}

/** A work order added through the server on `port`, with a JPEG photo of `size` uploaded as `fileName`: its id and the photo's URL. */
export async function addOrderWithPhoto(
  port: number,
  org: SignedUpOrg,
  title: string,
  fileName: string,
  size: { width: number; height: number; background: string },
) {
  const added = await call(port, org.host, '/api/work-orders/add-work-order', { token: org.token, json: { title } });
  expect(added.status, added.body.toString()).toBe(201);
  const orderId: number = added.json().workOrder.id;
  const jpeg = await sharp({ create: { ...size, channels: 3 } })
    .jpeg()
    .toBuffer();
  const photo = await call(port, org.host, `/api/my-work/add-photo/${orderId}`, {
    token: org.token,
    files: [{ field: 'image', name: fileName, bytes: jpeg, type: 'image/jpeg' }],
  });
  expect(photo.status, photo.body.toString()).toBe(201);
  return { orderId, photoUrl: photo.json().photo.url as string };
}

/** Signs in; the access token. */
export async function signIn(port: number, host: string, email: string, options: CallOptions = {}) {
  const login = await call(port, host, '/api/login', { ...options, json: { email, password: PASSWORD } });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${login.body}`);
  return login.json().accessToken as string;
}

/** Adds a signed-in user of `role` to the organisation straight in the database (as the test harness does); its id. */
export async function addUser(databaseUrl: string, orgId: number, role: 'manager' | 'worker', email: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    await client.query(`select set_config('app.org_id', $1, true)`, [String(orgId)]);
    const { rows } = await client.query<{ id: number }>(
      `insert into users (org_id, email, password_hash, role, first_name, last_name) values ($1, $2, $3, $4, $5, 'Tester') returning id`,
      [orgId, email, await hashPassword(PASSWORD), role, role === 'manager' ? 'Manny' : 'Walter'],
    );
    await client.query('commit');
    return rows[0].id;
  } finally {
    await client.end();
  }
}

/** The JSON log lines of a server's output. */
export function logLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

/** The variables a deployment sets for the test bucket (docs/storage.md), for a server process. */
export function bucketEnv(s3: { bucket: string; prefix: string; endpoint?: string }): Record<string, string> {
  return {
    S3_BUCKET: s3.bucket,
    S3_PREFIX: s3.prefix,
    AWS_ENDPOINT_URL_S3: s3.endpoint!,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}
