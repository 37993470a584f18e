import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema } from '../../shared/pagination';
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

  app.get('/get-assets', { schema: { querystring: assetListQuerySchema, response: { 200: assetAnswers.list } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listAssets(tx, req.auth.orgId, req.query)),
  );

  app.get(
    '/get-assets-options',
    { schema: { querystring: assetOptionsQuerySchema, response: { 200: z.array(assetOptionSchema) } }, config: { access: EVERYONE } },
    (req) => req.read((tx) => listAssetOptions(tx, req.auth.orgId, req.query)),
  );

  app.get('/get-asset/:id', { schema: { params: idParamsSchema, response: { 200: assetAnswers.one } }, config: { access: EVERYONE } }, async (req) => ({
    asset: await req.read((tx) => getAsset(tx, req.auth.orgId, req.params.id)),
  }));

  app.post(
    '/add-asset',
    { schema: { body: assetInputSchema, querystring: assetListQuerySchema, response: { 201: assetAnswers.add } }, config: { access: EVERYONE } },
    async (req, reply) => reply.status(201).send(await req.inTenant((tx) => addAsset(tx, req.auth.orgId, req.auth.userId, req.body, req.query))),
  );

  app.put(
    '/update-asset/:id',
    { schema: { params: idParamsSchema, body: assetInputSchema, response: { 200: assetAnswers.update } }, config: { access: EVERYONE } },
    (req) => req.inTenant((tx) => updateAsset(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body)),
  );

  app.delete(
    '/delete-asset/:id',
    { schema: { params: idParamsSchema, querystring: assetListQuerySchema, response: { 200: assetAnswers.remove } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => deleteAsset(tx, req.auth.orgId, req.auth.userId, req.params.id, req.query)),
  );

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
