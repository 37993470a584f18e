import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMINS, EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { requestOrigin } from '../../server/env';
import { exportCsvAnswers, exportParamsSchema, exportQuerySchema, exportZipAnswers, importKindParamsSchema, importMappingAnswerSchema, importMappingSavedSchema, importMappingSchema, importRequestSchema, importResultSchema } from './data-transfer.schema';
import { getImportMapping, importRows, saveImportMapping } from './import.service';
import { exportListCsv, exportOrganisationZip } from './export.service';

/** What a file of IMPORT_MAX_ROWS rows as JSON may weigh. */
const IMPORT_BODY_LIMIT = 64 * 1024 * 1024;

/** Import and export (prefix /api/data-transfer; decision 042). Importing is for managers; a list exports what its reader sees. */
export async function dataTransferRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  // ---- Import ----
  app.post(
    '/import/:kind',
    { schema: { params: importKindParamsSchema, body: importRequestSchema, response: { 200: importResultSchema } }, config: { access: MANAGERS }, bodyLimit: IMPORT_BODY_LIMIT },
    (req) => {
      // Invitations (the users kind) link to the organisation's own address on the configured domain, as the invite route's do.
      const mail = { mailer: app.deps.mailer, origin: requestOrigin(app.deps.config, req) };
      return req.inTenant((tx) => importRows(tx, req.auth.orgId, req.auth, req.params.kind, req.body, mail));
    },
  );

  app.get('/mapping/:kind', { schema: { params: importKindParamsSchema, response: { 200: importMappingAnswerSchema } }, config: { access: MANAGERS } }, (req) =>
    req.read((tx) => getImportMapping(tx, req.auth.orgId, req.params.kind)),
  );

  app.put('/mapping/:kind', { schema: { params: importKindParamsSchema, body: importMappingSchema, response: { 200: importMappingSavedSchema } }, config: { access: MANAGERS } }, (req) =>
    req.inTenant((tx) => saveImportMapping(tx, req.auth.orgId, req.params.kind, req.body.mapping)),
  );

  // The declared file answer is for the API document: a stream is sent as it is, never serialised.
  app.get('/export/:list', { schema: { params: exportParamsSchema, querystring: exportQuerySchema, response: exportCsvAnswers }, config: { access: EVERYONE } }, (req, reply) => {
    const { stream, filename } = exportListCsv((fn) => req.read(fn, { long: true }), req.auth.orgId, req.auth, req.params.list, req.query);
    void reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`).send(stream as never);
  });

  // ---- Export: the whole organisation (admins) ----
  app.get('/export-organisation', { schema: { response: exportZipAnswers }, config: { access: ADMINS } }, async (req, reply) => {
    const { stream, filename } = await exportOrganisationZip((fn) => req.read(fn, { long: true }), req.auth.orgId, req.auth, app.deps.storage);
    await reply.header('content-type', 'application/zip').header('content-disposition', `attachment; filename="${filename}"`).send(stream as never);
  });
}
