import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from './db/client';
import { withoutTenant } from './db/client';
import { rateLimits } from './db/schema';
import { HttpError } from './http-error';

/** The app's usual answer to too many requests (the error handler says the same for Fastify's own 429s). */
export const TOO_MANY_REQUESTS = 'Too many requests, please try again later';

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

/** Seconds until `key`'s window ends when it already holds `max` hits or more; null below that (counts nothing). */
export async function overRateLimit(db: Db, key: string, max: number): Promise<number | null> {
  const [row] = await withoutTenant(db, (tx) =>
    tx
      .select({ hits: rateLimits.hits, resetAt: rateLimits.resetAt })
      .from(rateLimits)
      .where(and(eq(rateLimits.key, key), gt(rateLimits.resetAt, sql`now()`))),
  );
  return row && row.hits >= max ? Math.max(1, Math.ceil((row.resetAt.getTime() - Date.now()) / 1000)) : null;
}

export async function clearRateLimit(db: Db, key: string) {
  await withoutTenant(db, (tx) => tx.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`));
}

/** Keeps `key` alive for `seconds` from now (a remembered fact, not a count). */
async function remember(db: Db, key: string, seconds: number) {
  const resetAt = sql`now() + make_interval(secs => ${seconds})`;
  await withoutTenant(db, (tx) => tx.insert(rateLimits).values({ key, hits: 1, resetAt }).onConflictDoUpdate({ target: rateLimits.key, set: { resetAt } }));
}

async function remembered(db: Db, key: string) {
  const rows = await withoutTenant(db, (tx) =>
    tx
      .select({ key: rateLimits.key })
      .from(rateLimits)
      .where(and(eq(rateLimits.key, key), gt(rateLimits.resetAt, sql`now()`))),
  );
  return rows.length > 0;
}

/**
 * The part of a client address that limits count: an IPv4 address whole, an IPv6 address by its /64
 * network (one subscriber's usual allocation, which holds 2^64 addresses to rotate through).
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!ip.includes(':')) return ip;
  const [head, tail = ''] = ip.toLowerCase().split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export interface LoginLimits {
  /** Attempts per client address, any account. */
  perIp: number;
  /** Failed attempts per account from one client address. */
  perAccount: number;
  /**
   * Failed attempts per account from all addresses together; past it, only addresses that signed in to
   * the account before (within KNOWN_ADDRESS_DAYS) may still try. Default: five times `perAccount`.
   */
  perAccountAllAddresses?: number;
  windowSeconds: number;
}

/** How long a client address that signed in to an account stays "known" to that account. */
export const KNOWN_ADDRESS_DAYS = 30;

const tooManyLogins = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return new HttpError(429, `Too many login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
};

/**
 * Counts one sign-in attempt against the limits (decision 022) before the password is checked, and throws
 * 429 past them. A stranger's failures count against their own address and the account as a whole, never
 * against the owner's address: they cannot lock the owner's usual client out. Call `succeeded` after a
 * correct password.
 */
export async function startLoginAttempt(db: Db, orgId: number, email: string, ip: string, limits: LoginLimits) {
  const account = `login:account:${orgId}:${email}`;
  const address = addressKey(ip);
  const pair = `${account}:ip:${address}`;
  const known = `login:known:${orgId}:${email}:ip:${address}`;
  const [ipHit, pairHit, accountHit] = [
    await hitRateLimit(db, `login:ip:${address}`, limits.windowSeconds),
    await hitRateLimit(db, pair, limits.windowSeconds),
    await hitRateLimit(db, account, limits.windowSeconds),
  ];
  if (ipHit.hits > limits.perIp) throw tooManyLogins(ipHit.retryAfter);
  if (pairHit.hits > limits.perAccount) throw tooManyLogins(pairHit.retryAfter);
  const ceiling = limits.perAccountAllAddresses ?? limits.perAccount * 5;
  if (accountHit.hits > ceiling && !(await remembered(db, known))) throw tooManyLogins(accountHit.retryAfter);
  return {
    async succeeded() {
      // The account-wide count stays: an owner signing in does not reset a stranger's budget.
      await clearRateLimit(db, pair);
      await remember(db, known, KNOWN_ADDRESS_DAYS * 86400);
    },
  };
}

export type RouteLimitName =
  | 'signup'
  | 'searchSubdomain'
  | 'demoRequest'
  | 'verifyPassword'
  | 'tokenCheck'
  | 'apiKey'
  | 'apiKeyUnknown'
  | 'portalSubmit'
  | 'portalOrgSubmit'
  | 'portalRead'
  | 'sharedWorkOrder'
  | 'sharedWorkOrderWrite'
  | 'shareCode'
  | 'ssoStart'
  | 'ssoFinish';
export type RouteLimits = Record<RouteLimitName, { max: number; windowSeconds: number }>;

/**
 * An onRequest hook that counts the request under `name` and answers 429 past the configured limit.
 * Counted per client address, or per signed-in user for routes behind sign-in.
 */
export function throttle(name: RouteLimitName, per: 'ip' | 'user' = 'ip') {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const { config, database } = req.server.deps;
    const { max, windowSeconds } = config.routeLimits[name];
    const who = per === 'user' && req.auth ? `user:${req.auth.orgId}:${req.auth.userId}` : `ip:${addressKey(req.ip)}`;
    const hit = await hitRateLimit(database.db, `${name}:${who}`, windowSeconds);
    if (hit.hits > max) {
      reply.header('retry-after', String(hit.retryAfter));
      throw new HttpError(429, TOO_MANY_REQUESTS);
    }
  };
}
