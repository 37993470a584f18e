import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema } from '../../shared/pagination';
import { locationRollUp } from '../assets/asset-rollup';
import { z } from '../../shared/zod-setup';
import {
  locationAnswers as answers,
  locationInputSchema,
  locationListQuerySchema,
  locationOptionSchema,
  locationOptionsQuerySchema,
  moveLocationSchema,
} from './locations.schema';
import {
  addLocation,
  deleteLocation,
  getLocationDetail,
  listLocationOptions,
  listLocations,
  locationTree,
  moveLocation,
  updateLocation,
} from './locations.service';

/** Locations (prefix /api/locations, decision 072). Everyone reads them; the tree is plant set-up, so writes are for managers. */
export async function locationsRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get('/get-locations', { schema: { querystring: locationListQuerySchema, response: { 200: answers.list } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listLocations(tx, req.auth.orgId, req.query)),
  );

  app.get('/get-location-tree', { schema: { response: { 200: answers.tree } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => locationTree(tx, req.auth.orgId)),
  );

  app.get(
    '/get-location-options',
    { schema: { querystring: locationOptionsQuerySchema, response: { 200: z.array(locationOptionSchema) } }, config: { access: EVERYONE } },
    (req) => req.read((tx) => listLocationOptions(tx, req.auth.orgId, req.query)),
  );

  app.get('/get-location/:id', { schema: { params: idParamsSchema, response: { 200: answers.detail } }, config: { access: EVERYONE } }, (req) =>
    req.read(async (tx) => {
      const detail = await getLocationDetail(tx, req.auth.orgId, req.params.id);
      const seesAmounts = req.auth.role === 'admin' || req.auth.role === 'manager';
      return { ...detail, summary: { ...detail.summary, ...(await locationRollUp(tx, req.auth.orgId, req.params.id, seesAmounts)) } };
    }),
  );

  app.post(
    '/add-location',
    { schema: { body: locationInputSchema, querystring: locationListQuerySchema, response: { 201: answers.add } }, config: { access: MANAGERS } },
    async (req, reply) => reply.status(201).send(await req.inTenant((tx) => addLocation(tx, req.auth.orgId, req.auth.userId, req.body, req.query))),
  );

  app.put(
    '/update-location/:id',
    { schema: { params: idParamsSchema, body: locationInputSchema, response: { 200: answers.update } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => updateLocation(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body)),
  );

  app.post(
    '/move-location/:id',
    { schema: { params: idParamsSchema, body: moveLocationSchema, response: { 200: answers.moved } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => moveLocation(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body.parentId)),
  );

  app.delete(
    '/delete-location/:id',
    { schema: { params: idParamsSchema, querystring: locationListQuerySchema, response: { 200: answers.remove } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => deleteLocation(tx, req.auth.orgId, req.auth.userId, req.params.id, req.query)),
  );
}
