import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from '../../shared/zod-setup';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import type { AccessClaims } from '../auth/tokens';
import { idParamsSchema, pdfAnswers } from '../../shared/pagination';
import { readUploadedFiles, storeDocument } from '../../server/uploads/documents';
import { DOCUMENT_RULES } from '../customers-vendors/customers-vendors.schema';
import { renderDocumentPdf } from './document-pdf.service';
import { userLanguage } from '../../server/pdf-labels';
import { documentOptionsQuery } from './document-lines.schema';
import { documentAnswers, documentPaths, type DocumentApiKind } from './commercial-documents.schema';
import type { documentService, DocumentValues, ListQuery } from './commercial-documents.service';
import { removingFiles } from '../../server/uploads/storage';

/** The form's values as the caller may send them: a worker's status is left out, so the record keeps its own. */
function statusFor(auth: AccessClaims, body: unknown): DocumentValues {
  const values = body as DocumentValues;
  if (MANAGERS.includes(auth.role)) return values;
  const { status: _ignored, ...rest } = values;
  return rest;
}

/**
 * The routes of one kind of commercial document (prefix /api/<plural>): list, options, attachments upload,
 * tax options, get, add, update, status, delete (managers) and PDF. Everyone signed in prepares documents;
 * only managers and admins change their status or delete them (decision 012): a worker's form keeps the status
 * it has (a new document starts as a draft), as the status commits money.
 */
export function commercialDocumentRoutes(
  kind: DocumentApiKind,
  schemas: { input: z.ZodType<unknown>; statusInput: z.ZodType<{ status: string }>; listQuery: z.ZodType<ListQuery>; dto: z.ZodObject },
  docs: ReturnType<typeof documentService>,
) {
  const paths = documentPaths(kind);
  const { input, statusInput, listQuery } = schemas;
  const answers = documentAnswers(kind, schemas.dto);
  return async function routes(appBase: FastifyInstance) {
    const app = appBase.withTypeProvider<ZodTypeProvider>();

    app.get(paths.list, { schema: { querystring: listQuery, response: { 200: answers.list } }, config: { access: EVERYONE } }, (req) =>
      req.read((tx) => docs.list(tx, req.auth.orgId, req.query)),
    );

    app.get(paths.options, { schema: { querystring: documentOptionsQuery, response: { 200: answers.options } }, config: { access: EVERYONE } }, (req) =>
      req.read((tx) => docs.options(tx, req.auth.orgId, req.query)),
    );

    // Attachments: stored first (PDF or images, checked by their bytes), then saved on the document with the form.
    app.post(paths.upload, { schema: { response: { 200: answers.upload } }, config: { access: EVERYONE } }, async (req) => {
      const files = await readUploadedFiles(req, DOCUMENT_RULES);
      const attachments: { url: string; name: string }[] = [];
      for (const file of files) attachments.push(await storeDocument(app.deps.storage, req.auth.orgId, file, DOCUMENT_RULES));
      return { attachments };
    });

    // The taxes its lines may take (sales for quotations, purchase for purchase orders), for the drawer's live totals.
    app.get(paths.taxOptions, { schema: { response: { 200: answers.taxOptions } }, config: { access: EVERYONE } }, (req) =>
      req.read((tx) => docs.taxOptions(tx, req.auth.orgId)),
    );

    app.get(`${paths.get}:id`, { schema: { params: idParamsSchema, response: { 200: answers.get } }, config: { access: EVERYONE } }, async (req) => {
      const doc = await req.read((tx) => docs.get(tx, req.auth.orgId, req.params.id));
      return { [kind.singularKey]: doc, services: doc.services, parts: doc.parts, serviceDetails: doc.serviceDetails, partDetails: doc.partDetails };
    });

    app.post(
      paths.add,
      { schema: { body: input, querystring: listQuery, response: { 201: answers.saved } }, config: { access: EVERYONE } },
      async (req, reply) =>
        reply.status(201).send(await req.inTenant((tx) => docs.add(tx, req.auth.orgId, req.auth.userId, statusFor(req.auth, req.body), req.query))),
    );

    app.put(
      `${paths.update}:id`,
      { schema: { params: idParamsSchema, body: input, querystring: listQuery, response: { 200: answers.saved } }, config: { access: EVERYONE } },
      (req) => req.inTenant((tx) => docs.update(tx, req.auth.orgId, req.auth.userId, req.params.id, statusFor(req.auth, req.body), req.query)),
    );

    app.put(
      `${paths.status}:id`,
      { schema: { params: idParamsSchema, body: statusInput, response: { 200: answers.status } }, config: { access: MANAGERS } },
      (req) => req.inTenant((tx) => docs.setStatus(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body.status)),
    );

    app.delete(
      `${paths.remove}:id`,
      { schema: { params: idParamsSchema, querystring: listQuery, response: { 200: answers.remove } }, config: { access: MANAGERS } },
      (req) => removingFiles(app.deps.storage, req, (tx) => docs.remove(tx, req.auth.orgId, req.auth.userId, req.params.id, req.query)),
    );

    app.get(
      `${paths.pdf}:id`,
      { schema: { params: idParamsSchema, response: pdfAnswers(`The ${kind.slug.replace('-', ' ')} as a PDF file`) }, config: { access: EVERYONE } },
      async (req, reply) => {
        // printed in the requesting user's language (decision 065)
        const { logoUrl, ...doc } = await req.read(async (tx) => ({
          ...(await docs.print(tx, req.auth.orgId, req.params.id)),
          language: await userLanguage(tx, req.auth.orgId, req.auth.userId),
        }));
        const logo = logoUrl ? ((await app.deps.storage.read(logoUrl)) ?? null) : null;
        const pdf = await renderDocumentPdf({ ...doc, logo });
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `inline; filename="${doc.number}.pdf"`)
          .header('cache-control', 'no-store')
          .send(pdf as never); // bytes: never serialised (the schema describes them)
      },
    );
  };
}
