import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema } from '../../shared/pagination';
import { recordWrites } from '../../server/record-routes';
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
  const writes = recordWrites(app);

  app.get(
    '/get-maintenance-orders',
    { schema: { querystring: maintenanceOrdersQuerySchema, response: { 200: answers.list } }, config: { access: EVERYONE } },
    (req) => req.read((tx) => listMaintenanceOrders(tx, req.auth.orgId, req.query)),
  );

  app.get('/get-maintenance-order/:id', { schema: { params: idParamsSchema, response: { 200: answers.both } }, config: { access: EVERYONE } }, async (req) => {
    const order = await req.read((tx) => getMaintenanceOrder(tx, req.auth.orgId, req.params.id));
    return { maintenanceOrder: order, order };
  });

  writes.add(
    '/add-maintenance-order',
    { query: maintenanceOrdersQuerySchema, body: newMaintenanceOrderInputSchema, response: answers.add, access: EVERYONE },
    addMaintenanceOrder,
  );

  writes.put('/update-maintenance-order/:id', { body: maintenanceOrderInputSchema, response: answers.changed, access: EVERYONE }, updateMaintenanceOrder);

  // The calendar's drag: a manager moves an order to another day (decision 033).
  writes.put(
    '/reschedule-maintenance-order/:id',
    { body: rescheduleMaintenanceOrderSchema, response: answers.changed, access: MANAGERS },
    rescheduleMaintenanceOrder,
  );

  writes.put('/update-status/:id', { body: orderStatusInputSchema, response: answers.status, access: EVERYONE }, (tx, orgId, actor, id, body) =>
    updateOrderStatus(tx, orgId, actor, id, body.status),
  );

  writes.delete('/delete-maintenance-order/:id', { query: maintenanceOrdersQuerySchema, response: answers.remove, access: MANAGERS }, deleteMaintenanceOrder);
}
