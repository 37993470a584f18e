import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema } from '../../shared/pagination';
import {
  maintenanceOrderAnswers as answers,
  maintenanceOrderInputSchema,
  maintenanceOrdersQuerySchema,
  newMaintenanceOrderInputSchema,
  orderStatusInputSchema,
  rescheduleMaintenanceOrderSchema,
} from './maintenance-orders.schema';
import {
  addMaintenanceOrder,
  deleteMaintenanceOrder,
  getMaintenanceOrder,
  listMaintenanceOrders,
  rescheduleMaintenanceOrder,
  updateMaintenanceOrder,
  updateOrderStatus,
} from './maintenance-orders.service';

/** Preventive maintenance orders (prefix /api/maintenance-orders): spec doc 1 section 7. */
export async function maintenanceOrdersRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/get-maintenance-orders',
    { schema: { querystring: maintenanceOrdersQuerySchema, response: { 200: answers.list } }, config: { access: EVERYONE } },
    (req) => req.read((tx) => listMaintenanceOrders(tx, req.auth.orgId, req.query)),
  );

  app.get('/get-maintenance-order/:id', { schema: { params: idParamsSchema, response: { 200: answers.both } }, config: { access: EVERYONE } }, async (req) => {
    const order = await req.read((tx) => getMaintenanceOrder(tx, req.auth.orgId, req.params.id));
    return { maintenanceOrder: order, order };
  });

  app.post(
    '/add-maintenance-order',
    {
      schema: { querystring: maintenanceOrdersQuerySchema, body: newMaintenanceOrderInputSchema, response: { 201: answers.add } },
      config: { access: EVERYONE },
    },
    async (req, reply) => reply.status(201).send(await req.inTenant((tx) => addMaintenanceOrder(tx, req.auth.orgId, req.auth, req.body, req.query))),
  );

  app.put(
    '/update-maintenance-order/:id',
    { schema: { params: idParamsSchema, body: maintenanceOrderInputSchema, response: { 200: answers.changed } }, config: { access: EVERYONE } },
    (req) => req.inTenant((tx) => updateMaintenanceOrder(tx, req.auth.orgId, req.auth, req.params.id, req.body)),
  );

  // The calendar's drag: a manager moves an order to another day (decision 033).
  app.put(
    '/reschedule-maintenance-order/:id',
    { schema: { params: idParamsSchema, body: rescheduleMaintenanceOrderSchema, response: { 200: answers.changed } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => rescheduleMaintenanceOrder(tx, req.auth.orgId, req.auth, req.params.id, req.body)),
  );

  app.put(
    '/update-status/:id',
    { schema: { params: idParamsSchema, body: orderStatusInputSchema, response: { 200: answers.status } }, config: { access: EVERYONE } },
    (req) => req.inTenant((tx) => updateOrderStatus(tx, req.auth.orgId, req.auth, req.params.id, req.body.status)),
  );

  app.delete(
    '/delete-maintenance-order/:id',
    { schema: { params: idParamsSchema, querystring: maintenanceOrdersQuerySchema, response: { 200: answers.remove } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => deleteMaintenanceOrder(tx, req.auth.orgId, req.auth, req.params.id, req.query)),
  );
}
