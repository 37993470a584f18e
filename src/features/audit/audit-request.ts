import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../server/db/client';
import { withTenant } from '../../server/db/client';
import type { AuditContext } from './audit-context';
import { actionOf, appendAudit, type AuditWrite } from './audit.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the request's audit row is written (in its write transaction); else `onSend` writes one. */
    audited?: boolean;
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const isWrite = (method: string) => WRITES.has(method);

/** The route's record when no service named one: the last numeric path parameter and the route's first word. */
function routeRecord(req: FastifyRequest, action: string) {
  const params = (req.params ?? {}) as Record<string, unknown>;
  const ids = Object.entries(params).filter(([, v]) => /^\d{1,9}$/.test(String(v)));
  if (!ids.length) return [];
  const [, id] = ids[ids.length - 1];
  const type = (req.routeOptions.url ?? '').split('/').filter((s) => s && s !== 'api' && !s.startsWith(':'))[0] ?? 'record';
  return [{ entityType: type, entityId: Number(id), action }];
}

/** Who, from where, which route: the request's side of an audit row. */
export function auditWriteOf(req: FastifyRequest, ctx: AuditContext | null, overrides: Partial<AuditWrite> = {}): AuditWrite {
  const auth = req.auth as FastifyRequest['auth'] | null;
  const records = ctx?.records ?? [];
  const action = overrides.action ?? actionOf(req.method, records, ctx?.action);
  const ua = req.headers['user-agent'];
  return {
    actorKind: auth ? (auth.apiKeyId ? 'api-key' : 'user') : 'public',
    userId: auth?.userId ?? null,
    apiKeyId: auth?.apiKeyId ?? null,
    ip: req.ip,
    userAgent: typeof ua === 'string' ? ua : null,
    method: req.method,
    route: req.routeOptions.url ?? req.url.split('?')[0],
    action,
    records: records.length ? records : routeRecord(req, action),
    input: req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) ? req.body : undefined,
    ...(ctx?.dropped ? { input: { recordsNotListed: ctx.dropped } } : {}),
    ...overrides,
  };
}

/**
 * Appends the request's row in its own write transaction (the `req.inTenant` path) when its services noted a
 * change; a scope that noted none (a route's look-up before its upload, a setting without a history) leaves the
 * row to `onSend`, which writes it only when the request succeeded.
 */
export async function auditInTransaction(tx: Tx, orgId: number, req: FastifyRequest, ctx: AuditContext) {
  if (!ctx.records.length && !ctx.dropped && !ctx.action) return;
  await appendAudit(tx, orgId, auditWriteOf(req, ctx));
  req.audited = true;
}

/** The user id of an access token this server just signed (a sign-in's answer): its `sub`, not verified again. */
function signedInUser(payload: unknown): number | null {
  try {
    const body = typeof payload === 'string' ? (JSON.parse(payload) as { accessToken?: string }) : null;
    const part = body?.accessToken?.split('.')[1];
    if (!part) return null;
    const sub = Number((JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as { sub?: string }).sub);
    return Number.isSafeInteger(sub) ? sub : null;
  } catch {
    return null;
  }
}

const SIGN_IN = '/api/login';

/**
 * `onSend` of every route (decision 078): a successful write that did not go through `req.inTenant` (sign-in,
 * sign-out, password change, public routes writing with their own transactions) gets its row here, in a write of
 * its own; a refused sign-in too. A write whose organisation is unknown (sign-up) has none.
 */
export async function auditAfterWrite(db: Db, req: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (req.audited || !isWrite(req.method) || !req.routeOptions.url?.startsWith('/api')) return;
  const route = req.routeOptions.url;
  const status = reply.statusCode;
  const orgId = (req.auth as FastifyRequest['auth'] | null)?.orgId ?? req.org?.id;
  if (!orgId) return;
  let entry: AuditWrite;
  const email = (req.body as { email?: unknown } | undefined)?.email;
  const actorLabel = typeof email === 'string' ? email.toLowerCase() : null;
  if (route === SIGN_IN) {
    if (status === 401 || (status >= 200 && status < 300)) {
      const userId = status < 300 ? signedInUser(payload) : null;
      entry = auditWriteOf(req, null, {
        action: status < 300 ? 'sign-in' : 'sign-in-failed',
        userId,
        actorKind: userId ? 'user' : 'public',
        actorLabel,
        records: [],
      });
    } else return;
  } else if (status < 400) {
    entry = auditWriteOf(req, null, { actorLabel });
  } else return;
  try {
    await withTenant(db, orgId, (tx) => appendAudit(tx, orgId, entry));
    req.audited = true;
  } catch (err) {
    req.log.error({ err }, 'audit row not written');
  }
}
