import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withoutTenant } from '../db/client';
import { useTestApp } from '../test/harness';
import { createJobQueue } from './queue';
import { sql } from 'drizzle-orm';
import { until } from '../test/fixtures';
import { rowsOf } from '../test/sql';

const t = useTestApp();

const queueName = (what: string) => `test-${what}-${randomBytes(4).toString('hex')}`;

/** The data of the jobs a queue holds (read as the owner; a job that is not there never runs). */
const jobsIn = async (name: string) =>
  rowsOf<{ data: unknown }>(await t.database.db.execute(sql`select data from pgboss.job where name = ${name} order by created_on`)).map((r) => r.data);

describe('the job queue', () => {
  it('is started by the app and runs a job sent to it', async () => {
    const { boss } = t.app.deps.jobs.queue;
    const name = queueName('echo');
    await boss.createQueue(name);
    const seen: unknown[] = [];
    await boss.work<{ n: number }>(name, { pollingIntervalSeconds: 0.5 }, async ([job]) => void seen.push(job.data.n));
    await boss.send(name, { n: 7 });
    await until(() => seen.length > 0);
    expect(seen).toEqual([7]);
  });

  it('runs a job sent in a transaction only when that transaction commits', async () => {
    const { queue } = t.app.deps.jobs;
    const name = queueName('tx');
    await queue.boss.createQueue(name);
    const seen: string[] = [];
    await queue.boss.work<{ what: string }>(name, { pollingIntervalSeconds: 0.5 }, async ([job]) => void seen.push(job.data.what));
    // As the request role (a tenant's transaction is the same role with an organisation set).
    await expect(
      withoutTenant(t.database.db, async (tx) => {
        await queue.sendInTx(tx, name, { what: 'rolled back' });
        throw new Error('the request failed');
      }),
    ).rejects.toThrow('the request failed');
    await withoutTenant(t.database.db, (tx) => queue.sendInTx(tx, name, { what: 'committed' }));
    await until(() => seen.length > 0);
    expect(seen).toEqual(['committed']);
    // The rolled-back job is not in the queue: it will never run.
    expect(await jobsIn(name)).toEqual([{ what: 'committed' }]);
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))('two instances on one PostgreSQL', () => {
  it('share the jobs: each runs exactly once', { timeout: 60_000 }, async () => {
    const instances = [0, 1].map(() => createJobQueue(t.database, { databaseUrl: process.env.DATABASE_URL, pollingIntervalSeconds: 0.5 }));
    await Promise.all(instances.map((q) => q.start()));
    try {
      const name = queueName('shared');
      await instances[0].boss.createQueue(name);
      const runs = new Map<number, number>();
      const byInstance = [0, 0];
      for (const [i, q] of instances.entries()) {
        await q.boss.work<{ n: number }>(name, { pollingIntervalSeconds: 0.5, batchSize: 2 }, async (jobs) => {
          for (const job of jobs) {
            runs.set(job.data.n, (runs.get(job.data.n) ?? 0) + 1);
            byInstance[i] += 1;
            // Slow enough that both instances are fetching while jobs wait.
            await new Promise((r) => setTimeout(r, 20));
          }
        });
      }
      const N = 60;
      await instances[1].boss.insert(Array.from({ length: N }, (_, n) => ({ name, data: { n } })));
      // Every job completed: a completed job is never fetched again, so the counts are final.
      const completed = async () => rowsOf(await t.database.db.execute(sql`select 1 from pgboss.job where name = ${name} and state = 'completed'`)).length;
      await until(async () => (await completed()) === N, 40_000);
      expect([...runs.values()].every((count) => count === 1)).toBe(true);
      expect(runs.size).toBe(N);
      expect(byInstance[0] + byInstance[1]).toBe(N);
      expect(byInstance[0]).toBeGreaterThan(0);
      expect(byInstance[1]).toBeGreaterThan(0);
    } finally {
      await Promise.all(instances.map((q) => q.stop()));
    }
  });

  // Two apps starting at once on a new database deadlocked in pg-boss's createQueue (a partition of its job
  // table each) and failed granting on it: the queue's schema work runs one instance at a time.
  it('start together on a new schema and create the same queues without a deadlock', { timeout: 60_000 }, async () => {
    const schema = `pgboss_${randomBytes(4).toString('hex')}`;
    const instances = [0, 1, 2, 3].map(() => createJobQueue(t.database, { databaseUrl: process.env.DATABASE_URL, schema }));
    try {
      await Promise.all(instances.map((q) => q.start()));
      const names = [queueName('a'), queueName('b'), queueName('c')];
      await Promise.all(instances.flatMap((q) => names.map((name) => q.createQueue(name, { retryLimit: 2 }))));
      for (const name of names) expect((await instances[0].boss.getQueue(name))?.retryLimit).toBe(2);
    } finally {
      await Promise.all(instances.map((q) => q.stop()));
      await t.database.db.execute(sql.raw(`drop schema if exists ${schema} cascade`));
    }
  });
});
