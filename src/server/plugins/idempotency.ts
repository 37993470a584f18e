import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, onSendHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import type { Multipart, MultipartFields } from '@fastify/multipart';
import { and, eq, lt } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { withTenant } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { HttpError } from '../http-error';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when a POST carries an Idempotency-Key: `req.inTenant` runs its write transactions through it. */
    aroundWrite: (<T>(tx: Tx, fn: (tx: Tx) => Promise<T>) => Promise<T>) | null;
  }
}

const KEY_PATTERN = /^[A-Za-z0-9_\-:.]{8,128}$/;

/** Thrown inside the write transaction when the key's request already committed: the error handler sends its answer again. */
export class ReplayedResponse extends Error {
  constructor(
    public readonly status: number,
    public readonly body: string | null,
  ) {
    super('replayed');
  }
}

/**
 * `Idempotency-Key` on a POST (decision 025). The key is claimed in the same transaction as the write it
 * guards, and the answer is stored before that transaction commits: after a crash or a lost connection the
 * key is either absent (nothing was written: a retry runs) or complete (a retry gets the same answer). There
 * is no "in progress" left behind. A concurrent retry waits on the first one's row lock, then replays it.
 */
export const idempotency = fp(async (app: FastifyInstance, opts: { db: Db }) => {
  app.decorateRequest('aroundWrite', null);
  const stored = new WeakMap<FastifyRequest, { status: number; body: string | null }>();

  const preHandler: preHandlerAsyncHookHandler = async (req, reply) => {
    const key = req.headers['idempotency-key'];
    if (typeof key !== 'string' || !req.auth) return;
    if (!KEY_PATTERN.test(key)) throw new HttpError(400, 'Idempotency-Key must be 8 to 128 letters, digits, dashes or underscores');
    const { orgId, userId } = req.auth;
    const route = req.routeOptions.url ?? req.url;
    // A multipart body is read by the handler after this hook: its fingerprint is taken at the claim.
    const multipartBody = req.isMultipart() ? tapMultipart(req) : null;
    // Keys are kept for a day.
    await withTenant(opts.db, orgId, (tx) =>
      tx.delete(idempotencyKeys).where(and(eq(idempotencyKeys.orgId, orgId), lt(idempotencyKeys.createdAt, new Date(Date.now() - 86400_000)))),
    );
    req.aroundWrite = async (tx, fn) => {
      // Later write transactions of the same request: the key was claimed by the first.
      if (stored.has(req)) return fn(tx);
      const where = and(eq(idempotencyKeys.orgId, orgId), eq(idempotencyKeys.key, key));
      const fingerprint = multipartBody ? { multipart: multipartBody() } : (req.body ?? null);
      const requestHash = createHash('sha256')
        .update(`${req.method} ${req.url}\n${JSON.stringify(fingerprint)}`)
        .digest('base64url');
      const inserted = await tx
        .insert(idempotencyKeys)
        .values({ orgId, key, userId, route, requestHash })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (!inserted.length) {
        const [row] = await tx.select().from(idempotencyKeys).where(where);
        if (!row || row.userId !== userId || row.route !== route || (row.requestHash !== null && row.requestHash !== requestHash)) {
          throw new HttpError(422, 'This Idempotency-Key was already used for another request');
        }
        // Only rows written before decision 025 can lack an answer.
        if (row.status === null) throw new HttpError(409, 'A request with this Idempotency-Key is still in progress');
        throw new ReplayedResponse(row.status, row.body);
      }
      const result = await fn(tx);
      const body = result === undefined ? null : JSON.stringify(result);
      await tx.update(idempotencyKeys).set({ status: reply.statusCode, body }).where(where);
      stored.set(req, { status: reply.statusCode, body });
      return result;
    };
  };

  // A handler that reshapes the transaction's result: keep the exact answer it sent (best effort, after commit).
  const onSend: onSendHookHandler = async (req, reply, payload) => {
    const kept = stored.get(req);
    if (!kept || reply.statusCode >= 500 || typeof payload !== 'string' || (payload === kept.body && reply.statusCode === kept.status)) return payload;
    const { orgId } = req.auth;
    const key = req.headers['idempotency-key'] as string;
    await withTenant(opts.db, orgId, (tx) =>
      tx
        .update(idempotencyKeys)
        .set({ status: reply.statusCode, body: payload })
        .where(and(eq(idempotencyKeys.orgId, orgId), eq(idempotencyKeys.key, key))),
    ).catch((err: unknown) => req.log.warn({ err }, 'could not store the exact idempotent answer'));
    return payload;
  };

  // Creates are POSTs: only their routes carry the hooks, so reads pay nothing for them.
  app.addHook('onRoute', (route) => {
    if (![route.method].flat().includes('POST')) return;
    route.preHandler = [...[route.preHandler ?? []].flat(), preHandler];
    route.onSend = [...[route.onSend ?? []].flat(), onSend];
  });
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64url');

/**
 * Follows what the handler reads of a multipart body (through `req.file`, `req.files` or `req.parts`, on this
 * request only) and returns its fingerprint so far: each field's name and value and each file's field, name and
 * a digest of its bytes, in the body's order. A retry builds another boundary, so the raw bytes are not it.
 * Upload routes read every file (`toBuffer`) before their write; a file not read by the claim counts as `null`.
 */
function tapMultipart(req: FastifyRequest): () => unknown[] {
  const bodies = new Set<MultipartFields>();
  const digests = new WeakMap<Multipart, string>();
  const tap = <P extends Multipart | undefined>(part: P): P => {
    if (!part) return part;
    bodies.add(part.fields);
    if (part.type === 'file') {
      const read = part.toBuffer.bind(part);
      part.toBuffer = async () => {
        const bytes = await read();
        digests.set(part, sha256(bytes));
        return bytes;
      };
    }
    return part;
  };
  const { file, files, parts } = req;
  req.file = async (options) => tap(await file.call(req, options));
  req.files = async function* (options) {
    for await (const part of files.call(req, options)) yield tap(part);
  };
  req.parts = async function* (options) {
    for await (const part of parts.call(req, options)) yield tap(part);
  };
  return () =>
    [...bodies].flatMap((fields) =>
      Object.entries(fields).flatMap(([name, value]) =>
        [value ?? []]
          .flat()
          .map((part) => (part.type === 'file' ? { name, file: part.filename, sha256: digests.get(part) ?? null } : { name, value: part.value })),
      ),
    );
}
