import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import type { Db, ReadTx, Tx } from '../db/client';
import { withoutTenant, withTenant } from '../db/client';
import { organizations } from '../db/schema';
import { accessTokenVerifier, type AccessClaims, type Role } from '../../features/auth/tokens';
import { currentRole } from '../../features/auth/auth.service';
import { HttpError, unauthorized } from '../http-error';
import { subdomainOf } from '../../shared/subdomain';
import { apiKeyCaller, isApiKey, touchApiKey } from '../../features/api-keys/api-keys.service';
import { addressKey, hitRateLimit, overRateLimit, TOO_MANY_REQUESTS } from '../rate-limit';
import { attachAudit, newAuditContext } from '../../features/audit/audit-context';
import { auditAfterWrite, auditInTransaction } from '../../features/audit/audit-request';

/** Who may call a route: 'public', or the roles allowed. Every /api route must declare it. */
export type Access = 'public' | readonly Role[];

export const EVERYONE: readonly Role[] = ['admin', 'manager', 'worker'];
export const MANAGERS: readonly Role[] = ['admin', 'manager'];
export const ADMINS: readonly Role[] = ['admin'];

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** `false`: an API key may not call this route (the caller's own account: password, profile; decision 043). */
    apiKeys?: false;
  }
  interface FastifyInstance {
    /** Every /api route with its declared access, for the route walker test and docs. */
    apiRoutes: { method: string; url: string; access: Access; body?: unknown; querystring?: unknown }[];
  }
  interface FastifyRequest {
    /** The organisation named by the request's host, when there is one. */
    org: { id: number; subdomain: string } | null;
    /** The verified caller; set on every non-public route. */
    auth: AccessClaims;
    /**
     * Runs `fn` in a write transaction of its own walled to the caller's organisation (decision 026); the
     * scope ends with `fn`. Not under GET or HEAD: those read through `req.read`. `{ long: true }`: the longer
     * statement timeout (an organisation import; decision 069).
     */
    inTenant<T>(fn: (tx: Tx) => Promise<T>, options?: { long?: boolean }): Promise<T>;
    /**
     * Runs `fn` in a read scope of its own walled to the caller's organisation (selects and raw statements;
     * the database refuses writes). Its type lets a GET route call only functions that take `ReadTx`.
     * `{ long: true }`: the longer statement timeout (an export's batches; decision 062).
     */
    read<T>(fn: (tx: ReadTx) => Promise<T>, options?: { long?: boolean }): Promise<T>;
  }
}

/**
 * The organisation and caller on every later log line of the request, its "request completed" line included
 * (decision 067): a child logger for the request and its reply (Fastify logs the completion through the reply's).
 */
function bindLog(req: FastifyRequest, reply: FastifyReply, ids: { orgId: number; userId?: number; apiKeyId?: number }) {
  const child = req.log.child(ids);
  req.log = child;
  reply.log = child;
}

/** Subdomains never change owner, so lookups are cached briefly per process (the API stays stateless). */
const orgCache = new Map<string, { org: { id: number; subdomain: string } | null; until: number }>();
const ORG_CACHE_MS = 30_000;

export async function findOrgBySubdomain(db: Db, subdomain: string) {
  const key = subdomain.toLowerCase();
  const hit = orgCache.get(key);
  if (hit && hit.until > Date.now() && hit.org) return hit.org;
  const org = await lookupOrg(db, key);
  if (orgCache.size > 10_000) orgCache.clear();
  // Only found organisations are cached: a subdomain signed up a moment ago must work at once.
  if (org) orgCache.set(key, { org, until: Date.now() + ORG_CACHE_MS });
  return org;
}

async function lookupOrg(db: Db, subdomain: string) {
  const [org] = await withoutTenant(db, (tx) =>
    tx
      .select({ id: organizations.id, subdomain: organizations.subdomain })
      .from(organizations)
      .where(eq(sql`lower(${organizations.subdomain})`, subdomain.toLowerCase())),
  );
  return org ?? null;
}

/**
 * Per request: the organisation from the host, the verified token (accepted only on its own
 * organisation's host), the route's declared roles, and `req.inTenant`.
 */
export const requestContext = fp(async (app: FastifyInstance, opts: { db: Db; baseDomain: string; jwtSecret: string }) => {
  const verifyToken = accessTokenVerifier(opts.jwtSecret);
  app.decorateRequest('org', null);
  app.decorateRequest('auth', null as unknown as AccessClaims);
  const orgOf = (req: FastifyRequest) => {
    const orgId = req.auth?.orgId ?? req.org?.id;
    if (!orgId) throw new HttpError(404, 'Organization not found');
    return orgId;
  };
  app.decorateRequest('inTenant', async function <T>(this: FastifyRequest, fn: (tx: Tx) => Promise<T>, options?: { long?: boolean }) {
    // A GET must not write (the types say so through `req.read`; this says it to code that casts).
    if (this.method === 'GET' || this.method === 'HEAD') throw new Error(`${this.method} ${this.url} writes: a GET reads through req.read`);
    // An Idempotency-Key is claimed inside the write it guards (decision 025).
    const around = this.aroundWrite;
    const orgId = orgOf(this);
    // The audit row of the write (decision 078): what its services noted on the tx, appended in the same transaction.
    const audited = async (tx: Tx) => {
      const ctx = newAuditContext();
      const result = await fn(attachAudit(tx, ctx));
      await auditInTransaction(tx, orgId, this, ctx);
      return result;
    };
    return withTenant(opts.db, orgId, around ? (tx) => around(tx, audited) : audited, { long: options?.long });
  });
  app.decorateRequest('read', async function <T>(this: FastifyRequest, fn: (tx: ReadTx) => Promise<T>, options?: { long?: boolean }) {
    return withTenant(opts.db, orgOf(this), fn, { readOnly: true, long: options?.long });
  });

  /**
   * The organisation of the host, then, unless the route is public, the caller: a verified token of this
   * organisation whose session is live and whose user still holds a role the route allows (decision 021).
   * It runs in onRequest, before any body is parsed, upload read or image decoded (decision 002).
   */
  const checkCaller = async (req: FastifyRequest, reply: FastifyReply) => {
    const sub = subdomainOf(req.headers.host, opts.baseDomain);
    req.org = sub ? await findOrgBySubdomain(opts.db, sub) : null;
    const access = req.routeOptions.config?.access;
    if (access === undefined || access === 'public') {
      if (req.org) bindLog(req, reply, { orgId: req.org.id });
      return;
    }
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7) : undefined;
    if (token && isApiKey(token)) return checkKey(req, reply, token, access);
    const claims = token ? await verifyToken(token) : null;
    if (!claims || !req.org || claims.orgId !== req.org.id) throw unauthorized();
    // Logout, deletion, deactivation and a password change end a token at once, not when it expires.
    const role = await currentRole(opts.db, claims);
    if (!role) throw unauthorized();
    bindLog(req, reply, { orgId: claims.orgId, userId: claims.userId });
    // Rights are the user's now: a demotion applies to the next request, a promotion too.
    if (!access.includes(role)) throw new HttpError(403, 'You do not have permission to do this');
    req.auth = role === claims.role ? claims : { ...claims, role };
  };

  /**
   * A caller with an API key (decision 043): the key is read on every request (a revocation applies to the next
   * one; unknown keys are counted per client address, and past their limit the address waits), counted against
   * its own limit, and then meets the same role check as a signed-in user. A read-only key is refused on every
   * method but GET.
   */
  const checkKey = async (req: FastifyRequest, reply: FastifyReply, key: string, access: readonly Role[]) => {
    // An address that sent too many unknown keys waits before any key of it is read again (guessing, floods).
    const unknown = req.server.deps.config.routeLimits.apiKeyUnknown;
    const unknownKey = `apiKeyUnknown:ip:${addressKey(req.ip)}`;
    const wait = await overRateLimit(opts.db, unknownKey, unknown.max);
    if (wait !== null) {
      reply.header('retry-after', String(wait));
      throw new HttpError(429, TOO_MANY_REQUESTS);
    }
    const org = req.org;
    const caller = org ? await apiKeyCaller(opts.db, org.id, key) : null;
    if (!caller || !org) {
      await hitRateLimit(opts.db, unknownKey, unknown.windowSeconds);
      throw unauthorized();
    }
    const { max, windowSeconds } = req.server.deps.config.routeLimits.apiKey;
    const hit = await hitRateLimit(opts.db, `apiKey:${org.id}:${caller.keyId}`, windowSeconds);
    if (hit.hits > max) {
      reply.header('retry-after', String(hit.retryAfter));
      throw new HttpError(429, TOO_MANY_REQUESTS);
    }
    if (req.routeOptions.config.apiKeys === false) throw new HttpError(403, 'An API key cannot call this route');
    if (caller.readOnly && req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(403, 'This API key is read-only');
    if (!access.includes(caller.claims.role)) throw new HttpError(403, 'You do not have permission to do this');
    if (caller.stale) await touchApiKey(opts.db, org.id, caller.keyId);
    req.auth = caller.claims;
    bindLog(req, reply, { orgId: caller.claims.orgId, userId: caller.claims.userId, apiKeyId: caller.keyId });
  };

  // A successful write that wrote no audit row in its transaction (sign-in, its own transactions), and a refused sign-in.
  app.addHook('onSend', async (req, reply, payload) => {
    await auditAfterWrite(opts.db, req, reply, payload);
    return payload;
  });

  // Fail at start-up, not in production, when a route forgets to say who may call it.
  const apiRoutes: FastifyInstance['apiRoutes'] = [];
  app.decorate('apiRoutes', apiRoutes);
  app.addHook('onRoute', (route) => {
    const isApi = route.url.startsWith('/api') && !route.url.startsWith('/api/docs');
    const access = route.config?.access;
    if (isApi && access === undefined) throw new Error(`Route ${route.method} ${route.url} does not declare config.access`);
    if (access === undefined || (!isApi && access === 'public')) return;
    if (isApi) {
      const schema = route.schema as { body?: unknown; querystring?: unknown } | undefined;
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD') apiRoutes.push({ method, url: route.url, access, body: schema?.body, querystring: schema?.querystring });
      }
    }
    // The checks hang on the route, not on a prefix of the raw URL: whatever spelling the router matched
    // (`/%61pi/...`, an absolute-form request line), the route's own hook runs first.
    route.onRequest = [checkCaller, ...[route.onRequest ?? []].flat()];
  });
});
