import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema } from '../../shared/pagination';
import { readUploadedFiles, storeDocument } from '../../server/uploads/documents';
import { DOCUMENT_RULES } from '../customers-vendors/customers-vendors.schema';
import { renderDocumentPdf } from '../quotations/document-pdf.service';
import {
  purchaseOrderInputSchema,
  purchaseOrderOptionsQuerySchema,
  purchaseOrdersQuerySchema,
  purchaseOrderStatusInputSchema,
} from './purchase-orders.schema';
import {
  addPurchaseOrder,
  deletePurchaseOrder,
  getPurchaseOrder,
  listPurchaseOrderOptions,
  listPurchaseOrders,
  printPurchaseOrder,
  updatePurchaseOrder,
  updatePurchaseOrderStatus,
  listPurchaseOrderTaxOptions,
} from './purchase-orders.service';

/** Purchase orders (prefix /api/purchase-orders). Everyone signed in prepares them; managers delete. */
export async function purchaseOrdersRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get('/get-purchase-orders', { schema: { querystring: purchaseOrdersQuerySchema }, config: { access: EVERYONE } }, (req) =>
    req.inTenant((tx) => listPurchaseOrders(tx, req.auth.orgId, req.query)),
  );

  app.get('/get-purchase-order-options', { schema: { querystring: purchaseOrderOptionsQuerySchema }, config: { access: EVERYONE } }, (req) =>
    req.inTenant((tx) => listPurchaseOrderOptions(tx, req.auth.orgId, req.query)),
  );

  // Attachments: stored first (PDF or images, checked by their bytes), then saved on the document with the form.
  app.post('/upload-attachments', { config: { access: EVERYONE } }, async (req) => {
    const files = await readUploadedFiles(req, DOCUMENT_RULES);
    const attachments: { url: string; name: string }[] = [];
    for (const file of files) attachments.push(await storeDocument(app.deps.storage, req.auth.orgId, file, DOCUMENT_RULES));
    return { attachments };
  });

  // The taxes its lines may take (sales for quotations, purchase for purchase orders), for the drawer's live totals.
  app.get('/get-tax-options', { config: { access: EVERYONE } }, (req) => req.inTenant((tx) => listPurchaseOrderTaxOptions(tx, req.auth.orgId)));

  app.get('/get-purchase-order/:id', { schema: { params: idParamsSchema }, config: { access: EVERYONE } }, async (req) => {
    const purchaseOrder = await req.inTenant((tx) => getPurchaseOrder(tx, req.auth.orgId, req.params.id));
    return { purchaseOrder, services: purchaseOrder.services, parts: purchaseOrder.parts, serviceDetails: purchaseOrder.serviceDetails, partDetails: purchaseOrder.partDetails };
  });

  app.post(
    '/add-purchase-order',
    { schema: { body: purchaseOrderInputSchema, querystring: purchaseOrdersQuerySchema }, config: { access: EVERYONE } },
    async (req, reply) => reply.status(201).send(await req.inTenant((tx) => addPurchaseOrder(tx, req.auth.orgId, req.auth.userId, req.body, req.query))),
  );

  app.put(
    '/update-purchase-order/:id',
    { schema: { params: idParamsSchema, body: purchaseOrderInputSchema, querystring: purchaseOrdersQuerySchema }, config: { access: EVERYONE } },
    (req) => req.inTenant((tx) => updatePurchaseOrder(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body, req.query)),
  );

  app.put(
    '/update-purchase-order-status/:id',
    { schema: { params: idParamsSchema, body: purchaseOrderStatusInputSchema }, config: { access: EVERYONE } },
    (req) => req.inTenant((tx) => updatePurchaseOrderStatus(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body.status)),
  );

  app.delete(
    '/delete-purchase-order/:id',
    { schema: { params: idParamsSchema, querystring: purchaseOrdersQuerySchema }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => deletePurchaseOrder(tx, req.auth.orgId, req.auth.userId, req.params.id, req.query)),
  );

  app.get('/get-purchase-order-pdf/:id', { schema: { params: idParamsSchema }, config: { access: EVERYONE } }, async (req, reply) => {
    const { logoUrl, ...doc } = await req.inTenant((tx) => printPurchaseOrder(tx, req.auth.orgId, req.params.id));
    const logo = logoUrl ? ((await app.deps.storage.read?.(logoUrl)) ?? null) : null;
    const pdf = await renderDocumentPdf({ ...doc, logo });
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `inline; filename="${doc.number}.pdf"`)
      .header('cache-control', 'no-store')
      .send(pdf);
  });
}
