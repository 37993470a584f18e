import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { HttpError } from '../http-error';
import { StaleEdit } from '../stale-edit';
import { ReplayedResponse } from './idempotency';

/** The one error shape of DESIGN section 7: `{ error, issues? }`, never a stack trace or SQL. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation.map((v) => ({
        path: [...v.instancePath.split('/').filter(Boolean)].join('.'),
        message: v.message ?? 'Invalid value',
      }));
      return reply.status(400).send({ error: issues[0]?.message ?? 'Invalid request', issues });
    }
    if (err instanceof ReplayedResponse) {
      return reply.status(err.status).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(err.body);
    }
    if (err instanceof HttpError) {
      const current = err instanceof StaleEdit ? { current: err.current } : {};
      return reply.status(err.statusCode).send({ error: err.message, ...(err.issues ? { issues: err.issues } : {}), ...current });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err }, 'response did not match its schema');
      return reply.status(500).send({ error: 'Internal server error' });
    }
    const code = pgCode(err);
    if (code === '23505') return reply.status(409).send({ error: 'A record with these details already exists' });
    if (code === '23503') return reply.status(409).send({ error: 'This record is used by other records' });
    if (code === '22P02' || code === '22003' || code === '22007' || code === '22008') return reply.status(400).send({ error: 'Invalid value' });
    // NUL bytes and the like cannot be stored in PostgreSQL text.
    if (code === '22021' || code === '22P05') return reply.status(400).send({ error: 'Text contains characters that are not allowed' });
    const status = err.statusCode ?? 500;
    if (status >= 500) {
      req.log.error({ err }, 'request failed');
      // A lost database connection is temporary: say so, and let the client retry.
      if (isConnectionError(err)) return reply.status(503).send({ error: 'Service temporarily unavailable, please retry' });
      return reply.status(500).send({ error: 'Internal server error' });
    }
    // Fastify's own 4xx (body too large, bad JSON, wrong content type): its message carries no internals.
    const message =
      err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? 'Request body is too large'
        : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'Unsupported content type'
          : err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
            ? 'Request body is empty'
            : status === 429
              ? 'Too many requests, please try again later'
              : err.message.replace(/\n.*/s, '').slice(0, 200) || 'Bad request';
    return reply.status(status).send({ error: message });
  });

  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send({ error: 'Not found' });
  });
}

/** The PostgreSQL error code somewhere in the cause chain (Drizzle wraps driver errors). */
export function pgCode(err: unknown): string | undefined {
  let e = err as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

function isConnectionError(err: unknown): boolean {
  const seen = new Set<unknown>();
  let e = err as { code?: string; message?: string; cause?: unknown } | undefined;
  while (e && !seen.has(e)) {
    seen.add(e);
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P02', '57P03', '08006', '08003', '08001'].includes(e.code ?? '')) return true;
    if (/Connection terminated|connection.*(closed|ended)|timeout exceeded when trying to connect|not queryable|terminating connection|ECONNRESET|ECONNREFUSED/i.test(e.message ?? '')) return true;
    e = e.cause as typeof e;
  }
  return false;
}
