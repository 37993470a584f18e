import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema } from '../../shared/pagination';
import { workStationInputSchema, workStationListQuerySchema, workStationOptionsQuerySchema } from './work-stations.schema';
import {
  addWorkStation,
  deleteWorkStation,
  getWorkStation,
  listWorkStationOptions,
  listWorkStations,
  updateWorkStation,
} from './work-stations.service';

/** Work stations (prefix /api/workstations). Reading is for everyone; stations are plant set-up, so writes are for managers. */
export async function workStationsRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get('/get-workstations', { schema: { querystring: workStationListQuerySchema }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listWorkStations(tx, req.auth.orgId, req.query)),
  );

  app.get('/get-workstation-options', { schema: { querystring: workStationOptionsQuerySchema }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listWorkStationOptions(tx, req.auth.orgId, req.query)),
  );

  app.get('/get-workstation/:id', { schema: { params: idParamsSchema }, config: { access: EVERYONE } }, async (req) => ({
    workStation: await req.read((tx) => getWorkStation(tx, req.auth.orgId, req.params.id)),
  }));

  app.post(
    '/add-workstation',
    { schema: { body: workStationInputSchema, querystring: workStationListQuerySchema }, config: { access: MANAGERS } },
    async (req, reply) => reply.status(201).send(await req.inTenant((tx) => addWorkStation(tx, req.auth.orgId, req.auth.userId, req.body, req.query))),
  );

  app.put(
    '/update-workstation/:id',
    { schema: { params: idParamsSchema, body: workStationInputSchema }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => updateWorkStation(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body)),
  );

  app.delete(
    '/delete-workstation/:id',
    { schema: { params: idParamsSchema, querystring: workStationListQuerySchema }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => deleteWorkStation(tx, req.auth.orgId, req.auth.userId, req.params.id, req.query)),
  );
}
