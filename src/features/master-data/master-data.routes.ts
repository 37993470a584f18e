import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema } from '../../shared/pagination';
import {
  assetCategoryInputSchema,
  productCategoryInputSchema,
  simpleListQuerySchema,
  taxInputSchema,
  timeTrackingReasonInputSchema,
  uomCategoryInputSchema,
  uomInputSchema,
  uomListQuerySchema,
  uomOptionsQuerySchema,
} from './master-data.schema';
import { addProductCategory, deleteProductCategory, listProductCategories, updateProductCategory } from './product-categories.service';
import { addTax, deleteTax, listTaxes, updateTax } from './taxes.service';
import { addUom, addUomCategory, deleteUom, deleteUomCategory, listUomCategories, listUomOptions, listUoms, updateUom, updateUomCategory } from './uoms.service';
import { addAssetCategory, deleteAssetCategory, listAssetCategories, updateAssetCategory } from './asset-categories.service';
import {
  addTimeTrackingReason,
  deleteTimeTrackingReason,
  listTimeTrackingReasons,
  updateTimeTrackingReason,
} from './time-tracking-reasons.service';

// Reading master data is for everyone (forms need it); managing it is for managers and admins.
const read = { access: EVERYONE };
const manage = { access: MANAGERS };

/** Master data under /api: product-categories, taxes, uom-categories, uoms, asset-categories, time-tracking-reasons. */
export async function masterDataRoutes(app: FastifyInstance) {
  await app.register(productCategoryRoutes, { prefix: '/product-categories' });
  await app.register(taxRoutes, { prefix: '/taxes' });
  await app.register(uomCategoryRoutes, { prefix: '/uom-categories' });
  await app.register(uomRoutes, { prefix: '/uoms' });
  await app.register(assetCategoryRoutes, { prefix: '/asset-categories' });
  await app.register(timeTrackingReasonRoutes, { prefix: '/time-tracking-reasons' });
}

async function productCategoryRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  app.get('/get-product-categories', { schema: { querystring: simpleListQuerySchema }, config: read }, (req) =>
    req.inTenant((tx) => listProductCategories(tx, req.auth.orgId, req.query)),
  );
  app.post('/add-product-category', { schema: { querystring: simpleListQuerySchema, body: productCategoryInputSchema }, config: manage }, async (req, reply) =>
    reply.status(201).send(await req.inTenant((tx) => addProductCategory(tx, req.auth.orgId, req.auth.userId, req.body, req.query))),
  );
  app.put('/update-product-category/:id', { schema: { params: idParamsSchema, body: productCategoryInputSchema }, config: manage }, (req) =>
    req.inTenant((tx) => updateProductCategory(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body)),
  );
  app.delete('/delete-product-category/:id', { schema: { params: idParamsSchema, querystring: simpleListQuerySchema }, config: manage }, (req) =>
    req.inTenant((tx) => deleteProductCategory(tx, req.auth.orgId, req.auth.userId, req.params.id, req.query)),
  );
}

async function taxRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  app.get('/get-taxes', { schema: { querystring: simpleListQuerySchema }, config: read }, (req) => req.inTenant((tx) => listTaxes(tx, req.auth.orgId, req.query)));
  app.post('/add-tax', { schema: { querystring: simpleListQuerySchema, body: taxInputSchema }, config: manage }, async (req, reply) =>
    reply.status(201).send(await req.inTenant((tx) => addTax(tx, req.auth.orgId, req.auth.userId, req.body, req.query))),
  );
  app.put('/update-tax/:id', { schema: { params: idParamsSchema, body: taxInputSchema }, config: manage }, (req) =>
    req.inTenant((tx) => updateTax(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body)),
  );
  app.delete('/delete-tax/:id', { schema: { params: idParamsSchema, querystring: simpleListQuerySchema }, config: manage }, (req) =>
    req.inTenant((tx) => deleteTax(tx, req.auth.orgId, req.auth.userId, req.params.id, req.query)),
  );
}

async function uomCategoryRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  app.get('/get-uom-categories', { schema: { querystring: simpleListQuerySchema }, config: read }, (req) =>
    req.inTenant((tx) => listUomCategories(tx, req.auth.orgId, req.query)),
  );
  app.post('/add-uom-category', { schema: { querystring: simpleListQuerySchema, body: uomCategoryInputSchema }, config: manage }, async (req, reply) =>
    reply.status(201).send(await req.inTenant((tx) => addUomCategory(tx, req.auth.orgId, req.auth.userId, req.body, req.query))),
  );
  app.put('/update-uom-category/:id', { schema: { params: idParamsSchema, body: uomCategoryInputSchema }, config: manage }, (req) =>
    req.inTenant((tx) => updateUomCategory(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body)),
  );
  app.delete('/delete-uom-category/:id', { schema: { params: idParamsSchema, querystring: simpleListQuerySchema }, config: manage }, (req) =>
    req.inTenant((tx) => deleteUomCategory(tx, req.auth.orgId, req.auth.userId, req.params.id, req.query)),
  );
}

async function uomRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  app.get('/get-uoms', { schema: { querystring: uomListQuerySchema }, config: read }, (req) => req.inTenant((tx) => listUoms(tx, req.auth.orgId, req.query)));
  app.get('/get-uom-options', { schema: { querystring: uomOptionsQuerySchema }, config: read }, (req) =>
    req.inTenant((tx) => listUomOptions(tx, req.auth.orgId, req.query)),
  );
  app.post('/add-uom', { schema: { querystring: uomListQuerySchema, body: uomInputSchema }, config: manage }, async (req, reply) =>
    reply.status(201).send(await req.inTenant((tx) => addUom(tx, req.auth.orgId, req.auth.userId, req.body, req.query))),
  );
  app.put('/update-uom/:id', { schema: { params: idParamsSchema, body: uomInputSchema }, config: manage }, (req) =>
    req.inTenant((tx) => updateUom(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body)),
  );
  app.delete('/delete-uom/:id', { schema: { params: idParamsSchema, querystring: uomListQuerySchema }, config: manage }, (req) =>
    req.inTenant((tx) => deleteUom(tx, req.auth.orgId, req.auth.userId, req.params.id, req.query)),
  );
}

async function assetCategoryRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  app.get('/get-asset-categories', { schema: { querystring: simpleListQuerySchema }, config: read }, (req) =>
    req.inTenant((tx) => listAssetCategories(tx, req.auth.orgId, req.query)),
  );
  app.post('/add-asset-category', { schema: { querystring: simpleListQuerySchema, body: assetCategoryInputSchema }, config: manage }, async (req, reply) =>
    reply.status(201).send(await req.inTenant((tx) => addAssetCategory(tx, req.auth.orgId, req.auth.userId, req.body, req.query))),
  );
  app.put('/update-asset-category/:id', { schema: { params: idParamsSchema, body: assetCategoryInputSchema }, config: manage }, (req) =>
    req.inTenant((tx) => updateAssetCategory(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body)),
  );
  app.delete('/delete-asset-category/:id', { schema: { params: idParamsSchema, querystring: simpleListQuerySchema }, config: manage }, (req) =>
    req.inTenant((tx) => deleteAssetCategory(tx, req.auth.orgId, req.auth.userId, req.params.id, req.query)),
  );
}

async function timeTrackingReasonRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  app.get('/get-time-tracking-reasons', { schema: { querystring: simpleListQuerySchema }, config: read }, (req) =>
    req.inTenant((tx) => listTimeTrackingReasons(tx, req.auth.orgId, req.query)),
  );
  app.post('/add-time-tracking-reason', { schema: { querystring: simpleListQuerySchema, body: timeTrackingReasonInputSchema }, config: manage }, async (req, reply) =>
    reply.status(201).send(await req.inTenant((tx) => addTimeTrackingReason(tx, req.auth.orgId, req.auth.userId, req.body, req.query))),
  );
  app.put('/update-time-tracking-reason/:id', { schema: { params: idParamsSchema, body: timeTrackingReasonInputSchema }, config: manage }, (req) =>
    req.inTenant((tx) => updateTimeTrackingReason(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body)),
  );
  app.delete('/delete-time-tracking-reason/:id', { schema: { params: idParamsSchema, querystring: simpleListQuerySchema }, config: manage }, (req) =>
    req.inTenant((tx) => deleteTimeTrackingReason(tx, req.auth.orgId, req.auth.userId, req.params.id, req.query)),
  );
}
