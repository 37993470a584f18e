/**
 * Two server processes (the bundle `npm start` serves) on one PostgreSQL database and one S3 bucket (issue 38,
 * decision 068): a file uploaded through one is served by the other; a manager demoted through one is refused at
 * once by the other; a scheduled job runs once per slot across both. Each its own data folder, as two machines.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_URL, addOrderWithPhoto, addUser, call, logLines, signIn, signUp, stopServer } from '../test/bundle';
import type { ServerProcess } from '../test/server-process';
import { twoBundles } from '../test/two-bundles';

describe.skipIf(!ADMIN_URL)('two instances on one database and one bucket', () => {
  const pair = twoBundles('two');
  const { scratch, servers } = pair;
  afterAll(() => pair.stop());

  it('share files, rights and the schedule', { timeout: 400_000 }, async () => {
    // The PM generator every minute (instead of every 5) so that the test sees two slots; info logs for its runs.
    const { a, b, bucket, database } = await pair.start({ PM_GENERATOR_CRON: '* * * * *' });

    const org = await signUp(a.port);

    // A photo uploaded through A is served by B, from the bucket (neither data folder holds it).
    const { orderId, photoUrl } = await addOrderWithPhoto(a.port, org, 'Inspect the boiler', 'boiler.jpg', { width: 64, height: 48, background: '#aa5522' });
    const fromB = await call(b.port, org.host, photoUrl);
    expect(fromB.status).toBe(200);
    const key = /^\/uploads\/([^?]+)/.exec(photoUrl)![1];
    expect((await bucket.object(key))?.equals(fromB.body)).toBe(true);
    expect(existsSync(join(scratch, 'a', 'uploads')) || existsSync(join(scratch, 'b', 'uploads'))).toBe(false);
    // B's own list signs the URL again; A serves that one.
    const listed = await call(b.port, org.host, `/api/my-work/list-photos/${orderId}`, { token: org.token });
    expect((await call(a.port, org.host, listed.json().photos[0].url)).body.equals(fromB.body)).toBe(true);

    // A manager demoted through A is refused by B on its very next request, and promoted through B is allowed on A
    // at once: every request reads the caller's session and role (decision 021, addendum 2), so no instance keeps
    // a right another has changed.
    const managerEmail = `manager@${org.subdomain}.example.com`;
    const managerId = await addUser(database.appUrl, org.orgId, 'manager', managerEmail);
    const manager = await signIn(b.port, org.host, managerEmail);
    const managerRoute = (server: ServerProcess) => call(server.port, org.host, '/api/portal/settings', { token: manager });
    expect((await managerRoute(b)).status).toBe(200);
    expect((await managerRoute(a)).status).toBe(200);
    const setRole = (server: ServerProcess, role: 'worker' | 'manager') =>
      call(server.port, org.host, `/api/user/updateUser/${managerId}`, {
        method: 'PUT',
        token: org.token,
        json: { firstName: 'Manny', email: managerEmail, role },
      });
    const demoted = await setRole(a, 'worker');
    expect(demoted.status, demoted.body.toString()).toBe(200);
    expect((await managerRoute(b)).status).toBe(403);
    expect((await managerRoute(a)).status).toBe(403);
    const promoted = await setRole(b, 'manager');
    expect(promoted.status).toBe(200);
    expect((await managerRoute(a)).status).toBe(200);

    // The schedule: every instance registers the PM generator's cron, one job per minute is made, and each job
    // runs on exactly one instance. Two slots seen, then both stopped (a running job finishes first).
    const jobs = async () => {
      const client = new pg.Client({ connectionString: database.adminUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ minute: string; jobs: number; completed: number; retried: number }>(
          `select date_trunc('minute', created_on)::text as minute, count(*)::int as jobs,
             count(*) filter (where state = 'completed')::int as completed, count(*) filter (where retry_count > 0)::int as retried
           from pgboss.job where name = 'pm-generator' group by 1 order by 1`,
        );
        return rows;
      } finally {
        await client.end();
      }
    };
    for (const end = Date.now() + 200_000; ; ) {
      if ((await jobs()).reduce((n, slot) => n + slot.completed, 0) >= 2) break;
      if (Date.now() > end) throw new Error(`fewer than two PM generator runs in 200 s: ${JSON.stringify(await jobs())}`);
      await new Promise((r) => setTimeout(r, 2000));
    }
    for (const server of servers) expect(await stopServer(server)).toBe(0);
    const slots = await jobs();
    const runs = servers.map((server) => logLines(server.output()).filter((line) => line.msg === 'pm generator run done').length);
    console.log(`PM generator: ${slots.length} slots ${JSON.stringify(slots)}; runs per instance ${JSON.stringify(runs)}`);
    for (const slot of slots) expect(slot).toMatchObject({ jobs: 1, retried: 0 });
    const completed = slots.reduce((n, slot) => n + slot.completed, 0);
    expect(completed).toBeGreaterThanOrEqual(2);
    expect(runs[0] + runs[1]).toBe(completed);
  });
});
