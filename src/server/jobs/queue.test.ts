import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutTenant } from '../db/client';
import { createTestApp, type TestApp } from '../test/harness';
import { createJobQueue } from './queue';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const queueName = (what: string) => `test-${what}-${randomBytes(4).toString('hex')}`;

async function until(done: () => boolean, ms = 10_000) {
  for (const end = Date.now() + ms; !done(); ) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

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
    await new Promise((r) => setTimeout(r, 1500));
    expect(seen).toEqual(['committed']);
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
      await until(() => runs.size === N, 40_000);
      await new Promise((r) => setTimeout(r, 1500));
      expect([...runs.values()].every((count) => count === 1)).toBe(true);
      expect(runs.size).toBe(N);
      expect(byInstance[0] + byInstance[1]).toBe(N);
      expect(byInstance[0]).toBeGreaterThan(0);
      expect(byInstance[1]).toBeGreaterThan(0);
    } finally {
      await Promise.all(instances.map((q) => q.stop()));
    }
  });
});
