import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from '../../shared/zod-setup';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema } from '../../shared/pagination';
import { recordWrites } from '../../server/record-routes';
import { readUploadedFiles, storeDocument } from '../../server/uploads/documents';
import { createOrderFromRequest } from '../maintenance-orders/maintenance-orders.service';
import { maintenanceOrderAnswers, orderFromRequestInputSchema } from '../maintenance-orders/maintenance-orders.schema';
import {
  ATTACHMENT_RULES,
  maintenanceRequestAnswers as answers,
  maintenanceRequestInputSchema,
  maintenanceRequestsQuerySchema,
  requestOptionsQuerySchema,
  requestStateInputSchema,
} from './maintenance-requests.schema';
import {
  addMaintenanceRequest,
  addRequestAttachments,
  deleteMaintenanceRequest,
  deleteRequestAttachment,
  getMaintenanceRequest,
  getRequestStatistics,
  listMaintenanceRequests,
  listRequestOptions,
  updateMaintenanceRequest,
  updateRequestState,
} from './maintenance-requests.service';
import { removingFiles } from '../../server/uploads/storage';

const attachmentQuerySchema = z.object({ url: z.string({ error: 'url is required' }).min(1, 'url is required').max(300, 'Invalid url') });

/** Maintenance requests (prefix /api/maintenance-requests): spec doc 2 section 7, plus attachments and Create Order. */
export async function maintenanceRequestsRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  const writes = recordWrites(app);

  app.get(
    '/get-maintenance-requests',
    { schema: { querystring: maintenanceRequestsQuerySchema, response: { 200: answers.list } }, config: { access: EVERYONE } },
    (req) => req.read((tx) => listMaintenanceRequests(tx, req.auth.orgId, req.query)),
  );

  app.get('/get-statistics', { schema: { response: { 200: answers.statistics } }, config: { access: EVERYONE } }, async (req) => ({
    statistics: await req.read((tx) => getRequestStatistics(tx, req.auth.orgId)),
  }));

  app.get(
    '/get-maintenance-request-options',
    { schema: { querystring: requestOptionsQuerySchema, response: { 200: answers.options } }, config: { access: EVERYONE } },
    (req) => req.read((tx) => listRequestOptions(tx, req.auth.orgId, req.query)),
  );

  app.get(
    '/get-maintenance-request/:id',
    { schema: { params: idParamsSchema, response: { 200: answers.one } }, config: { access: EVERYONE } },
    async (req) => ({
      maintenanceRequest: await req.read((tx) => getMaintenanceRequest(tx, req.auth.orgId, req.params.id)),
    }),
  );

  writes.add(
    '/add-maintenance-request',
    { query: maintenanceRequestsQuerySchema, body: maintenanceRequestInputSchema, response: answers.add, access: EVERYONE },
    addMaintenanceRequest,
  );

  writes.put('/update-maintenance-request/:id', { body: maintenanceRequestInputSchema, response: answers.changed, access: EVERYONE }, updateMaintenanceRequest);

  writes.put('/update-state/:id', { body: requestStateInputSchema, response: answers.state, access: EVERYONE }, (tx, orgId, actor, id, body) =>
    updateRequestState(tx, orgId, actor, id, body.state),
  );

  writes.delete(
    '/delete-maintenance-request/:id',
    { query: maintenanceRequestsQuerySchema, response: answers.remove, access: MANAGERS, removesFiles: true },
    deleteMaintenanceRequest,
  );

  // 'Create Order' on an approved request: the spec's button sent nothing; ours creates the order the
  // pre-filled form describes, under the order's own rules (decision 037).
  writes.post(
    '/create-order/:id',
    { body: orderFromRequestInputSchema, response: maintenanceOrderAnswers.changed, access: MANAGERS, created: true },
    createOrderFromRequest,
  );

  // Attachments tab: multipart, any number of files (PDF, JPEG, PNG, WebP) checked by their bytes.
  app.post('/add-attachments/:id', { schema: { params: idParamsSchema, response: { 200: answers.changed } }, config: { access: EVERYONE } }, async (req) => {
    // A read, not a write: a keyed upload's key is claimed by its first write, which must come after the files are read.
    await req.read((tx) => getMaintenanceRequest(tx, req.auth.orgId, req.params.id));
    const files = await readUploadedFiles(req, ATTACHMENT_RULES);
    const stored: { url: string; name: string }[] = [];
    for (const file of files) stored.push(await storeDocument(app.deps.storage, req.auth.orgId, file, ATTACHMENT_RULES));
    return req.inTenant((tx) => addRequestAttachments(tx, req.auth.orgId, req.auth, req.params.id, stored));
  });

  app.delete(
    '/delete-attachment/:id',
    { schema: { params: idParamsSchema, querystring: attachmentQuerySchema, response: { 200: answers.changed } }, config: { access: EVERYONE } },
    (req) => removingFiles(app.deps.storage, req, (tx) => deleteRequestAttachment(tx, req.auth.orgId, req.auth, req.params.id, req.query.url)),
  );
}
