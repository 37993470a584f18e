import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema } from '../../shared/pagination';
import { z } from '../../shared/zod-setup';
import { serviceAnswers, serviceInputSchema, serviceOptionSchema, serviceListQuerySchema, serviceOptionsQuerySchema } from './service-catalog.schema';
import { addService, deleteService, getService, listServiceOptions, listServices, updateService } from './service-catalog.service';

/** Services (prefix /api/services). Reading is for everyone; the catalogue is plant set-up, so writes are for managers. */
export async function serviceCatalogRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get('/get-services', { schema: { querystring: serviceListQuerySchema, response: { 200: serviceAnswers.list } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listServices(tx, req.auth.orgId, req.query)),
  );

  app.get(
    '/get-services-options',
    { schema: { querystring: serviceOptionsQuerySchema, response: { 200: z.array(serviceOptionSchema) } }, config: { access: EVERYONE } },
    (req) => req.read((tx) => listServiceOptions(tx, req.auth.orgId, req.query)),
  );

  app.get('/get-service/:id', { schema: { params: idParamsSchema, response: { 200: serviceAnswers.one } }, config: { access: EVERYONE } }, async (req) => ({
    service: await req.read((tx) => getService(tx, req.auth.orgId, req.params.id)),
  }));

  app.post(
    '/add-service',
    { schema: { body: serviceInputSchema, querystring: serviceListQuerySchema, response: { 201: serviceAnswers.add } }, config: { access: MANAGERS } },
    async (req, reply) => reply.status(201).send(await req.inTenant((tx) => addService(tx, req.auth.orgId, req.auth.userId, req.body, req.query))),
  );

  app.put(
    '/update-service/:id',
    { schema: { params: idParamsSchema, body: serviceInputSchema, response: { 200: serviceAnswers.update } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => updateService(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body)),
  );

  app.delete(
    '/delete-service/:id',
    { schema: { params: idParamsSchema, querystring: serviceListQuerySchema, response: { 200: serviceAnswers.remove } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => deleteService(tx, req.auth.orgId, req.auth.userId, req.params.id, req.query)),
  );
}
