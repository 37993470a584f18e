import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from '../../shared/zod-setup';
import { idParamsSchema } from '../../shared/pagination';
import { ADMINS } from '../../server/plugins/request-context';
import {
  deliveryDetailSchema,
  deliveryListQuerySchema,
  deliveryListSchema,
  deliverySchema,
  webhookInputSchema,
  webhookListSchema,
  webhookCreatedSchema,
  webhookRotatedSchema,
  webhookSavedSchema,
  webhookUpdateSchema,
} from './webhooks.schema';
import { addWebhook, deleteWebhook, getDelivery, listDeliveries, listWebhooks, redeliver, rotateWebhookSecret, updateWebhook } from './webhooks.service';

/** Webhook endpoints and their deliveries (prefix /api/webhooks, decision 043): admins only. */
export async function webhooksRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get('/list-webhooks', { schema: { response: { 200: webhookListSchema } }, config: { access: ADMINS } }, (req) =>
    req.read((tx) => listWebhooks(tx, req.auth.orgId)),
  );

  app.post('/add-webhook', { schema: { body: webhookInputSchema, response: { 201: webhookCreatedSchema } }, config: { access: ADMINS } }, async (req, reply) =>
    reply.status(201).send(await req.inTenant((tx) => addWebhook(tx, req.auth.orgId, req.body))),
  );

  app.put(
    '/update-webhook/:id',
    { schema: { params: idParamsSchema, body: webhookUpdateSchema, response: { 200: webhookSavedSchema } }, config: { access: ADMINS } },
    (req) => req.inTenant((tx) => updateWebhook(tx, req.auth.orgId, req.params.id, req.body)),
  );

  // The new secret is in this answer only (as the first one is in add-webhook's).
  app.post('/rotate-webhook-secret/:id', { schema: { params: idParamsSchema, response: { 200: webhookRotatedSchema } }, config: { access: ADMINS } }, (req) =>
    req.inTenant((tx) => rotateWebhookSecret(tx, req.auth.orgId, req.params.id)),
  );

  app.delete('/delete-webhook/:id', { schema: { params: idParamsSchema, response: { 200: webhookListSchema } }, config: { access: ADMINS } }, (req) =>
    req.inTenant((tx) => deleteWebhook(tx, req.auth.orgId, req.params.id)),
  );

  app.get('/list-deliveries', { schema: { querystring: deliveryListQuerySchema, response: { 200: deliveryListSchema } }, config: { access: ADMINS } }, (req) =>
    req.read((tx) => listDeliveries(tx, req.auth.orgId, req.query)),
  );

  app.get('/get-delivery/:id', { schema: { params: idParamsSchema, response: { 200: deliveryDetailSchema } }, config: { access: ADMINS } }, (req) =>
    req.read((tx) => getDelivery(tx, req.auth.orgId, req.params.id)),
  );

  app.post(
    '/redeliver/:id',
    { schema: { params: idParamsSchema, response: { 200: z.object({ message: z.string(), delivery: deliverySchema }) } }, config: { access: ADMINS } },
    (req) => req.inTenant((tx) => redeliver(tx, req.auth.orgId, req.params.id)),
  );
}
