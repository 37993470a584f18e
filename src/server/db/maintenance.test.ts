import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client';
import { scheduleVacuum } from './maintenance';
import { rowsOf } from '../test/sql';

const vacuumCount = async (database: Database) =>
  Number(rowsOf<{ n: number }>(await database.db.execute(sql`select vacuum_count n from pg_stat_user_tables where relname = 'churn'`))[0].n);

describe('the embedded database vacuum schedule', () => {
  it('vacuums PGlite on its schedule (no autovacuum there) and stops when asked', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    await database.db.execute(sql`create table churn as select generate_series(1, 5000) id`);
    await database.db.execute(sql`delete from churn where id % 2 = 0`);
    const logged: string[] = [];
    const stop = scheduleVacuum(database, 30, { info: (_o, msg) => logged.push(msg), warn: (_o, msg) => logged.push(msg) });
    const deadline = Date.now() + 10_000;
    while ((await vacuumCount(database)) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 30));
    stop();
    expect(await vacuumCount(database)).toBeGreaterThan(0);
    expect(logged).toContain('embedded database vacuumed');
    // Stopped: no further run.
    await new Promise((r) => setTimeout(r, 100));
    const settled = await vacuumCount(database);
    await new Promise((r) => setTimeout(r, 150));
    expect(await vacuumCount(database)).toBe(settled);
    await database.close();
  });

  it('does nothing when turned off', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    await database.db.execute(sql`create table churn (id int)`);
    const stop = scheduleVacuum(database, 0, { info: () => {}, warn: () => {} });
    await new Promise((r) => setTimeout(r, 100));
    expect(await vacuumCount(database)).toBe(0);
    stop();
    await database.close();
  });
});
