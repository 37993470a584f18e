import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '../shared/pagination';
import { z } from '../shared/zod-setup';
import type { ReadTx, Tx } from './db/client';
import type { Access } from './plugins/request-context';
import { removingFiles } from './uploads/storage';

/** The response schemas of a family's routes (`listAnswers` of src/shared/pagination.ts, or the feature's own). */
export interface CrudAnswers {
  list: z.ZodType;
  one?: z.ZodType;
  add: z.ZodType;
  update: z.ZodType;
  remove: z.ZodType;
}

/** The service functions behind the routes: `(tx, orgId, …)` as every service has them (AGENTS.md). */
export interface CrudService<Q, B> {
  list: (tx: ReadTx, orgId: number, query: Q) => Promise<unknown>;
  add: (tx: Tx, orgId: number, actorId: number, input: B, query: Q) => Promise<unknown>;
  update: (tx: Tx, orgId: number, actorId: number, id: number, input: B) => Promise<unknown>;
  remove: (tx: Tx, orgId: number, actorId: number, id: number, query: Q) => Promise<unknown>;
}

export interface CrudFamily<Q, B, O> {
  /** The path words: `<noun>` names one record (`add-<noun>`), `<plural>` the list (`get-<plural>`). */
  names: { noun: string; plural: string; listPath?: string };
  /** Who reads (list, options, one) and who writes (add, update, and delete unless `remove` is given). */
  access: { read: Access; write: Access; remove?: Access };
  /** The list query (also taken by add and delete, which answer the refreshed list), the record's input, the answers. */
  schemas: { listQuery: z.ZodType<Q>; input: z.ZodType<B>; answers: CrudAnswers };
  service: CrudService<Q, B>;
  /** Other lists of the same records (same query and answer), registered right after the list. */
  moreLists?: { path: string; list: CrudService<Q, B>['list'] }[];
  /** The picker route (its path is spelled differently from feature to feature): its query, option item and service. */
  options?: { path: string; query: z.ZodType<O>; item: z.ZodType; list: (tx: ReadTx, orgId: number, query: O) => Promise<unknown[]> };
  /** `GET /get-<noun>/:id`: answers `{ <key>: get(tx, orgId, id) }` (schema `answers.one`). */
  one?: { key: string; get: (tx: ReadTx, orgId: number, id: number) => Promise<unknown> };
  /** The record has files: delete runs in `removingFiles` (decision 024). */
  removesFiles?: boolean;
}

/**
 * Registers a feature's list routes, in this order (`options` and `one` when given):
 * - `GET /get-<plural>` (or `names.listPath`): `service.list(tx, orgId, query)`, answer `answers.list`; then each of
 *   `moreLists` likewise;
 * - `GET <options.path>`: the picker, `options.list(tx, orgId, query)`, answer `[options.item]`;
 * - `GET /get-<noun>/:id`: `{ <one.key>: one.get(tx, orgId, id) }`, answer `answers.one`;
 * - `POST /add-<noun>` (201), `PUT /update-<noun>/:id`, `DELETE /delete-<noun>/:id`: writes in `req.inTenant`, add and
 *   delete take the list query and answer the refreshed list.
 * Reads use `access.read`, writes `access.write` (delete `access.remove` when given). A feature's other routes stay
 * written out in its routes file, next to this call.
 */
export function registerCrudRoutes<Q, B, O>(appBase: FastifyInstance, family: CrudFamily<Q, B, O>) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  const { names, access, schemas, service } = family;
  const { listQuery: querystring, input: body, answers } = schemas;
  const read = { access: access.read };
  const write = { access: access.write };
  // (the type provider widens generic schemas' outputs; the schemas are exactly the service's types, hence the casts)
  app.get(names.listPath ?? `/get-${names.plural}`, { schema: { querystring, response: { 200: answers.list } }, config: read }, (req) =>
    req.read((tx) => service.list(tx, req.auth.orgId, req.query as Q)),
  );
  for (const more of family.moreLists ?? []) {
    app.get(more.path, { schema: { querystring, response: { 200: answers.list } }, config: read }, (req) =>
      req.read((tx) => more.list(tx, req.auth.orgId, req.query as Q)),
    );
  }
  const { options, one } = family;
  if (options) {
    const schema = { querystring: options.query, response: { 200: z.array(options.item) } };
    app.get(options.path, { schema, config: read }, (req) => req.read((tx) => options.list(tx, req.auth.orgId, req.query as O)));
  }
  if (one) {
    if (!answers.one) throw new Error(`registerCrudRoutes: /get-${names.noun}/:id needs answers.one`);
    app.get(`/get-${names.noun}/:id`, { schema: { params: idParamsSchema, response: { 200: answers.one } }, config: read }, async (req) => ({
      [one.key]: await req.read((tx) => one.get(tx, req.auth.orgId, req.params.id)),
    }));
  }
  app.post(`/add-${names.noun}`, { schema: { body, querystring, response: { 201: answers.add } }, config: write }, async (req, reply) =>
    reply.status(201).send(await req.inTenant((tx) => service.add(tx, req.auth.orgId, req.auth.userId, req.body as B, req.query as Q))),
  );
  app.put(`/update-${names.noun}/:id`, { schema: { params: idParamsSchema, body, response: { 200: answers.update } }, config: write }, (req) =>
    req.inTenant((tx) => service.update(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body as B)),
  );
  const removeConfig = {
    schema: { params: idParamsSchema, querystring, response: { 200: answers.remove } },
    config: { access: access.remove ?? access.write },
  };
  app.delete(`/delete-${names.noun}/:id`, removeConfig, (req) => {
    const work = (tx: Tx) => service.remove(tx, req.auth.orgId, req.auth.userId, req.params.id, req.query as Q);
    return family.removesFiles ? removingFiles(app.deps.storage, req, work) : req.inTenant(work);
  });
}
