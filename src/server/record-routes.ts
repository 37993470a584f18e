import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '../shared/pagination';
import type { z } from '../shared/zod-setup';
import type { AccessClaims } from '../features/auth/tokens';
import type { Tx } from './db/client';
import type { Access } from './plugins/request-context';
import { removingFiles } from './uploads/storage';

export interface RecordWrite<S extends z.ZodType> {
  /** The body's schema: the service gets its output. */
  body: S;
  /** The answer's schema: under 200, or under 201 when `created`. */
  response: z.ZodType;
  access: Access;
  /** The write adds something (a line, an order): 201. */
  created?: boolean;
  /** The write may let files go: it runs in `removingFiles` (decision 024). */
  removesFiles?: boolean;
}

/**
 * A write on one record of the organisation, `<path>` with `:id`, as a feature's own routes mostly have it: params
 * `{ id }`, the body and the answer checked by their schemas, and the service called in the tenant's transaction as
 * `write(tx, orgId, actor, id, body)`. Reads and other params stay written out in the routes file.
 */
function recordWrite<S extends z.ZodType>(
  appBase: FastifyInstance,
  method: 'put' | 'post',
  path: string,
  route: RecordWrite<S>,
  write: (tx: Tx, orgId: number, actor: AccessClaims, id: number, body: z.output<S>) => Promise<unknown>,
) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  const status = route.created ? 201 : 200;
  const schema = { params: idParamsSchema, body: route.body, response: { [status]: route.response } };
  app[method](path, { schema, config: { access: route.access } }, async (req, reply) => {
    // (the type provider widens a generic schema's output; the body is exactly `z.output<S>`, hence the cast)
    const work = (tx: Tx) => write(tx, req.auth.orgId, req.auth, req.params.id, req.body as z.output<S>);
    const answer = await (route.removesFiles ? removingFiles(app.deps.storage, req, work) : req.inTenant(work));
    return route.created ? reply.status(201).send(answer) : answer;
  });
}

/** A delete of one record: the list query it answers with (the refreshed list), or none. */
export interface RecordDelete<S extends z.ZodType> {
  query?: S;
  response: z.ZodType;
  access: Access;
  /** The record has files: the delete runs in `removingFiles` (decision 024). */
  removesFiles?: boolean;
}

/**
 * `DELETE <path>` with `:id`: the query (when given) and the answer checked by their schemas, and the service called
 * in the tenant's transaction as `remove(tx, orgId, actor, id, query)`.
 */
function recordDelete<S extends z.ZodType>(
  appBase: FastifyInstance,
  path: string,
  route: RecordDelete<S>,
  remove: (tx: Tx, orgId: number, actor: AccessClaims, id: number, query: z.output<S>) => Promise<unknown>,
) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  const schema = { params: idParamsSchema, ...(route.query ? { querystring: route.query } : {}), response: { 200: route.response } };
  app.delete(path, { schema, config: { access: route.access } }, (req) => {
    const work = (tx: Tx) => remove(tx, req.auth.orgId, req.auth, req.params.id, req.query as z.output<S>);
    return route.removesFiles ? removingFiles(app.deps.storage, req, work) : req.inTenant(work);
  });
}

/** An add to a list: its body, the list query it answers with (the refreshed list), its answer (201), who. */
export interface RecordAdd<S extends z.ZodType, Q extends z.ZodType> {
  body: S;
  query: Q;
  response: z.ZodType;
  access: Access;
}

/** `POST <path>`: body, query and answer checked by their schemas, the service called as `add(tx, orgId, actor, body, query)`; 201. */
function recordAdd<S extends z.ZodType, Q extends z.ZodType>(
  appBase: FastifyInstance,
  path: string,
  route: RecordAdd<S, Q>,
  add: (tx: Tx, orgId: number, actor: AccessClaims, body: z.output<S>, query: z.output<Q>) => Promise<unknown>,
) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  const schema = { querystring: route.query, body: route.body, response: { 201: route.response } };
  app.post(path, { schema, config: { access: route.access } }, async (req, reply) =>
    reply.status(201).send(await req.inTenant((tx) => add(tx, req.auth.orgId, req.auth, req.body as z.output<S>, req.query as z.output<Q>))),
  );
}

/** `recordWrite` bound to a routes plugin: `writes.put(path, route, write)`, `writes.post(path, route, write)`, `writes.add(path, route, add)` and
 * `writes.delete(path, route, remove)`. */
export function recordWrites(app: FastifyInstance) {
  type Write<S extends z.ZodType> = Parameters<typeof recordWrite<S>>[4];
  type Remove<S extends z.ZodType> = Parameters<typeof recordDelete<S>>[3];
  type Add<S extends z.ZodType, Q extends z.ZodType> = Parameters<typeof recordAdd<S, Q>>[3];
  return {
    put: <S extends z.ZodType>(path: string, route: RecordWrite<S>, write: Write<S>) => recordWrite(app, 'put', path, route, write),
    post: <S extends z.ZodType>(path: string, route: RecordWrite<S>, write: Write<S>) => recordWrite(app, 'post', path, route, write),
    delete: <S extends z.ZodType>(path: string, route: RecordDelete<S>, remove: Remove<S>) => recordDelete(app, path, route, remove),
    add: <S extends z.ZodType, Q extends z.ZodType>(path: string, route: RecordAdd<S, Q>, add: Add<S, Q>) => recordAdd(app, path, route, add),
  };
}
