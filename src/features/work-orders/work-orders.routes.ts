import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema } from '../../shared/pagination';
import { recordWrites } from '../../server/record-routes';
import {
  addPartsSchema,
  usePartsSchema,
  workOrderAnswers as answers,
  laborInputSchema,
  laborParamsSchema,
  partParamsSchema,
  partQuantitySchema,
  rescheduleWorkOrderSchema,
  workOrderInputSchema,
  workOrderListQuerySchema,
  workOrderStatusSchema,
} from './work-orders.schema';
import { holdInputSchema, resumeInputSchema } from '../failure-codes/failure-codes.schema';
import {
  addLabor,
  addParts,
  addWorkOrder,
  deleteLabor,
  deletePart,
  deleteWorkOrder,
  getStatistics,
  getWorkOrder,
  listLabors,
  getWorkOrderCostFor,
  listParts,
  updatePartQuantity,
  useReservedParts,
  listWorkOrders,
  rescheduleWorkOrder,
  updateWorkOrder,
  updateWorkOrderStatus,
  holdWorkOrder,
  resumeWorkOrder,
} from './work-orders.service';

/**
 * Spec document 1, section 7 "Work orders" (prefix /api/work-orders). Workers reach only the orders
 * assigned to them (the service answers 404 for others); creating and deleting orders is for managers.
 */
export async function workOrdersRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  const writes = recordWrites(app);

  app.get('/get-work-orders', { schema: { querystring: workOrderListQuerySchema, response: { 200: answers.list } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listWorkOrders(tx, req.auth.orgId, req.auth, req.query)),
  );

  app.get('/get-statistics', { schema: { response: { 200: answers.statistics } }, config: { access: EVERYONE } }, async (req) => {
    const statistics = await req.read((tx) => getStatistics(tx, req.auth.orgId, req.auth));
    return { statistics, ...statistics };
  });

  app.get('/get-work-order/:id', { schema: { params: idParamsSchema, response: { 200: answers.one } }, config: { access: EVERYONE } }, async (req) => ({
    workOrder: await req.read((tx) => getWorkOrder(tx, req.auth.orgId, req.auth, req.params.id)),
  }));

  writes.add('/add-work-order', { query: workOrderListQuerySchema, body: workOrderInputSchema, response: answers.add, access: MANAGERS }, addWorkOrder);

  writes.put('/update-work-order/:id', { body: workOrderInputSchema, response: answers.update, access: EVERYONE }, updateWorkOrder);

  // The calendar's drag: a manager moves an order to another day (decision 033).
  writes.put('/reschedule-work-order/:id', { body: rescheduleWorkOrderSchema, response: answers.update, access: MANAGERS }, rescheduleWorkOrder);

  writes.delete('/delete-work-order/:id', { query: workOrderListQuerySchema, response: answers.remove, access: MANAGERS, removesFiles: true }, deleteWorkOrder);

  app.put(
    '/update-status/:id',
    { schema: { params: idParamsSchema, body: workOrderStatusSchema, response: { 200: answers.status } }, config: { access: EVERYONE } },
    (req) => {
      const { status, updatedAt, ...codes } = req.body;
      return req.inTenant((tx) => updateWorkOrderStatus(tx, req.auth.orgId, req.auth, req.params.id, status, updatedAt, codes));
    },
  );

  // On hold and resumed (decision 080): a flag beside the status, for the assigned worker and managers.
  writes.put('/hold-work-order/:id', { body: holdInputSchema, response: answers.update, access: EVERYONE }, holdWorkOrder);

  writes.put('/resume-work-order/:id', { body: resumeInputSchema, response: answers.update, access: EVERYONE }, (tx, orgId, actor, id, body) =>
    resumeWorkOrder(tx, orgId, actor, id, body.updatedAt),
  );

  // What the work order costs so far, contractors' external time and parts included (decision 040).
  app.get('/get-cost/:id', { schema: { params: idParamsSchema, response: { 200: answers.cost } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => getWorkOrderCostFor(tx, req.auth.orgId, req.auth, req.params.id)),
  );

  app.get('/get-labors/:id', { schema: { params: idParamsSchema, response: { 200: answers.labors } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listLabors(tx, req.auth.orgId, req.auth, req.params.id)),
  );

  writes.post('/add-labor/:id', { body: laborInputSchema, response: answers.laborAdded, access: EVERYONE, created: true }, addLabor);

  app.delete(
    '/delete-labor/:workOrderId/labor/:laborId',
    { schema: { params: laborParamsSchema, response: { 200: answers.laborDeleted } }, config: { access: EVERYONE } },
    (req) => req.inTenant((tx) => deleteLabor(tx, req.auth.orgId, req.auth, req.params.workOrderId, req.params.laborId)),
  );

  app.get('/get-parts/:id', { schema: { params: idParamsSchema, response: { 200: answers.parts } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listParts(tx, req.auth.orgId, req.auth, req.params.id)),
  );

  app.post(
    '/use-parts/:id',
    { schema: { params: idParamsSchema, body: usePartsSchema, response: { 200: answers.partsChanged } }, config: { access: EVERYONE } },
    (req) => req.inTenant((tx) => useReservedParts(tx, req.auth.orgId, req.auth, req.params.id, req.body?.partId)),
  );

  writes.post('/add-parts/:id', { body: addPartsSchema, response: answers.partsChanged, access: EVERYONE, created: true }, addParts);

  app.put(
    '/update-part/:workOrderId/part/:partId',
    { schema: { params: partParamsSchema, body: partQuantitySchema, response: { 200: answers.partsChanged } }, config: { access: EVERYONE } },
    (req) => req.inTenant((tx) => updatePartQuantity(tx, req.auth.orgId, req.auth, req.params.workOrderId, req.params.partId, req.body.quantity)),
  );

  app.delete(
    '/delete-part/:workOrderId/part/:partId',
    { schema: { params: partParamsSchema, response: { 200: answers.partsChanged } }, config: { access: EVERYONE } },
    (req) => req.inTenant((tx) => deletePart(tx, req.auth.orgId, req.auth, req.params.workOrderId, req.params.partId)),
  );
}
