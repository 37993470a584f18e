import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema } from '../../shared/pagination';
import {
  meterAnswers as answers,
  meterInputSchema,
  meterListQuerySchema,
  meterUpdateSchema,
  readingImportSchema,
  readingInputSchema,
  readingListQuerySchema,
  readingListSchema,
} from './meters.schema';
import { addMeter, deleteMeter, listMeters, listReadings, recordReadingOnAsset, updateMeter } from './meters.service';
import { importReadings } from './meters.import';

/** Meters of assets and their readings (prefix /api/meters, decision 031). Managers keep meters; everyone enters readings. */
export async function metersRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get('/list-meters', { schema: { querystring: meterListQuerySchema, response: { 200: answers.list } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listMeters(tx, req.auth.orgId, req.query.assetId)),
  );

  app.post('/add-meter', { schema: { body: meterInputSchema, response: { 201: answers.add } }, config: { access: MANAGERS } }, async (req, reply) =>
    reply.status(201).send(await req.inTenant((tx) => addMeter(tx, req.auth.orgId, req.body))),
  );

  app.put(
    '/update-meter/:id',
    { schema: { params: idParamsSchema, body: meterUpdateSchema, response: { 200: answers.update } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => updateMeter(tx, req.auth.orgId, req.params.id, req.body)),
  );

  app.delete('/delete-meter/:id', { schema: { params: idParamsSchema, response: { 200: answers.remove } }, config: { access: MANAGERS } }, (req) =>
    req.inTenant((tx) => deleteMeter(tx, req.auth.orgId, req.params.id)),
  );

  app.get(
    '/list-meter-readings/:id',
    { schema: { params: idParamsSchema, querystring: readingListQuerySchema, response: { 200: readingListSchema } }, config: { access: EVERYONE } },
    (req) => req.read((tx) => listReadings(tx, req.auth.orgId, req.params.id, req.query)),
  );

  app.post(
    '/add-meter-reading',
    { schema: { body: readingInputSchema, response: { 201: answers.reading } }, config: { access: EVERYONE } },
    async (req, reply) => reply.status(201).send(await req.inTenant((tx) => recordReadingOnAsset(tx, req.auth.orgId, req.body, req.auth.userId))),
  );

  app.post(
    '/import-meter-readings',
    { schema: { body: readingImportSchema, response: { 201: answers.imported } }, config: { access: EVERYONE } },
    async (req, reply) => reply.status(201).send(await req.inTenant((tx) => importReadings(tx, req.auth.orgId, req.body, req.auth.userId))),
  );
}
