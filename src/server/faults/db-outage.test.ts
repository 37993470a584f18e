import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createOrg, createTestApp, type TestApp } from '../test/harness';

/**
 * PostgreSQL only (PGlite lives inside the process and has no connections to lose): kill every server
 * connection while requests flow. The process survives, answers 503 with a clear error meanwhile
 * (never a 500 or a hang) and recovers by itself.
 */
// Not through PgBouncer (CI's pooled pass): there every test file's transactions share the pooler's server
// connections, and the application_name that marks this app's connections moves with them, so the kill would end
// other files' queries. The direct PostgreSQL pass runs it.
describe.runIf(Boolean(process.env.DATABASE_URL) && !process.env.PGBOUNCER_UPSTREAM_URL)('database connections lost under load', () => {
  let t: TestApp;
  // Only this app's connections are killed: other test files share the database.
  const appName = `cmms-outage-${process.pid}`;
  const runUrl = process.env.DATABASE_URL;
  beforeAll(async () => {
    const url = new URL(runUrl!);
    url.searchParams.set('application_name', appName);
    // Test files share their worker's process (isolate: false): the run's URL is put back after the app opens.
    process.env.DATABASE_URL = url.toString();
    t = await createTestApp().finally(() => (process.env.DATABASE_URL = runUrl));
  });
  // A pool whose connections were killed mid-query may take long to drain; the test is about serving, not closing.
  afterAll(() => Promise.race([t.close(), new Promise((r) => setTimeout(r, 10_000))]));

  it('answers 503 while connections die and recovers without a restart', async () => {
    const org = await createOrg(t);
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const statuses: number[] = [];
    let stop = false;
    const load = (async () => {
      while (!stop) {
        const res = await org.admin.get('/api/user/getCompanyUsers');
        statuses.push(res.status);
        if (res.status !== 200) expect(res.body.error).toBeTypeOf('string');
      }
    })();
    let terminated = 0;
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const killed = await admin.query<{ ok: boolean }>(
        'select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and application_name = $1',
        [appName],
      );
      terminated += killed.rows.filter((r) => r.ok).length;
    }
    await new Promise((r) => setTimeout(r, 300));
    stop = true;
    await load;
    await admin.end();
    // The outage really happened: connections were killed and some requests were answered 503.
    expect(terminated).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    const after = await org.admin.get('/api/user/getCompanyUsers');
    expect(after.status).toBe(200);
  }, 60_000);
});
