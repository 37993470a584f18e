import type { FastifyInstance } from 'fastify';
import { registerCrudRoutes, type CrudFamily } from '../../server/crud-routes';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
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
const access = { read: EVERYONE, write: MANAGERS };

/**
 * Master data under /api: product-categories, taxes, uom-categories, uoms, asset-categories, time-tracking-reasons.
 * Each is a simple list under /<plural>: get-<plural>, add-<noun>, update-<noun>/:id, delete-<noun>/:id (uoms also
 * get-uom-options).
 */
export async function masterDataRoutes(app: FastifyInstance) {
  const simple = simpleListQuerySchema;
  const lists = [
    under({
      names: { noun: 'product-category', plural: 'product-categories' },
      access,
      schemas: {
        listQuery: simple,
        input: productCategoryInputSchema,
        answers: simpleListAnswers('productCategories', productCategoryDtoSchema, 'productCategory', ['productCategory']),
      },
      service: { list: listProductCategories, add: addProductCategory, update: updateProductCategory, remove: deleteProductCategory },
    }),
    under({
      names: { noun: 'tax', plural: 'taxes' },
      access,
      schemas: { listQuery: simple, input: taxInputSchema, answers: simpleListAnswers('taxes', taxDtoSchema, 'tax', ['tax']) },
      service: { list: listTaxes, add: addTax, update: updateTax, remove: deleteTax },
    }),
    under({
      names: { noun: 'uom-category', plural: 'uom-categories' },
      access,
      schemas: {
        listQuery: simple,
        input: uomCategoryInputSchema,
        answers: simpleListAnswers('uomCategories', uomCategoryDtoSchema, 'addedUomCategory', ['category']),
      },
      service: { list: listUomCategories, add: addUomCategory, update: updateUomCategory, remove: deleteUomCategory },
    }),
    under({
      names: { noun: 'uom', plural: 'uoms' },
      access,
      schemas: { listQuery: uomListQuerySchema, input: uomInputSchema, answers: simpleListAnswers('uoms', uomDtoSchema, 'uom', ['uom', 'category']) },
      service: { list: listUoms, add: addUom, update: updateUom, remove: deleteUom },
      options: { path: '/get-uom-options', query: uomOptionsQuerySchema, item: uomOptionSchema, list: listUomOptions },
    }),
    under({
      names: { noun: 'asset-category', plural: 'asset-categories' },
      access,
      schemas: {
        listQuery: simple,
        input: assetCategoryInputSchema,
        answers: simpleListAnswers('assetCategories', assetCategoryDtoSchema, 'assetCategory', ['assetCategory']),
      },
      service: { list: listAssetCategories, add: addAssetCategory, update: updateAssetCategory, remove: deleteAssetCategory },
    }),
    under({
      names: { noun: 'time-tracking-reason', plural: 'time-tracking-reasons' },
      access,
      schemas: {
        listQuery: simple,
        input: timeTrackingReasonInputSchema,
        answers: simpleListAnswers('timeTrackingReasons', timeTrackingReasonDtoSchema, 'timeTrackingReason', ['timeTrackingReason']),
      },
      service: { list: listTimeTrackingReasons, add: addTimeTrackingReason, update: updateTimeTrackingReason, remove: deleteTimeTrackingReason },
    }),
  ];
  for (const { prefix, routes } of lists) await app.register(routes, { prefix });
}

/** A list's routes as a plugin under /<plural> (typed: its schemas are its service's types). */
const under = <Q, B, O>(family: CrudFamily<Q, B, O>) => ({
  prefix: `/${family.names.plural}`,
  routes: async (scope: FastifyInstance) => registerCrudRoutes(scope, family),
});
