import type { FastifyInstance } from 'fastify';
import { registerCrudRoutes, type CrudAnswers, type CrudFamily, type CrudService } from '../../server/crud-routes';
import type { z } from '../../shared/zod-setup';
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
  type SimpleListQuery,
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
  const lists = [
    simple(
      { noun: 'product-category', plural: 'product-categories' },
      productCategoryInputSchema,
      simpleListAnswers('productCategories', productCategoryDtoSchema, 'productCategory', ['productCategory']),
      { list: listProductCategories, add: addProductCategory, update: updateProductCategory, remove: deleteProductCategory },
    ),
    simple({ noun: 'tax', plural: 'taxes' }, taxInputSchema, simpleListAnswers('taxes', taxDtoSchema, 'tax', ['tax']), {
      list: listTaxes,
      add: addTax,
      update: updateTax,
      remove: deleteTax,
    }),
    simple(
      { noun: 'uom-category', plural: 'uom-categories' },
      uomCategoryInputSchema,
      simpleListAnswers('uomCategories', uomCategoryDtoSchema, 'addedUomCategory', ['category']),
      { list: listUomCategories, add: addUomCategory, update: updateUomCategory, remove: deleteUomCategory },
    ),
    under({
      names: { noun: 'uom', plural: 'uoms' },
      access,
      schemas: { listQuery: uomListQuerySchema, input: uomInputSchema, answers: simpleListAnswers('uoms', uomDtoSchema, 'uom', ['uom', 'category']) },
      service: { list: listUoms, add: addUom, update: updateUom, remove: deleteUom },
      options: { path: '/get-uom-options', query: uomOptionsQuerySchema, item: uomOptionSchema, list: listUomOptions },
    }),
    simple(
      { noun: 'asset-category', plural: 'asset-categories' },
      assetCategoryInputSchema,
      simpleListAnswers('assetCategories', assetCategoryDtoSchema, 'assetCategory', ['assetCategory']),
      { list: listAssetCategories, add: addAssetCategory, update: updateAssetCategory, remove: deleteAssetCategory },
    ),
    simple(
      { noun: 'time-tracking-reason', plural: 'time-tracking-reasons' },
      timeTrackingReasonInputSchema,
      simpleListAnswers('timeTrackingReasons', timeTrackingReasonDtoSchema, 'timeTrackingReason', ['timeTrackingReason']),
      { list: listTimeTrackingReasons, add: addTimeTrackingReason, update: updateTimeTrackingReason, remove: deleteTimeTrackingReason },
    ),
  ];
  for (const { prefix, routes } of lists) await app.register(routes, { prefix });
}

/** A list of the simple kind (`simpleListQuerySchema`, no picker): its path words, input, answers and services. */
const simple = <B>(
  names: CrudFamily<SimpleListQuery, B, never>['names'],
  input: z.ZodType<B>,
  answers: CrudAnswers,
  service: CrudService<SimpleListQuery, B>,
) => under({ names, access, schemas: { listQuery: simpleListQuerySchema, input, answers }, service });

/** A list's routes as a plugin under /<plural> (typed: its schemas are its service's types). */
const under = <Q, B, O>(family: CrudFamily<Q, B, O>) => ({
  prefix: `/${family.names.plural}`,
  routes: async (scope: FastifyInstance) => registerCrudRoutes(scope, family),
});
