import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { Database } from './client';
import { scheduleVacuum } from './maintenance';
import { rowsOf } from '../test/sql';
import { openMigratedPGlite } from '../test/pglite-template';

const vacuumCount = async (database: Database, table: string) =>
  Number(rowsOf<{ n: number }>(await database.db.execute(sql`select vacuum_count n from pg_stat_user_tables where relname = ${table}`))[0].n);

/**
 * The schedule's clock is faked (only setInterval), so that "no further run" is checked over ten periods
 * without waiting for them; the vacuums themselves run on the real database.
 */
const fakeSchedule = () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  onTestFinished(() => void vi.useRealTimers());
};

describe('the embedded database vacuum schedule', () => {
  // One database of the file's own (a vacuum covers all of it); each test its own table.
  let database: Awaited<ReturnType<typeof openMigratedPGlite>>;
  beforeAll(async () => {
    database = await openMigratedPGlite();
  });
  afterAll(() => database?.close());

  it('vacuums PGlite on its schedule (no autovacuum there) and stops when asked', async () => {
    fakeSchedule();
    await database.db.execute(sql`create table churn as select generate_series(1, 5000) id`);
    await database.db.execute(sql`delete from churn where id % 2 = 0`);
    const logged: string[] = [];
    const stop = scheduleVacuum(database, 30, { info: (_o, msg) => logged.push(msg), warn: (_o, msg) => logged.push(msg) });
    // The first period: the vacuum is sent, and the read after it is answered after it (PGlite is one session).
    vi.advanceTimersByTime(30);
    const vacuumed = await vacuumCount(database, 'churn');
    expect(vacuumed).toBeGreaterThan(0);
    stop();
    // Stopped: ten more periods, and no further run (one would be queued before this read).
    vi.advanceTimersByTime(300);
    expect(await vacuumCount(database, 'churn')).toBe(vacuumed);
    expect(logged).toEqual(['embedded database vacuumed']);
  });

  it('does nothing when turned off', async () => {
    fakeSchedule();
    await database.db.execute(sql`create table quiet (id int)`);
    const stop = scheduleVacuum(database, 0, { info: () => {}, warn: () => {} });
    expect(vi.getTimerCount()).toBe(0);
    expect(await vacuumCount(database, 'quiet')).toBe(0);
    stop();
  });
});
