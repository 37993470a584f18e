import { sql } from 'drizzle-orm';
import type { Db } from './db/client';
import { withoutTenant } from './db/client';
import { rateLimits } from './db/schema';

/**
 * Counts one hit on `key` in a fixed window kept in PostgreSQL (the API holds no state of its own)
 * and returns the count in the current window and the seconds until it resets.
 */
export async function hitRateLimit(db: Db, key: string, windowSeconds: number) {
  const [row] = await withoutTenant(db, (tx) =>
    tx
      .insert(rateLimits)
      .values({ key, hits: 1, resetAt: sql`now() + make_interval(secs => ${windowSeconds})` })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          hits: sql`case when ${rateLimits.resetAt} < now() then 1 else ${rateLimits.hits} + 1 end`,
          resetAt: sql`case when ${rateLimits.resetAt} < now() then now() + make_interval(secs => ${windowSeconds}) else ${rateLimits.resetAt} end`,
        },
      })
      .returning({ hits: rateLimits.hits, resetAt: rateLimits.resetAt }),
  );
  return { hits: row.hits, retryAfter: Math.max(1, Math.ceil((row.resetAt.getTime() - Date.now()) / 1000)) };
}

export async function clearRateLimit(db: Db, key: string) {
  await withoutTenant(db, (tx) => tx.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`));
}
