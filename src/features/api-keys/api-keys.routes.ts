import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '../../shared/pagination';
import { ADMINS } from '../../server/plugins/request-context';
import { apiKeyCreatedSchema, apiKeyInputSchema, apiKeyListSchema } from './api-keys.schema';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service';

/** API keys of the organisation (prefix /api/api-keys, decision 043): only an admin keeps keys; a key itself never can (keys act as a manager at most). */
export async function apiKeysRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get('/list-api-keys', { schema: { response: { 200: apiKeyListSchema } }, config: { access: ADMINS } }, (req) =>
    req.read((tx) => listApiKeys(tx, req.auth.orgId)),
  );

  app.post('/add-api-key', { schema: { body: apiKeyInputSchema, response: { 201: apiKeyCreatedSchema } }, config: { access: ADMINS } }, async (req, reply) =>
    reply.status(201).send(await req.inTenant((tx) => createApiKey(tx, req.auth.orgId, req.body, req.auth.userId))),
  );

  app.post('/revoke-api-key/:id', { schema: { params: idParamsSchema, response: { 200: apiKeyListSchema } }, config: { access: ADMINS } }, (req) =>
    req.inTenant((tx) => revokeApiKey(tx, req.auth.orgId, req.params.id)),
  );
}
