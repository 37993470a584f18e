/**
 * The real server as a separate process (what production runs: `node --import tsx src/server/main.ts`),
 * so the load generator never shares its event loop, plus the set-up every process benchmark needs:
 * a PostgreSQL database of its own, an organisation, a token and some work orders.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { orgFetch, startServerProcess, type ServerProcess } from '../../src/server/test/server-process';
export { scratchDatabase } from '../../src/server/test/scratch-database';

// DB_STATEMENT_CHECKS off: as production runs (decision 052); NODE_ENV stays development for plain HTTP.
export const BENCH_ENV = {
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
  LOG_LEVEL: 'warn',
  SEED_DEMO: 'false',
  NODE_ENV: 'development',
  DB_STATEMENT_CHECKS: 'off',
};

/** The PostgreSQL server a benchmark runs on (DATABASE_URL); without one it says what it needs (`what`) and exits. */
export function requirePostgres(
  what = 'a PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/postgres (the benchmark creates and drops its own database).',
): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error(`Set DATABASE_URL to ${what}`);
    process.exit(1);
  }
  return url;
}

/** A request sender of at most `connections` kept-alive sockets: answers the status (0 when the request failed). */
export function sender(connections: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  return (port: number, host: string, token: string, method: string, path: string, body?: unknown) =>
    new Promise<number>((resolve) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path,
          method,
          agent,
          headers: {
            host,
            authorization: `Bearer ${token}`,
            ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', () => resolve(0));
      req.end(payload);
    });
}

export function startBenchServer(env: Record<string, string | undefined>, port?: number): Promise<ServerProcess> {
  return startServerProcess({ ...BENCH_ENV, ...env }, port);
}

/** Resident memory of a process in MiB, read from /proc (0 when it is gone). */
export function rssMiB(pid: number | undefined): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.split(/\s+/)[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

export interface BenchOrg {
  host: string;
  token: string;
  /** Signs in again (access tokens live 10 minutes): long runs call it to renew `token`. */
  renew(): Promise<void>;
}

/** Signs up an organisation on the server at `port` and adds `workOrders` work orders through the API. */
export async function benchOrg(port: number, subdomain: string, workOrders = 0): Promise<BenchOrg> {
  const email = `admin@${subdomain}.test`;
  const password = 'Passw0rd!long';
  const signup = await orgFetch(port, 'localhost')('/api/signup', {
    method: 'POST',
    body: { organization: `${subdomain} Co`, email, password, subdomainName: subdomain, numberOfWorkers: 50, consent: true },
  });
  if (signup.status !== 201) throw new Error(`signup ${signup.status}: ${await signup.text()}`);
  const host = `${subdomain}.localhost`;
  const signIn = async () => {
    const login = await orgFetch(port, host)('/api/login', { method: 'POST', body: { email, password } });
    if (login.status !== 200) throw new Error(`login ${login.status}: ${await login.text()}`);
    return (await login.json<{ accessToken: string }>()).accessToken;
  };
  const org: BenchOrg = { host, token: await signIn(), renew: async () => void (org.token = await signIn()) };
  const api = orgFetch(port, host, org.token);
  const words = ['Chiller', 'Pump', 'Conveyor', 'Boiler', 'Compressor', 'Valve', 'Seal', 'Motor'];
  const statuses = ['assigned', 'in-progress', 'completed', 'cancelled'];
  for (let i = 0; i < workOrders; i += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, workOrders - i) }, async (_, j) => {
        const n = i + j;
        const res = await api('/api/work-orders/add-work-order', {
          method: 'POST',
          body: { title: `${words[n % words.length]} inspection ${n}`, status: statuses[n % statuses.length], priority: 'medium' },
        });
        if (res.status !== 201) throw new Error(`add-work-order ${res.status}: ${await res.text()}`);
      }),
    );
  }
  return org;
}

/** Stops a server process and waits for it to go. */
export async function stopServer(server: ServerProcess, signal: NodeJS.Signals = 'SIGTERM') {
  if (server.child.exitCode === null) server.child.kill(signal);
  await server.exited;
}
