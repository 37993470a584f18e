import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { processImage, readUploadedImage } from '../../server/uploads/images';
import { idParamsSchema } from '../../shared/pagination';
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
import { registerCrudRoutes } from '../../server/crud-routes';

/** Parts and their stock (prefix /api/parts). Storeroom work is for everyone; deleting is for managers. */
export async function partsRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  registerCrudRoutes(app, {
    names: { noun: 'part', plural: 'parts' },
    access: { read: EVERYONE, write: EVERYONE, remove: MANAGERS },
    schemas: { listQuery: partListQuerySchema, input: partInputSchema, answers: partAnswers },
    service: { list: listParts, add: addPart, update: updatePart, remove: deletePart },
    options: { path: '/get-parts-options', query: partOptionsQuerySchema, item: partOptionSchema, list: listPartOptions },
    one: { key: 'part', get: getPart },
    moreLists: [{ path: '/get-low-stock-parts', list: listLowStockParts }],
    removesFiles: true,
  });

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
