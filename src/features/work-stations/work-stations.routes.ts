import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema } from '../../shared/pagination';
import { z } from '../../shared/zod-setup';
import {
  workStationAnswers as answers,
  workStationInputSchema,
  workStationOptionSchema,
  workStationListQuerySchema,
  workStationOptionsQuerySchema,
} from './work-stations.schema';
import { addWorkStation, deleteWorkStation, getWorkStation, listWorkStationOptions, listWorkStations, updateWorkStation } from './work-stations.service';

/** Work stations (prefix /api/workstations). Reading is for everyone; stations are plant set-up, so writes are for managers. */
export async function workStationsRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get('/get-workstations', { schema: { querystring: workStationListQuerySchema, response: { 200: answers.list } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listWorkStations(tx, req.auth.orgId, req.query)),
  );

  app.get(
    '/get-workstation-options',
    { schema: { querystring: workStationOptionsQuerySchema, response: { 200: z.array(workStationOptionSchema) } }, config: { access: EVERYONE } },
    (req) => req.read((tx) => listWorkStationOptions(tx, req.auth.orgId, req.query)),
  );

  app.get('/get-workstation/:id', { schema: { params: idParamsSchema, response: { 200: answers.one } }, config: { access: EVERYONE } }, async (req) => ({
    workStation: await req.read((tx) => getWorkStation(tx, req.auth.orgId, req.params.id)),
  }));

  app.post(
    '/add-workstation',
    { schema: { body: workStationInputSchema, querystring: workStationListQuerySchema, response: { 201: answers.add } }, config: { access: MANAGERS } },
    async (req, reply) => reply.status(201).send(await req.inTenant((tx) => addWorkStation(tx, req.auth.orgId, req.auth.userId, req.body, req.query))),
  );

  app.put(
    '/update-workstation/:id',
    { schema: { params: idParamsSchema, body: workStationInputSchema, response: { 200: answers.updated } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => updateWorkStation(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body)),
  );

  app.delete(
    '/delete-workstation/:id',
    { schema: { params: idParamsSchema, querystring: workStationListQuerySchema, response: { 200: answers.remove } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => deleteWorkStation(tx, req.auth.orgId, req.auth.userId, req.params.id, req.query)),
  );
}
