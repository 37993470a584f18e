import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { processImage, readUploadedImage } from '../../server/uploads/images';
import { idParamsSchema } from '../../shared/pagination';
import { z } from '../../shared/zod-setup';
import {
  partAnswers,
  partInputSchema,
  partListQuerySchema,
  partOptionSchema,
  partOptionsQuerySchema,
  stockAdjustedSchema,
  stockAdjustmentSchema,
  stockMoveListSchema,
  stockMovesQuerySchema,
} from './parts.schema';
import {
  addPart,
  adjustStock,
  deletePart,
  getPart,
  listLowStockParts,
  listPartOptions,
  listParts,
  listStockMoves,
  setPartImage,
  updatePart,
} from './parts.service';
import { removingFiles } from '../../server/uploads/storage';

/** Parts and their stock (prefix /api/parts). Storeroom work is for everyone; deleting is for managers. */
export async function partsRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get('/get-parts', { schema: { querystring: partListQuerySchema, response: { 200: partAnswers.list } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listParts(tx, req.auth.orgId, req.query)),
  );

  app.get('/get-low-stock-parts', { schema: { querystring: partListQuerySchema, response: { 200: partAnswers.list } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listLowStockParts(tx, req.auth.orgId, req.query)),
  );

  app.get(
    '/get-parts-options',
    { schema: { querystring: partOptionsQuerySchema, response: { 200: z.array(partOptionSchema) } }, config: { access: EVERYONE } },
    (req) => req.read((tx) => listPartOptions(tx, req.auth.orgId, req.query)),
  );

  app.get('/get-part/:id', { schema: { params: idParamsSchema, response: { 200: partAnswers.one } }, config: { access: EVERYONE } }, async (req) => ({
    part: await req.read((tx) => getPart(tx, req.auth.orgId, req.params.id)),
  }));

  app.post(
    '/add-part',
    { schema: { body: partInputSchema, querystring: partListQuerySchema, response: { 201: partAnswers.add } }, config: { access: EVERYONE } },
    async (req, reply) => reply.status(201).send(await req.inTenant((tx) => addPart(tx, req.auth.orgId, req.auth.userId, req.body, req.query))),
  );

  app.put(
    '/update-part/:id',
    { schema: { params: idParamsSchema, body: partInputSchema, response: { 200: partAnswers.update } }, config: { access: EVERYONE } },
    (req) => req.inTenant((tx) => updatePart(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body)),
  );

  app.delete(
    '/delete-part/:id',
    { schema: { params: idParamsSchema, querystring: partListQuerySchema, response: { 200: partAnswers.remove } }, config: { access: MANAGERS } },
    (req) => removingFiles(app.deps.storage, req, (tx) => deletePart(tx, req.auth.orgId, req.auth.userId, req.params.id, req.query)),
  );

  app.post(
    '/adjust-stock/:id',
    { schema: { params: idParamsSchema, body: stockAdjustmentSchema, response: { 200: stockAdjustedSchema } }, config: { access: EVERYONE } },
    (req) => req.inTenant((tx) => adjustStock(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body)),
  );

  app.get(
    '/get-stock-moves/:id',
    { schema: { params: idParamsSchema, querystring: stockMovesQuerySchema, response: { 200: stockMoveListSchema } }, config: { access: EVERYONE } },
    (req) => req.read((tx) => listStockMoves(tx, req.auth.orgId, req.params.id, req.query)),
  );

  // Multipart field `image`, the generic image rule (JPEG/PNG/WebP, 5 MB), re-encoded before it is stored.
  app.post('/add-image/:id', { schema: { params: idParamsSchema, response: { 200: partAnswers.update } }, config: { access: EVERYONE } }, async (req) => {
    await req.inTenant((tx) => getPart(tx, req.auth.orgId, req.params.id));
    const image = await processImage(await readUploadedImage(req, 'image'), 'image');
    const { storage } = app.deps;
    const urls = { full: await storage.put(req.auth.orgId, image.full, 'webp'), low: await storage.put(req.auth.orgId, image.low, 'webp') };
    return req.inTenant((tx) => setPartImage(tx, req.auth.orgId, req.auth.userId, req.params.id, urls));
  });
}
