import { describe, expect, it, onTestFinished } from 'vitest';
import { runDataDir } from '../test/pglite-template';
import { orgFetch, startServerProcess } from '../test/server-process';

/** SIGTERM while requests are in flight: they complete, new connections are refused, the process exits 0. */
describe('graceful shutdown', () => {
  it('finishes in-flight requests, refuses new ones and exits cleanly on SIGTERM', async () => {
    const data = runDataDir('cmms-term-');
    onTestFinished(data.remove);
    const env = { DATA_DIR: data.dir, SEED_DEMO: 'false', JWT_SECRET: 'term-test-secret', LOGIN_LIMIT_PER_ACCOUNT: '1000', ARGON2_TEST_COST: undefined };
    const server = await startServerProcess(env);
    const sub = `term${Date.now().toString(36)}`;
    const host = `${sub}.localhost`;
    await orgFetch(server.port, 'localhost')('/api/signup', {
      method: 'POST',
      body: { organization: 'Term Co', email: 'admin@term.test', password: 'Passw0rd!long', subdomainName: sub, numberOfWorkers: 3, consent: true },
    });
    // Logins hash with argon2 (OWASP's cost: the suite's cheap one is left out above): slow enough for several to be
    // in flight when the signal lands.
    let killedAt = Number.POSITIVE_INFINITY;
    const inFlight = Array.from({ length: 20 }, () =>
      orgFetch(server.port, host)('/api/login', { method: 'POST', body: { email: 'admin@term.test', password: 'Passw0rd!long' } }).then(
        (res) => ({ status: res.status, at: Date.now() }),
      ),
    );
    // The signal lands once the server answers the first: it is serving them, and the others are still in flight.
    await Promise.race(inFlight);
    killedAt = Date.now();
    server.child.kill('SIGTERM');
    const results = await Promise.allSettled(inFlight);
    const code = await server.exited;
    const answered = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    // In-flight requests complete after the signal; none fails with a server error other than the 503 of "closing".
    expect(answered.filter((r) => r.status === 200 && r.at > killedAt).length).toBeGreaterThan(0);
    expect(answered.every((r) => r.status === 200 || r.status === 503)).toBe(true);
    expect(code).toBe(0);
    await expect(orgFetch(server.port, host)('/api/health')).rejects.toThrow();
  }, 120_000);
});
