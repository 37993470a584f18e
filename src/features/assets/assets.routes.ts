import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema } from '../../shared/pagination';
import { registerCrudRoutes } from '../../server/crud-routes';
import { z } from '../../shared/zod-setup';
import {
  assetAnswers,
  assetInputSchema,
  assetListQuerySchema,
  assetNodeSchema,
  assetOptionSchema,
  assetOptionsQuerySchema,
  assetSummarySchema,
  assetTreeQuerySchema,
  moveAssetSchema,
} from './assets.schema';
import { addAsset, assetSummary, assetTree, deleteAsset, getAsset, listAssetOptions, listAssets, moveAsset, updateAsset } from './assets.service';
import { messageSchema } from '../../shared/pagination';

/** Assets (prefix /api/assets). Technicians register and update assets in the field; deleting is for managers. */
export async function assetsRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  registerCrudRoutes(app, {
    names: { noun: 'asset', plural: 'assets' },
    access: { read: EVERYONE, write: EVERYONE, remove: MANAGERS },
    schemas: { listQuery: assetListQuerySchema, input: assetInputSchema, answers: assetAnswers },
    service: { list: listAssets, add: addAsset, update: updateAsset, remove: deleteAsset },
    options: { path: '/get-assets-options', query: assetOptionsQuerySchema, item: assetOptionSchema, list: listAssetOptions },
    one: { key: 'asset', get: getAsset },
  });

  // Parent and child assets (decision 072): the tree, a move with everything under it, and the roll-up.
  app.get(
    '/get-asset-tree',
    {
      schema: { querystring: assetTreeQuerySchema, response: { 200: z.object({ assets: z.array(assetNodeSchema), truncated: z.boolean() }) } },
      config: { access: EVERYONE },
    },
    (req) => req.read((tx) => assetTree(tx, req.auth.orgId, req.query)),
  );

  app.get(
    '/get-asset-summary/:id',
    { schema: { params: idParamsSchema, response: { 200: z.object({ summary: assetSummarySchema }) } }, config: { access: EVERYONE } },
    async (req) => ({
      summary: await req.read((tx) => assetSummary(tx, req.auth.orgId, req.params.id, req.auth.role === 'admin' || req.auth.role === 'manager')),
    }),
  );

  app.post(
    '/move-asset/:id',
    {
      schema: { params: idParamsSchema, body: moveAssetSchema, response: { 200: messageSchema.extend({ asset: assetAnswers.one.shape.asset }) } },
      config: { access: EVERYONE },
    },
    (req) => req.inTenant((tx) => moveAsset(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body.parentId)),
  );
}
