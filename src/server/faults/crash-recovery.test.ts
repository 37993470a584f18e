import { afterAll, describe, expect, it } from 'vitest';
import { runDataDir } from '../test/pglite-template';
import { orgFetch, startServerProcess, type ServerProcess } from '../test/server-process';

/**
 * Kill -9 the server while clients stream creates with Idempotency-Keys; restart it on the same data;
 * every acknowledged record must be there once, and every create in flight, retried with its key, ends
 * with a 2xx and exactly one record (decision 025). Runs on PGlite (a fresh DATA_DIR) or on DATABASE_URL.
 */
// Whatever happens in the test, no server process outlives it, nor its data.
const started: ServerProcess[] = [];
const data = runDataDir('cmms-crash-');
afterAll(async () => {
  for (const s of started) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  await Promise.all(started.map((s) => s.exited));
  data.remove();
});

describe('crash recovery', () => {
  it('keeps every acknowledged create across kill -9', async () => {
    const env = { DATA_DIR: data.dir, SEED_DEMO: 'false', JWT_SECRET: 'crash-test-secret' };
    let server = await startServerProcess(env);
    started.push(server);
    const sub = `crash${Date.now().toString(36)}`;
    const host = `${sub}.localhost`;
    const signup = await orgFetch(server.port, 'localhost')('/api/signup', {
      method: 'POST',
      body: { organization: 'Crash Test Co', email: 'admin@crash.test', password: 'Passw0rd!long', subdomainName: sub, numberOfWorkers: 3, consent: true },
    });
    expect(signup.status).toBe(201);
    const login = await orgFetch(server.port, host)('/api/login', { method: 'POST', body: { email: 'admin@crash.test', password: 'Passw0rd!long' } });
    const { accessToken } = await login.json<{ accessToken: string }>();
    const api = orgFetch(server.port, host, accessToken);

    // Four clients stream creates (notes on the admin's own record), each with its own Idempotency-Key,
    // and the server is killed mid-stream: some creates are acknowledged, some are in flight.
    const acknowledged: string[] = [];
    const inFlight: string[] = [];
    let killed = false;
    const note = (key: string) => ({ method: 'POST', body: { note: key }, headers: { 'idempotency-key': key } });
    const writers = Array.from({ length: 4 }, (_, w) =>
      (async () => {
        for (let i = 0; i < 10_000 && !killed; i++) {
          const key = `crash-w${w}-n${i}`;
          try {
            const res = await api('/api/activities/user/1/notes', note(key));
            if (res.status === 201) acknowledged.push(key);
            else inFlight.push(key);
          } catch {
            inFlight.push(key);
            return;
          }
        }
      })(),
    );
    while (acknowledged.length < 25) await new Promise((r) => setTimeout(r, 20));
    server.child.kill('SIGKILL');
    killed = true;
    await server.exited;
    await Promise.all(writers);

    server = await startServerProcess(env);
    started.push(server);
    const after = orgFetch(server.port, host, accessToken);
    // The clients retry what they never got an answer to: each ends with a 2xx, created once.
    const retried = [];
    for (const key of [...inFlight, ...acknowledged.slice(0, 3)])
      retried.push({ key, status: (await after('/api/activities/user/1/notes', note(key))).status });
    const res = await after('/api/activities/user/1');
    const { activities } = await res.json<{ activities: { note: string | null }[] }>();
    const times = new Map<string, number>();
    for (const a of activities) if (a.note) times.set(a.note, (times.get(a.note) ?? 0) + 1);
    const lost = [...acknowledged, ...inFlight].filter((n) => times.get(n) !== 1);
    server.child.kill('SIGTERM');
    await server.exited;
    expect(acknowledged.length).toBeGreaterThanOrEqual(25);
    expect(inFlight.length).toBeGreaterThan(0);
    expect(retried.filter((r) => r.status !== 201)).toEqual([]);
    // Neither lost nor counted twice.
    expect(lost).toEqual([]);
  }, 120_000);
});
