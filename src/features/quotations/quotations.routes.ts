import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema } from '../../shared/pagination';
import { readUploadedFiles, storeDocument } from '../../server/uploads/documents';
import { DOCUMENT_RULES } from '../customers-vendors/customers-vendors.schema';
import { renderDocumentPdf } from './document-pdf.service';
import {
  quotationInputSchema,
  quotationOptionsQuerySchema,
  quotationsQuerySchema,
  quotationStatusInputSchema,
} from './quotations.schema';
import {
  addQuotation,
  deleteQuotation,
  getQuotation,
  listQuotationOptions,
  listQuotations,
  printQuotation,
  updateQuotation,
  updateQuotationStatus,
  listQuotationTaxOptions,
} from './quotations.service';

/** Quotations (prefix /api/quotations). Everyone signed in prepares them; managers delete. */
export async function quotationsRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get('/get-quotations', { schema: { querystring: quotationsQuerySchema }, config: { access: EVERYONE } }, (req) =>
    req.inTenant((tx) => listQuotations(tx, req.auth.orgId, req.query)),
  );

  app.get('/get-quotation-options', { schema: { querystring: quotationOptionsQuerySchema }, config: { access: EVERYONE } }, (req) =>
    req.inTenant((tx) => listQuotationOptions(tx, req.auth.orgId, req.query)),
  );

  // Attachments: stored first (PDF or images, checked by their bytes), then saved on the document with the form.
  app.post('/upload-attachments', { config: { access: EVERYONE } }, async (req) => {
    const files = await readUploadedFiles(req, DOCUMENT_RULES);
    const attachments: { url: string; name: string }[] = [];
    for (const file of files) attachments.push(await storeDocument(app.deps.storage, req.auth.orgId, file, DOCUMENT_RULES));
    return { attachments };
  });

  // The taxes its lines may take (sales for quotations, purchase for purchase orders), for the drawer's live totals.
  app.get('/get-tax-options', { config: { access: EVERYONE } }, (req) => req.inTenant((tx) => listQuotationTaxOptions(tx, req.auth.orgId)));

  app.get('/get-quotation/:id', { schema: { params: idParamsSchema }, config: { access: EVERYONE } }, async (req) => {
    const quotation = await req.inTenant((tx) => getQuotation(tx, req.auth.orgId, req.params.id));
    return { quotation, services: quotation.services, parts: quotation.parts, serviceDetails: quotation.serviceDetails, partDetails: quotation.partDetails };
  });

  app.post(
    '/add-quotation',
    { schema: { body: quotationInputSchema, querystring: quotationsQuerySchema }, config: { access: EVERYONE } },
    async (req, reply) => reply.status(201).send(await req.inTenant((tx) => addQuotation(tx, req.auth.orgId, req.auth.userId, req.body, req.query))),
  );

  app.put(
    '/update-quotation/:id',
    { schema: { params: idParamsSchema, body: quotationInputSchema, querystring: quotationsQuerySchema }, config: { access: EVERYONE } },
    (req) => req.inTenant((tx) => updateQuotation(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body, req.query)),
  );

  app.put(
    '/update-quotation-status/:id',
    { schema: { params: idParamsSchema, body: quotationStatusInputSchema }, config: { access: EVERYONE } },
    (req) => req.inTenant((tx) => updateQuotationStatus(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body.status)),
  );

  app.delete(
    '/delete-quotation/:id',
    { schema: { params: idParamsSchema, querystring: quotationsQuerySchema }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => deleteQuotation(tx, req.auth.orgId, req.auth.userId, req.params.id, req.query)),
  );

  app.get('/get-quotation-pdf/:id', { schema: { params: idParamsSchema }, config: { access: EVERYONE } }, async (req, reply) => {
    const { logoUrl, ...doc } = await req.inTenant((tx) => printQuotation(tx, req.auth.orgId, req.params.id));
    const logo = logoUrl ? ((await app.deps.storage.read?.(logoUrl)) ?? null) : null;
    const pdf = await renderDocumentPdf({ ...doc, logo });
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `inline; filename="${doc.number}.pdf"`)
      .header('cache-control', 'no-store')
      .send(pdf);
  });
}
