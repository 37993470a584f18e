import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { HttpError } from '../http-error';
import { StaleEdit } from '../stale-edit';
import { ReplayedResponse } from './idempotency';
import { pgCode } from '../db/pg-code';

/** What a client gets when the database is out of reach: our words, never the driver's (decision 023). */
export const UNAVAILABLE = 'Service temporarily unavailable, please retry';

/** The one error shape of DESIGN section 7: `{ error, issues? }`, never a stack trace or SQL. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    // A 5xx body also names the request (decision 067): the operator finds its log lines by it.
    const failed = (status: number, body: { error: string }) => reply.status(status).send({ ...body, requestId: req.id });
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation.map((v) => {
        const path = v.instancePath.split('/').filter(Boolean).join('.');
        // `null`, a string, a number or an array where an object is expected; a multipart body on a JSON route.
        const wholeBody = err.validationContext === 'body' && path === '' && v.message === 'Expected object';
        return { path, message: wholeBody ? 'Request body must be a JSON object' : (v.message ?? 'Invalid value') };
      });
      return reply.status(400).send({ error: issues[0]?.message ?? 'Invalid request', issues });
    }
    if (err instanceof ReplayedResponse) {
      return reply.status(err.status).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(err.body);
    }
    if (err instanceof HttpError) {
      const current = err instanceof StaleEdit ? { current: err.current } : {};
      const id = err.statusCode >= 500 ? { requestId: req.id } : {};
      return reply.status(err.statusCode).send({ error: err.message, ...(err.issues ? { issues: err.issues } : {}), ...current, ...id });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err }, 'response did not match its schema');
      return failed(500, { error: 'Internal server error' });
    }
    const db = databaseError(pgCode(err));
    if (db) {
      if (db.status >= 500)
        req.log.warn(
          { err, sqlState: pgCode(err), reason: TIME_LIMITS[pgCode(err) ?? ''] },
          TIME_LIMITS[pgCode(err) ?? ''] ? 'database time limit reached' : 'database refused the request',
        );
      return db.status >= 500 ? failed(db.status, { error: db.message }) : reply.status(db.status).send({ error: db.message });
    }
    const upload = multipartError(err, /^multipart\//i.test(req.headers['content-type'] ?? ''));
    if (upload) return reply.status(upload.status).send({ error: upload.message });
    const status = err.statusCode ?? 500;
    if (status >= 500) {
      req.log.error({ err }, 'request failed');
      // A lost database connection is temporary: say so, and let the client retry.
      if (isConnectionError(err)) return failed(503, { error: UNAVAILABLE });
      return failed(500, { error: 'Internal server error' });
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

/**
 * PostgreSQL's refusals that a request can cause, by SQLSTATE (decision 023 has the table): exact codes
 * first, then their class. Anything else from the database stays a 500 (a bug, logged).
 */
const DATABASE_ERRORS: Record<string, { status: number; message: string }> = {
  // Class 23, integrity constraints.
  '23505': { status: 409, message: 'A record with these details already exists' },
  '23503': { status: 409, message: 'This record is used by other records' },
  '23001': { status: 409, message: 'This record is used by other records' },
  '23P01': { status: 409, message: 'This conflicts with an existing record' },
  '23502': { status: 400, message: 'A required value is missing' },
  '23514': { status: 400, message: 'Invalid value' },
  '23': { status: 409, message: 'This change conflicts with existing records' },
  // Class 22, data exceptions: a value the column or function cannot take.
  '22001': { status: 400, message: 'Value is too long' },
  // NUL bytes and the like cannot be stored in PostgreSQL text.
  '22021': { status: 400, message: 'Text contains characters that are not allowed' },
  '22P05': { status: 400, message: 'Text contains characters that are not allowed' },
  '22': { status: 400, message: 'Invalid value' },
  // Class 54, program limits: a value too big for an index entry or a function.
  '54': { status: 400, message: 'Value is too long' },
  // Concurrency and load: a retry succeeds.
  '40001': { status: 503, message: UNAVAILABLE },
  '40P01': { status: 503, message: UNAVAILABLE },
  // Time limits (decision 062): a statement over statement_timeout, a lock waited for past lock_timeout, a
  // transaction left idle past idle_in_transaction_session_timeout (PostgreSQL then ends the session).
  '57014': { status: 503, message: 'The database took too long to answer, please retry' },
  '55P03': { status: 503, message: 'A record is busy (locked by other work), please retry' },
  '25P03': { status: 503, message: 'The database ended an idle transaction, please retry' },
  '53': { status: 503, message: UNAVAILABLE },
  '08': { status: 503, message: UNAVAILABLE },
  '57P01': { status: 503, message: UNAVAILABLE },
  '57P02': { status: 503, message: UNAVAILABLE },
  '57P03': { status: 503, message: UNAVAILABLE },
};

/** The time limits by SQLSTATE, named in the log line of a request that reached one. */
const TIME_LIMITS: Record<string, string> = { '57014': 'statement_timeout', '55P03': 'lock_timeout', '25P03': 'idle_in_transaction_session_timeout' };

/** The status and our message for a PostgreSQL error code, or undefined when it is not one we map. */
export function databaseError(code: string | undefined) {
  if (!code) return undefined;
  return DATABASE_ERRORS[code] ?? DATABASE_ERRORS[code.slice(0, 2)];
}

/**
 * A multipart body the parser could not read: cut short, without a boundary, or over a limit. busboy's
 * errors carry no code, only these messages; they come from reading the request, never from the database.
 */
function multipartError(err: FastifyError, multipart: boolean): { status: number; message: string } | undefined {
  switch (err.code) {
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return { status: 413, message: 'Too many form fields' };
    case 'FST_FILES_LIMIT':
      return { status: 413, message: 'Too many files' };
    case 'FST_PROTO_VIOLATION':
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return { status: 400, message: 'Malformed multipart body' };
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return { status: 415, message: 'Unsupported content type' };
  }
  // A body cut short ends the file stream early: the reader sees a premature close.
  if (multipart && err.code === 'ERR_STREAM_PREMATURE_CLOSE') return { status: 400, message: 'Malformed multipart body' };
  // "Part terminated early due to unexpected end of multipart data": the body ended before its closing boundary.
  if (
    !err.code &&
    /^(Unexpected end of (form|file|multipart data)|(Part|Preamble) terminated early|Malformed part header|Multipart: Boundary not found|Unsupported content type)/.test(
      err.message ?? '',
    )
  ) {
    return { status: 400, message: 'Malformed multipart body' };
  }
  return undefined;
}

/** The database is out of reach: a dropped or refused connection, a pool that cannot connect, a stopped PGlite. */
export function isConnectionError(err: unknown): boolean {
  const seen = new Set<unknown>();
  let e = err as { code?: string; message?: string; cause?: unknown } | undefined;
  while (e && !seen.has(e)) {
    seen.add(e);
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH'].includes(e.code ?? '')) return true;
    if (databaseError(typeof e.code === 'string' ? e.code : undefined)?.status === 503) return true;
    if (
      /Connection terminated|connection.*(closed|ended)|timeout exceeded when trying to connect|not queryable|terminating connection|Cannot use a pool after calling end|embedded database (stopped|connection is closed)|PGlite is closed|ECONNRESET|ECONNREFUSED/i.test(
        e.message ?? '',
      )
    )
      return true;
    e = e.cause as typeof e;
  }
  return false;
}
