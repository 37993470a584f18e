import { sql } from 'drizzle-orm';
import type { Database } from './client';

export interface VacuumLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * PGlite runs PostgreSQL in single-user mode: there is no autovacuum worker, so dead rows from updates and
 * deletes would pile up and planner statistics would go stale. This timer does autovacuum's work on the
 * embedded database. PostgreSQL does it itself, so the schedule is a no-op there. Returns a stop function.
 */
export function scheduleVacuum(database: Database, everyMs: number, log: VacuumLog): () => void {
  if (database.kind !== 'pglite' || !(everyMs > 0)) return () => {};
  let running: Promise<void> | undefined;
  const run = async () => {
    const started = performance.now();
    try {
      // One connection: requests queue behind it, so it runs with the table-at-a-time default, never FULL.
      await database.db.execute(sql`vacuum (analyze)`);
      log.info({ ms: Math.round(performance.now() - started) }, 'embedded database vacuumed');
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'embedded database vacuum failed; will retry on schedule');
    }
  };
  const timer = setInterval(() => {
    if (!running) running = run().finally(() => (running = undefined));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
