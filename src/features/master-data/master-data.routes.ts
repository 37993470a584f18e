import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from '../../shared/zod-setup';
import type { Tx } from '../../server/db/client';
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
  await app.register(
    listRoutes({ plural: 'product-categories', singular: 'product-category' }, { body: productCategoryInputSchema, query: simpleListQuerySchema }, {
      list: listProductCategories,
      add: addProductCategory,
      update: updateProductCategory,
      remove: deleteProductCategory,
    }),
    { prefix: '/product-categories' },
  );
  await app.register(
    listRoutes({ plural: 'taxes', singular: 'tax' }, { body: taxInputSchema, query: simpleListQuerySchema }, { list: listTaxes, add: addTax, update: updateTax, remove: deleteTax }),
    { prefix: '/taxes' },
  );
  await app.register(
    listRoutes({ plural: 'uom-categories', singular: 'uom-category' }, { body: uomCategoryInputSchema, query: simpleListQuerySchema }, {
      list: listUomCategories,
      add: addUomCategory,
      update: updateUomCategory,
      remove: deleteUomCategory,
    }),
    { prefix: '/uom-categories' },
  );
  await app.register(
    listRoutes({ plural: 'uoms', singular: 'uom' }, { body: uomInputSchema, query: uomListQuerySchema }, { list: listUoms, add: addUom, update: updateUom, remove: deleteUom }, (uoms) =>
      uoms.withTypeProvider<ZodTypeProvider>().get('/get-uom-options', { schema: { querystring: uomOptionsQuerySchema }, config: read }, (req) => req.inTenant((tx) => listUomOptions(tx, req.auth.orgId, req.query))),
    ),
    { prefix: '/uoms' },
  );
  await app.register(
    listRoutes({ plural: 'asset-categories', singular: 'asset-category' }, { body: assetCategoryInputSchema, query: simpleListQuerySchema }, {
      list: listAssetCategories,
      add: addAssetCategory,
      update: updateAssetCategory,
      remove: deleteAssetCategory,
    }),
    { prefix: '/asset-categories' },
  );
  await app.register(
    listRoutes({ plural: 'time-tracking-reasons', singular: 'time-tracking-reason' }, { body: timeTrackingReasonInputSchema, query: simpleListQuerySchema }, {
      list: listTimeTrackingReasons,
      add: addTimeTrackingReason,
      update: updateTimeTrackingReason,
      remove: deleteTimeTrackingReason,
    }),
    { prefix: '/time-tracking-reasons' },
  );
}

/** One list's service: list with the query; add (201) and delete return the refreshed list; update returns the record. */
interface ListService<B, Q> {
  list(tx: Tx, orgId: number, query: Q): Promise<unknown>;
  add(tx: Tx, orgId: number, actorId: number, input: B, query: Q): Promise<unknown>;
  update(tx: Tx, orgId: number, actorId: number, id: number, input: B): Promise<unknown>;
  remove(tx: Tx, orgId: number, actorId: number, id: number, query: Q): Promise<unknown>;
}

/**
 * A simple master-data list under its prefix: get-<plural> (everyone), add-<singular>, update-<singular>/:id
 * and delete-<singular>/:id (managers). `more` adds the list's other routes.
 */
function listRoutes<B, Q>(
  names: { plural: string; singular: string },
  schemas: { body: z.ZodType<B>; query: z.ZodType<Q> },
  service: ListService<B, Q>,
  more?: (app: FastifyInstance) => void,
) {
  const { body, query } = schemas;
  // (the type provider widens generic schemas' outputs; the schemas above are exactly the service's types)
  return async function routes(appBase: FastifyInstance) {
    const app = appBase.withTypeProvider<ZodTypeProvider>();
    app.get(`/get-${names.plural}`, { schema: { querystring: query }, config: read }, (req) => req.inTenant((tx) => service.list(tx, req.auth.orgId, req.query as Q)));
    more?.(appBase);
    app.post(`/add-${names.singular}`, { schema: { querystring: query, body }, config: manage }, async (req, reply) =>
      reply.status(201).send(await req.inTenant((tx) => service.add(tx, req.auth.orgId, req.auth.userId, req.body as B, req.query as Q))),
    );
    app.put(`/update-${names.singular}/:id`, { schema: { params: idParamsSchema, body }, config: manage }, (req) =>
      req.inTenant((tx) => service.update(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body as B)),
    );
    app.delete(`/delete-${names.singular}/:id`, { schema: { params: idParamsSchema, querystring: query }, config: manage }, (req) =>
      req.inTenant((tx) => service.remove(tx, req.auth.orgId, req.auth.userId, req.params.id, req.query as Q)),
    );
  };
}
