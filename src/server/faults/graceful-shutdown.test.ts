import { Agent, request } from 'node:http';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runDataDir } from '../test/pglite-template';
import { orgFetch, startServerProcess } from '../test/server-process';
import { until } from '../test/fixtures';

interface Answer {
  status: number;
  connection: string | undefined;
  at: number;
}

/** One request on `agent` (keep-alive connections reused, as browsers and proxies do). */
function send(agent: Agent, port: number, host: string, path: string, body?: unknown) {
  return new Promise<Answer>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        path,
        method: payload ? 'POST' : 'GET',
        headers: { host, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, at: Date.now() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * A request whose body is held back: once the server has read its headers (it answers `100 Continue`) it waits
 * for the rest, so the request is in flight for certain until `release` sends the body, however busy the machine.
 */
function held(port: number, host: string, path: string, body: unknown) {
  const payload = JSON.stringify(body);
  const req = request({
    host: '127.0.0.1',
    port,
    path,
    method: 'POST',
    headers: { host, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), expect: '100-continue' },
  });
  const accepted = new Promise<void>((resolve) => req.once('continue', () => resolve()));
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, at: Date.now() }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  req.flushHeaders();
  return { accepted, answer, release: () => req.end(payload) };
}

/** Signs up the organisation "Term Co" (admin@term.test) on a subdomain starting with `prefix`: its host. */
async function signUpTermCo(port: number, prefix: string) {
  const sub = `${prefix}${Date.now().toString(36)}`;
  await orgFetch(port, 'localhost')('/api/signup', {
    method: 'POST',
    body: { organization: 'Term Co', email: 'admin@term.test', password: 'Passw0rd!long', subdomainName: sub, numberOfWorkers: 3, consent: true },
  });
  return `${sub}.localhost`;
}

const codeOf = (err: unknown) => (err as { code?: string }).code ?? String(err);

/**
 * SIGTERM while requests are in flight on keep-alive connections and clients keep sending on theirs: every
 * request the server accepted is answered, none is reset; the answers after the signal say
 * `Connection: close`; new connections are refused; the process exits 0 (decision 025).
 */
describe('graceful shutdown', () => {
  it('finishes every accepted request, resets no connection and exits cleanly on SIGTERM', async () => {
    const data = runDataDir('cmms-term-');
    onTestFinished(data.remove);
    // Logins hash with argon2 at OWASP's cost (the suite's cheap one is left out): slow enough for several to be
    // in flight when the signal lands.
    const env = { DATA_DIR: data.dir, SEED_DEMO: 'false', JWT_SECRET: 'term-test-secret', LOGIN_LIMIT_PER_ACCOUNT: '1000', ARGON2_TEST_COST: undefined };
    const server = await startServerProcess(env);
    const host = await signUpTermCo(server.port, 'term');
    const agent = new Agent({ keepAlive: true, maxSockets: 32 });
    const login = { email: 'admin@term.test', password: 'Passw0rd!long' };
    const inFlight = held(server.port, host, '/api/login', login);
    const failures: string[] = [];

    const logins = Array.from({ length: 12 }, () =>
      send(agent, server.port, host, '/api/login', login).catch((err: unknown) => {
        failures.push(`login: ${codeOf(err)}`);
        return null;
      }),
    );
    // Clients that keep sending on their keep-alive connections until the server says `Connection: close`
    // or refuses a new connection.
    const closed: Answer[] = [];
    const loops = Array.from({ length: 6 }, async () => {
      for (;;) {
        try {
          const res = await send(agent, server.port, host, '/api/health');
          if (res.status !== 200) failures.push(`health: ${res.status}`);
          if (res.connection === 'close') return closed.push(res);
        } catch (err) {
          if (codeOf(err) !== 'ECONNREFUSED') failures.push(`health: ${codeOf(err)}`);
          return;
        }
      }
    });
    // The signal lands once the server answers the first login: it is serving them, others may still be in
    // flight; the held login is, whatever the machine's speed.
    await Promise.all([Promise.race(logins), inFlight.accepted]);
    server.child.kill('SIGTERM');
    inFlight.release();
    const heldAnswer = await inFlight.answer.catch((err: unknown) => (failures.push(`held login: ${codeOf(err)}`), null));
    const answered = await Promise.all(logins);
    await Promise.all(loops);
    const code = await server.exited;
    agent.destroy();

    // No reset, no hang-up, no 503: every accepted request got its answer.
    expect(failures).toEqual([]);
    expect(answered.map((a) => a?.status)).toEqual(answered.map(() => 200));
    // A login in flight at the signal (its body sent after it) is answered.
    expect(heldAnswer?.status).toBe(200);
    expect(closed.length).toBeGreaterThan(0);
    // The signal reaches the server a moment after we send it: from its first `Connection: close`, every answer
    // says so (a keep-alive answer after it would leave the client a connection about to be closed).
    const closingFrom = Math.min(...closed.map((c) => c.at));
    for (const a of answered) if (a!.at > closingFrom) expect(a!.connection).toBe('close');
    expect(code).toBe(0);
    await expect(orgFetch(server.port, host)('/api/health')).rejects.toThrow();
  }, 120_000);

  it('SIGTERM with 32 requests in flight on their own connections: each gets a whole answer, 200 or 503, none a reset (PGlite)', async () => {
    const data = runDataDir('cmms-term32-');
    onTestFinished(data.remove);
    const env = {
      DATA_DIR: data.dir,
      SEED_DEMO: 'false',
      JWT_SECRET: 'term-test-secret',
      LOGIN_LIMIT_PER_ACCOUNT: '1000',
      ARGON2_TEST_COST: undefined,
      DATABASE_URL: undefined,
    };
    const server = await startServerProcess(env);
    const host = await signUpTermCo(server.port, 't32');
    const login = { email: 'admin@term.test', password: 'Passw0rd!long' };
    // Each request on a connection of its own (no keep-alive): many wait to be accepted or read when the signal lands.
    const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
    const failures: string[] = [];
    let connected = 0;
    const onSocket = (socket: import('node:net').Socket) => socket.once('connect', () => connected++);
    const createConnection = agent.createConnection.bind(agent);
    agent.createConnection = (...args: Parameters<typeof createConnection>) => {
      const socket = createConnection(...args) as import('node:net').Socket;
      onSocket(socket);
      return socket;
    };
    const requests = Array.from({ length: 32 }, (_, i) =>
      send(agent, server.port, host, i % 2 ? '/api/login' : '/api/health', i % 2 ? login : undefined).catch((err: unknown) => {
        failures.push(codeOf(err));
        return null;
      }),
    );
    // The signal lands once every connection is open (the kernel's handshake), while the server still accepts and reads them.
    await until(() => connected === 32, 30_000);
    server.child.kill('SIGTERM');
    const answers = await Promise.all(requests);
    const code = await server.exited;
    agent.destroy();
    expect(failures).toEqual([]);
    expect(answers.filter((a) => a && a.status !== 200 && a.status !== 503).map((a) => a!.status)).toEqual([]);
    expect(code).toBe(0);
  }, 120_000);
});
