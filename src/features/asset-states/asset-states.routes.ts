import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE } from '../../server/plugins/request-context';
import { idParamsSchema, messageSchema } from '../../shared/pagination';
import { z } from '../../shared/zod-setup';
import { assetStatesAnswerSchema, assetStatesQuerySchema, availabilitySchema, availabilityQuerySchema, setAssetStateSchema } from './asset-states.schema';
import { assetAvailability, listAssetStates, setAssetState } from './asset-states.service';

/**
 * Asset state over time and availability (decision 079), under /api/assets. Everyone reads and sets a state:
 * the technician at the machine is the one who sees it stop.
 */
export async function assetStatesRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/list-asset-states/:id',
    { schema: { params: idParamsSchema, querystring: assetStatesQuerySchema, response: { 200: assetStatesAnswerSchema } }, config: { access: EVERYONE } },
    (req) => req.read((tx) => listAssetStates(tx, req.auth.orgId, req.params.id, req.query)),
  );

  app.post(
    '/set-asset-state/:id',
    {
      schema: { params: idParamsSchema, body: setAssetStateSchema, response: { 200: messageSchema.extend(assetStatesAnswerSchema.shape) } },
      config: { access: EVERYONE },
    },
    (req) => req.inTenant((tx) => setAssetState(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body)),
  );

  app.get(
    '/get-asset-availability',
    { schema: { querystring: availabilityQuerySchema, response: { 200: z.object({ availability: availabilitySchema }) } }, config: { access: EVERYONE } },
    async (req) => ({ availability: await req.read((tx) => assetAvailability(tx, req.auth.orgId, req.query)) }),
  );
}
