import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMINS, EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { requestOrigin } from '../../server/env';
import {
  exportCsvAnswers,
  exportParamsSchema,
  exportQuerySchema,
  exportZipAnswers,
  ORGANISATION_ARCHIVE_MAX_BYTES,
  organisationImportAnswers,
  importKindParamsSchema,
  importMappingAnswerSchema,
  importMappingSavedSchema,
  importMappingSchema,
  importRequestSchema,
  importResultSchema,
} from './data-transfer.schema';
import { getImportMapping, importRows, saveImportMapping } from './import.service';
import { exportListCsv, exportOrganisationZip } from './export.service';
import { importOrganisationArchive } from './organisation-import';
import { HttpError } from '../../server/http-error';

const ARCHIVE_TOO_LARGE = 'The archive is larger than 200 MB';

/** What a file of IMPORT_MAX_ROWS rows as JSON may weigh. */
const IMPORT_BODY_LIMIT = 64 * 1024 * 1024;

/** Import and export (prefix /api/data-transfer; decision 042). Importing is for managers; a list exports what its reader sees. */
export async function dataTransferRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  // ---- Import ----
  app.post(
    '/import/:kind',
    {
      schema: { params: importKindParamsSchema, body: importRequestSchema, response: { 200: importResultSchema } },
      config: { access: MANAGERS },
      bodyLimit: IMPORT_BODY_LIMIT,
    },
    (req) => {
      // Invitations (the users kind) link to the organisation's own address on the configured domain, as the invite route's do.
      const mail = { mailer: app.deps.mailer, origin: requestOrigin(app.deps.config, req) };
      return req.inTenant((tx) => importRows(tx, req.auth.orgId, req.auth, req.params.kind, req.body, mail));
    },
  );

  app.get('/mapping/:kind', { schema: { params: importKindParamsSchema, response: { 200: importMappingAnswerSchema } }, config: { access: MANAGERS } }, (req) =>
    req.read((tx) => getImportMapping(tx, req.auth.orgId, req.params.kind)),
  );

  app.put(
    '/mapping/:kind',
    { schema: { params: importKindParamsSchema, body: importMappingSchema, response: { 200: importMappingSavedSchema } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => saveImportMapping(tx, req.auth.orgId, req.params.kind, req.body.mapping)),
  );

  // The declared file answer is for the API document: a stream is sent as it is, never serialised.
  app.get(
    '/export/:list',
    { schema: { params: exportParamsSchema, querystring: exportQuerySchema, response: exportCsvAnswers }, config: { access: EVERYONE } },
    (req, reply) => {
      const { stream, filename } = exportListCsv((fn) => req.read(fn, { long: true }), req.auth.orgId, req.auth, req.params.list, req.query);
      void reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(stream as never);
    },
  );

  // ---- Export: the whole organisation (admins) ----
  app.get('/export-organisation', { schema: { response: exportZipAnswers }, config: { access: ADMINS } }, async (req, reply) => {
    const { stream, filename } = await exportOrganisationZip((fn) => req.read(fn, { long: true }), req.auth.orgId, req.auth, app.deps.storage);
    await reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .send(stream as never);
  });

  // ---- Import: an organisation archive into an empty organisation (admins; decision 069) ----
  app.post(
    '/import-organisation',
    { schema: { response: organisationImportAnswers }, config: { access: ADMINS }, bodyLimit: ORGANISATION_ARCHIVE_MAX_BYTES + 1024 * 1024 },
    async (req) => {
      if (!req.isMultipart()) throw new HttpError(415, 'Upload the organisation archive (a .zip file) as multipart/form-data');
      const file = await req.file({ limits: { fileSize: ORGANISATION_ARCHIVE_MAX_BYTES, files: 1 } });
      if (!file) throw new HttpError(400, 'No file uploaded');
      const bytes = await file.toBuffer().catch((err: { code?: string }) => {
        if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, ARCHIVE_TOO_LARGE);
        throw err;
      });
      if (file.file.truncated) throw new HttpError(413, ARCHIVE_TOO_LARGE);
      return importOrganisationArchive(
        (fn) => req.read(fn, { long: true }),
        (fn) => req.inTenant(fn, { long: true }),
        req.auth.orgId,
        req.auth,
        app.deps.storage,
        bytes,
      );
    },
  );
}
