import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema, messageSchema, pdfAnswers } from '../../shared/pagination';
import { getCompany } from '../organization/organization.service';
import { userLanguage } from '../../server/pdf-labels';
import { countSheetRows, renderCountSheetPdf } from './count-sheet.service';
import { z } from '../../shared/zod-setup';
import {
  countInputSchema,
  levelQuerySchema,
  levelSettingsInputSchema,
  locationAnswers,
  locationInputSchema,
  locationListQuerySchema,
  locationOptionSchema,
  moveListQuerySchema,
  stockChangedSchema,
  stockLevelListSchema,
  stockMoveListSchema,
  stockSettingsDtoSchema,
  stockSettingsInputSchema,
  transferInputSchema,
  partStockSettingsDtoSchema,
  partStockSettingsInputSchema,
  receiptInputSchema,
  receivedSchema,
  receivingDtoSchema,
  reorderResultSchema,
  valuationSchema,
} from './stock.schema';
import { getReceiving, receivePurchaseOrder, stockValuation } from './receiving.service';
import { draftReorders, getPartStockSettings, updatePartStockSettings } from './reorder.service';
import {
  addLocation,
  countStock,
  deleteLocation,
  getLocation,
  getStockSettings,
  listLevels,
  listLocationOptions,
  listLocations,
  listMoves,
  transferStock,
  updateLevelSettings,
  updateLocation,
  updateStockSettings,
} from './stock.service';

/**
 * Stock (prefix /api/stock, decision 071): locations (managers write, everyone reads), levels, the ledger of moves,
 * transfers and counts (storeroom work: everyone), the organisation's stock settings (managers).
 */
export async function stockRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/get-locations',
    { schema: { querystring: locationListQuerySchema, response: { 200: locationAnswers.list } }, config: { access: EVERYONE } },
    (req) => req.read((tx) => listLocations(tx, req.auth.orgId, req.query)),
  );
  app.get('/get-location-options', { schema: { response: { 200: z.array(locationOptionSchema) } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listLocationOptions(tx, req.auth.orgId)),
  );
  app.get('/get-location/:id', { schema: { params: idParamsSchema, response: { 200: locationAnswers.one } }, config: { access: EVERYONE } }, async (req) => ({
    location: await req.read((tx) => getLocation(tx, req.auth.orgId, req.params.id)),
  }));
  app.post(
    '/add-location',
    { schema: { body: locationInputSchema, querystring: locationListQuerySchema, response: { 201: locationAnswers.add } }, config: { access: MANAGERS } },
    async (req, reply) => reply.status(201).send(await req.inTenant((tx) => addLocation(tx, req.auth.orgId, req.body, req.query))),
  );
  app.put(
    '/update-location/:id',
    { schema: { params: idParamsSchema, body: locationInputSchema, response: { 200: locationAnswers.update } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => updateLocation(tx, req.auth.orgId, req.params.id, req.body)),
  );
  app.delete(
    '/delete-location/:id',
    { schema: { params: idParamsSchema, querystring: locationListQuerySchema, response: { 200: locationAnswers.remove } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => deleteLocation(tx, req.auth.orgId, req.params.id, req.query)),
  );

  app.get('/get-stock-levels', { schema: { querystring: levelQuerySchema, response: { 200: stockLevelListSchema } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listLevels(tx, req.auth.orgId, req.query)),
  );
  app.put('/update-stock-level', { schema: { body: levelSettingsInputSchema, response: { 200: stockChangedSchema } }, config: { access: MANAGERS } }, (req) =>
    req.inTenant((tx) => updateLevelSettings(tx, req.auth.orgId, req.body)),
  );
  app.get('/get-stock-moves', { schema: { querystring: moveListQuerySchema, response: { 200: stockMoveListSchema } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listMoves(tx, req.auth.orgId, req.query)),
  );
  app.post('/transfer-stock', { schema: { body: transferInputSchema, response: { 200: stockChangedSchema } }, config: { access: EVERYONE } }, (req) =>
    req.inTenant((tx) => transferStock(tx, req.auth.orgId, req.auth.userId, req.body)),
  );
  app.post('/count-stock', { schema: { body: countInputSchema, response: { 200: stockChangedSchema } }, config: { access: EVERYONE } }, (req) =>
    req.inTenant((tx) => countStock(tx, req.auth.orgId, req.auth.userId, req.body)),
  );

  app.get(
    '/get-stock-settings',
    { schema: { response: { 200: z.object({ settings: stockSettingsDtoSchema }) } }, config: { access: EVERYONE } },
    async (req) => ({
      settings: await req.read((tx) => getStockSettings(tx, req.auth.orgId)),
    }),
  );
  app.put(
    '/update-stock-settings',
    { schema: { body: stockSettingsInputSchema, response: { 200: messageSchema.extend({ settings: stockSettingsDtoSchema }) } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => updateStockSettings(tx, req.auth.orgId, req.body)),
  );

  // ---- Receiving, reorder, valuation (decision 081) ----
  app.get(
    '/get-receiving/:id',
    { schema: { params: idParamsSchema, response: { 200: z.object({ receiving: receivingDtoSchema }) } }, config: { access: EVERYONE } },
    async (req) => ({ receiving: await req.read((tx) => getReceiving(tx, req.auth.orgId, req.params.id)) }),
  );
  app.post(
    '/receive-purchase-order/:id',
    { schema: { params: idParamsSchema, body: receiptInputSchema, response: { 200: receivedSchema } }, config: { access: EVERYONE } },
    (req) => req.inTenant((tx) => receivePurchaseOrder(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body)),
  );
  app.post('/draft-reorders', { schema: { response: { 200: reorderResultSchema } }, config: { access: MANAGERS } }, (req) =>
    req.inTenant((tx) => draftReorders(tx, req.auth.orgId, req.auth.userId)),
  );
  app.get(
    '/get-part-stock-settings/:id',
    { schema: { params: idParamsSchema, response: { 200: z.object({ settings: partStockSettingsDtoSchema }) } }, config: { access: EVERYONE } },
    async (req) => ({ settings: await req.read((tx) => getPartStockSettings(tx, req.auth.orgId, req.params.id)) }),
  );
  app.put(
    '/update-part-stock-settings',
    {
      schema: { body: partStockSettingsInputSchema, response: { 200: messageSchema.extend({ settings: partStockSettingsDtoSchema }) } },
      config: { access: MANAGERS },
    },
    (req) => req.inTenant((tx) => updatePartStockSettings(tx, req.auth.orgId, req.body)),
  );
  app.get('/get-stock-valuation', { schema: { response: { 200: valuationSchema } }, config: { access: MANAGERS } }, (req) =>
    req.read((tx) => stockValuation(tx, req.auth.orgId)),
  );

  app.get(
    '/get-count-sheet/:id',
    { schema: { params: idParamsSchema, response: pdfAnswers("A storeroom's count sheet as a PDF file") }, config: { access: EVERYONE } },
    async (req, reply) => {
      const { sheet, company, language } = await req.read(async (tx) => ({
        sheet: await countSheetRows(tx, req.auth.orgId, req.params.id),
        company: await getCompany(tx, req.auth.orgId),
        language: await userLanguage(tx, req.auth.orgId, req.auth.userId),
      }));
      const pdf = await renderCountSheetPdf({ ...sheet, organization: company.organization, timeZone: company.timeZone, language });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="count-sheet-${req.params.id}.pdf"`)
        .header('cache-control', 'no-store')
        .send(pdf as never);
    },
  );
}
