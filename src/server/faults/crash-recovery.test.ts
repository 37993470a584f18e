import { afterAll, describe, expect, it } from 'vitest';
import { runDataDir } from '../test/pglite-template';
import { orgFetch, startServerProcess, type ServerProcess } from '../test/server-process';

/**
 * Kill -9 the server while a client streams acknowledged creates; restart it on the same data;
 * every acknowledged record must be there. Runs on PGlite (a fresh DATA_DIR) or on DATABASE_URL.
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

    // Stream creates (notes on the admin's own record) and kill the server mid-stream.
    const acknowledged: string[] = [];
    let killed = false;
    const writer = (async () => {
      for (let i = 0; i < 10_000 && !killed; i++) {
        const note = `note ${i}`;
        try {
          const res = await api('/api/activities/user/1/notes', { method: 'POST', body: { note } });
          if (res.status === 201) acknowledged.push(note);
        } catch {
          return;
        }
      }
    })();
    while (acknowledged.length < 25) await new Promise((r) => setTimeout(r, 20));
    server.child.kill('SIGKILL');
    killed = true;
    await server.exited;
    await writer;

    server = await startServerProcess(env);
    started.push(server);
    const res = await orgFetch(server.port, host, accessToken)('/api/activities/user/1');
    const { activities } = await res.json<{ activities: { note: string | null }[] }>();
    const stored = new Set(activities.map((a) => a.note));
    const lost = acknowledged.filter((n) => !stored.has(n));
    server.child.kill('SIGTERM');
    await server.exited;
    expect(acknowledged.length).toBeGreaterThanOrEqual(25);
    expect(lost).toEqual([]);
  }, 120_000);
});
