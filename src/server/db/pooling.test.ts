import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { client, createOrg, createTestApp, type TestApp } from '../test/harness';
import { startPgbouncer } from '../../../scripts/pgbouncer.mjs';

const upstream = process.env.PGBOUNCER_UPSTREAM_URL ?? process.env.DATABASE_URL;
/** Server connections of the pooler: few, so that every request and the checks below share them. */
const POOL_SIZE = 4;

/**
 * The app with only DATABASE_URL pointing at PgBouncer in transaction mode (issue 38, decision 062): no 5xx, the
 * right answers, nothing of ours left on the pooler's server connections, and rights never kept on a deaf feed.
 */
describe.skipIf(!upstream)('through PgBouncer in transaction mode', () => {
  let bouncer: Awaited<ReturnType<typeof startPgbouncer>>;
  let t: TestApp;
  /** A plain client of the pooler, as another application would be. */
  const plain = async () => {
    const c = new pg.Client({ connectionString: bouncer.url });
    await c.connect();
    return c;
  };
  beforeAll(async () => {
    bouncer = await startPgbouncer({ upstream: upstream!, poolSize: POOL_SIZE });
    const database = new URL(upstream!).pathname.slice(1);
    t = await createTestApp({}, { databaseUrl: bouncer.urlOf(database) });
  });
  afterAll(async () => {
    await t?.close();
    await bouncer?.stop();
  });

  it('answers a burst of reads and writes of two organisations right, and leaves no setting on a server connection', async () => {
    const orgs = [await createOrg(t), await createOrg(t)];
    const ids: number[][] = [[], []];
    for (const [n, org] of orgs.entries()) {
      for (let i = 0; i < 3; i++) {
        const res = await org.admin.post('/api/work-orders/add-work-order', {
          title: `Org ${n} pump ${i}`,
          priority: 'high',
          dueDate: new Date(Date.now() + 86_400_000).toISOString(),
        });
        expect(res.status).toBe(201);
        ids[n].push(res.body.workOrder?.id ?? res.body.id);
      }
    }
    const statuses: number[] = [];
    const wrong: string[] = [];
    const burst = Array.from({ length: 120 }, async (_, i) => {
      const n = i % 2;
      const org = orgs[n];
      const kind = i % 6;
      const res =
        kind === 0
          ? await org.admin.get('/api/activities/recent')
          : kind === 1
            ? await org.admin.get('/api/work-orders/get-statistics')
            : kind === 2
              ? await org.admin.get('/api/work-orders/get-work-orders?page=1&pageSize=10')
              : kind === 3
                ? await org.admin.get(`/api/work-orders/get-work-order/${ids[n][i % 3]}`)
                : kind === 4
                  ? await org.admin.get('/api/user/get-app-data')
                  : await org.admin.post('/api/work-orders/add-work-order', { title: `Org ${n} burst ${i}`, priority: 'low' });
      statuses.push(res.status);
      if (kind === 2 && res.status === 200 && !res.body.workOrders.every((w: { title: string }) => w.title.startsWith(`Org ${n} `)))
        wrong.push(`list of org ${n}`);
      if (kind === 3 && res.status === 200 && !res.body.workOrder.title.startsWith(`Org ${n} `)) wrong.push(`record of org ${n}`);
    });
    await Promise.all(burst);
    expect(statuses.filter((s) => s >= 400)).toEqual([]);
    expect(wrong).toEqual([]);
    // Every server connection of the pool, each held by a transaction of its own: what a next client finds there.
    const clients = await Promise.all(Array.from({ length: POOL_SIZE }, plain));
    try {
      // Every transaction stays open until all have read: each then holds a server connection of its own (one
      // committed early would hand its connection to a later one, and a connection would go unread).
      const seen = await Promise.all(
        clients.map(async (c) => {
          await c.query('begin');
          const { rows } = await c.query(`select pg_backend_pid() as pid, current_user as "user", current_setting('role') as role,
            coalesce(current_setting('app.org_id', true), '') as org, current_setting('default_transaction_read_only') as read_only,
            current_setting('transaction_read_only') as tx_read_only, current_setting('statement_timeout') as statement_timeout,
            current_setting('enable_memoize') as memoize, (select count(*)::int from pg_prepared_statements) as named`);
          return rows[0];
        }),
      );
      await Promise.all(clients.map((c) => c.query('commit')));
      expect(new Set(seen.map((s) => s.pid)).size).toBe(POOL_SIZE);
      for (const s of seen) {
        expect({ ...s, pid: 0 }).toEqual({
          pid: 0,
          user: 'postgres',
          role: 'none',
          org: '',
          read_only: 'off',
          tx_read_only: 'off',
          statement_timeout: '0',
          memoize: 'on',
          named: 0,
        });
      }
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });

  it('a change of rights made elsewhere applies to the next request through the pooler', async () => {
    const org = await createOrg(t);
    const manager = await org.as('manager');
    const api = client(t.app, org.host, manager.token);
    expect((await api.get('/api/user/get-app-data')).status).toBe(200);
    const owner = await plain();
    try {
      // Another instance (or an operator) ends the session; no notification reaches this process.
      await owner.query(`update sessions set revoked_at = now() where org_id = $1 and user_id = $2`, [org.orgId, manager.userId]);
    } finally {
      await owner.end();
    }
    expect((await api.get('/api/user/get-app-data')).status).toBe(401);
  });

  it('is ready: the request pool answers through the pooler and the job queue started', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    expect(t.app.deps.jobs.ready?.()).toBe(true);
  });
});
