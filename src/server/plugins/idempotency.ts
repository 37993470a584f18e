import fp from 'fastify-plugin';
import type { FastifyInstance, onSendHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { withTenant } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { HttpError } from '../http-error';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey?: string;
  }
}

const KEY_PATTERN = /^[A-Za-z0-9_\-:.]{8,128}$/;

/**
 * `Idempotency-Key` on a POST: the first request with a key runs and its response is kept; a retry with the
 * same key (same user, same route) gets that response again instead of creating a duplicate.
 */
export const idempotency = fp(async (app: FastifyInstance, opts: { db: Db }) => {
  const preHandler: preHandlerAsyncHookHandler = async (req, reply) => {
    const key = req.headers['idempotency-key'];
    if (typeof key !== 'string' || !req.auth) return;
    if (!KEY_PATTERN.test(key)) throw new HttpError(400, 'Idempotency-Key must be 8 to 128 letters, digits, dashes or underscores');
    const { orgId, userId } = req.auth;
    const route = req.routeOptions.url ?? req.url;
    const outcome = await withTenant(opts.db, orgId, async (tx) => {
      // Keys are kept for a day.
      await tx.delete(idempotencyKeys).where(and(eq(idempotencyKeys.orgId, orgId), lt(idempotencyKeys.createdAt, new Date(Date.now() - 86400_000))));
      const inserted = await tx.insert(idempotencyKeys).values({ orgId, key, userId, route }).onConflictDoNothing().returning({ key: idempotencyKeys.key });
      if (inserted.length) return 'run' as const;
      const [row] = await tx.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.orgId, orgId), eq(idempotencyKeys.key, key)));
      return row;
    });
    if (outcome === 'run') {
      req.idempotencyKey = key;
      return;
    }
    if (!outcome || outcome.userId !== userId || outcome.route !== route) {
      throw new HttpError(422, 'This Idempotency-Key was already used for another request');
    }
    if (outcome.status === null) throw new HttpError(409, 'A request with this Idempotency-Key is still in progress');
    return reply.status(outcome.status).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(outcome.body);
  };

  const onSend: onSendHookHandler = async (req, reply, payload) => {
    const key = req.idempotencyKey;
    if (!key) return payload;
    const { orgId } = req.auth;
    const where = and(eq(idempotencyKeys.orgId, orgId), eq(idempotencyKeys.key, key));
    await withTenant(opts.db, orgId, (tx) =>
      reply.statusCode >= 500
        ? tx.delete(idempotencyKeys).where(where)
        : tx.update(idempotencyKeys).set({ status: reply.statusCode, body: typeof payload === 'string' ? payload : null }).where(where),
    );
    return payload;
  };

  // Creates are POSTs: only their routes carry the hooks, so reads pay nothing for them.
  app.addHook('onRoute', (route) => {
    if (![route.method].flat().includes('POST')) return;
    route.preHandler = [...[route.preHandler ?? []].flat(), preHandler];
    route.onSend = [...[route.onSend ?? []].flat(), onSend];
  });
});
