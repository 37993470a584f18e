import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from '../../shared/zod-setup';
import type { ReadTx, Tx } from '../../server/db/client';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema } from '../../shared/pagination';
import {
  assetCategoryDtoSchema,
  assetCategoryInputSchema,
  productCategoryDtoSchema,
  simpleListAnswers,
  taxDtoSchema,
  timeTrackingReasonDtoSchema,
  uomCategoryDtoSchema,
  uomDtoSchema,
  uomOptionSchema,
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
import {
  addUom,
  addUomCategory,
  deleteUom,
  deleteUomCategory,
  listUomCategories,
  listUomOptions,
  listUoms,
  updateUom,
  updateUomCategory,
} from './uoms.service';
import { addAssetCategory, deleteAssetCategory, listAssetCategories, updateAssetCategory } from './asset-categories.service';
import { addTimeTrackingReason, deleteTimeTrackingReason, listTimeTrackingReasons, updateTimeTrackingReason } from './time-tracking-reasons.service';

// Reading master data is for everyone (forms need it); managing it is for managers and admins.
const read = { access: EVERYONE };
const manage = { access: MANAGERS };

/** Master data under /api: product-categories, taxes, uom-categories, uoms, asset-categories, time-tracking-reasons. */
export async function masterDataRoutes(app: FastifyInstance) {
  const simple = simpleListQuerySchema;
  const lists = [
    list(
      'product-categories',
      'product-category',
      productCategoryInputSchema,
      simple,
      [listProductCategories, addProductCategory, updateProductCategory, deleteProductCategory],
      simpleListAnswers('productCategories', productCategoryDtoSchema, 'productCategory', ['productCategory']),
    ),
    list('taxes', 'tax', taxInputSchema, simple, [listTaxes, addTax, updateTax, deleteTax], simpleListAnswers('taxes', taxDtoSchema, 'tax', ['tax'])),
    list(
      'uom-categories',
      'uom-category',
      uomCategoryInputSchema,
      simple,
      [listUomCategories, addUomCategory, updateUomCategory, deleteUomCategory],
      simpleListAnswers('uomCategories', uomCategoryDtoSchema, 'addedUomCategory', ['category']),
    ),
    list(
      'uoms',
      'uom',
      uomInputSchema,
      uomListQuerySchema,
      [listUoms, addUom, updateUom, deleteUom],
      simpleListAnswers('uoms', uomDtoSchema, 'uom', ['uom', 'category']),
      (uoms) =>
        uoms.get('/get-uom-options', { schema: { querystring: uomOptionsQuerySchema, response: { 200: z.array(uomOptionSchema) } }, config: read }, (req) =>
          req.read((tx) => listUomOptions(tx, req.auth.orgId, req.query)),
        ),
    ),
    list(
      'asset-categories',
      'asset-category',
      assetCategoryInputSchema,
      simple,
      [listAssetCategories, addAssetCategory, updateAssetCategory, deleteAssetCategory],
      simpleListAnswers('assetCategories', assetCategoryDtoSchema, 'assetCategory', ['assetCategory']),
    ),
    list(
      'time-tracking-reasons',
      'time-tracking-reason',
      timeTrackingReasonInputSchema,
      simple,
      [listTimeTrackingReasons, addTimeTrackingReason, updateTimeTrackingReason, deleteTimeTrackingReason],
      simpleListAnswers('timeTrackingReasons', timeTrackingReasonDtoSchema, 'timeTrackingReason', ['timeTrackingReason']),
    ),
  ];
  for (const { plural, routes } of lists) await app.register(routes, { prefix: `/${plural}` });
}

type ZodApp = ReturnType<typeof withZod>;
const withZod = (app: FastifyInstance) => app.withTypeProvider<ZodTypeProvider>();

/** One list's service: list with the query; add (201) and delete return the refreshed list; update returns the record. */
type ListService<B, Q> = [
  list: (tx: ReadTx, orgId: number, query: Q) => Promise<unknown>,
  add: (tx: Tx, orgId: number, actorId: number, input: B, query: Q) => Promise<unknown>,
  update: (tx: Tx, orgId: number, actorId: number, id: number, input: B) => Promise<unknown>,
  remove: (tx: Tx, orgId: number, actorId: number, id: number, query: Q) => Promise<unknown>,
];

/** The response schemas of a list's four routes (`simpleListAnswers`). */
type Answers = Record<'list' | 'add' | 'update' | 'remove', z.ZodType>;

/**
 * A simple master-data list under /<plural>: get-<plural> (everyone), add-<singular>, update-<singular>/:id and
 * delete-<singular>/:id (managers). `more` adds the list's other routes.
 */
function list<B, Q>(
  plural: string,
  singular: string,
  body: z.ZodType<B>,
  query: z.ZodType<Q>,
  service: ListService<B, Q>,
  answers: Answers,
  more?: (app: ZodApp) => void,
) {
  const [listAll, add, update, remove] = service;
  // (the type provider widens generic schemas' outputs; the schemas above are exactly the service's types)
  async function routes(appBase: FastifyInstance) {
    const app = withZod(appBase);
    app.get(`/get-${plural}`, { schema: { querystring: query, response: { 200: answers.list } }, config: read }, (req) =>
      req.read((tx) => listAll(tx, req.auth.orgId, req.query as Q)),
    );
    more?.(app);
    app.post(`/add-${singular}`, { schema: { querystring: query, body, response: { 201: answers.add } }, config: manage }, async (req, reply) =>
      reply.status(201).send(await req.inTenant((tx) => add(tx, req.auth.orgId, req.auth.userId, req.body as B, req.query as Q))),
    );
    app.put(`/update-${singular}/:id`, { schema: { params: idParamsSchema, body, response: { 200: answers.update } }, config: manage }, (req) =>
      req.inTenant((tx) => update(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body as B)),
    );
    app.delete(
      `/delete-${singular}/:id`,
      { schema: { params: idParamsSchema, querystring: query, response: { 200: answers.remove } }, config: manage },
      (req) => req.inTenant((tx) => remove(tx, req.auth.orgId, req.auth.userId, req.params.id, req.query as Q)),
    );
  }
  return { plural, routes };
}
