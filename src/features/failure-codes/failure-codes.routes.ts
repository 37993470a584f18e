import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema } from '../../shared/pagination';
import {
  failureCodeAnswers as answers,
  failureCodeInputSchema,
  failureCodeListQuerySchema,
  failureCodeSettingsSchema,
  failureCodeUpdateSchema,
  starterLibraryInputSchema,
} from './failure-codes.schema';
import {
  addFailureCode,
  deleteFailureCode,
  getFailureCodeSettings,
  importStarterLibrary,
  listFailureCodes,
  updateFailureCode,
  updateFailureCodeSettings,
} from './failure-codes.service';

/** Failure codes (prefix /api/failure-codes, decision 080): everyone reads them (closing an order offers them); managers keep them. */
export async function failureCodesRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get('/get-failure-codes', { schema: { querystring: failureCodeListQuerySchema, response: { 200: answers.list } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listFailureCodes(tx, req.auth.orgId, req.query)),
  );

  app.post(
    '/add-failure-code',
    { schema: { body: failureCodeInputSchema, response: { 201: answers.add } }, config: { access: MANAGERS } },
    async (req, reply) => reply.status(201).send(await req.inTenant((tx) => addFailureCode(tx, req.auth.orgId, req.auth.userId, req.body))),
  );

  app.put(
    '/update-failure-code/:id',
    { schema: { params: idParamsSchema, body: failureCodeUpdateSchema, response: { 200: answers.update } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => updateFailureCode(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body)),
  );

  app.delete('/delete-failure-code/:id', { schema: { params: idParamsSchema, response: { 200: answers.remove } }, config: { access: MANAGERS } }, (req) =>
    req.inTenant((tx) => deleteFailureCode(tx, req.auth.orgId, req.auth.userId, req.params.id)),
  );

  app.post(
    '/import-starter-library',
    { schema: { body: starterLibraryInputSchema, response: { 201: answers.imported } }, config: { access: MANAGERS } },
    async (req, reply) => reply.status(201).send(await req.inTenant((tx) => importStarterLibrary(tx, req.auth.orgId, req.auth.userId, req.body.language))),
  );

  app.get('/get-failure-code-settings', { schema: { response: { 200: answers.settings } }, config: { access: EVERYONE } }, async (req) => ({
    settings: await req.read((tx) => getFailureCodeSettings(tx, req.auth.orgId)),
  }));

  app.put(
    '/update-failure-code-settings',
    { schema: { body: failureCodeSettingsSchema, response: { 200: answers.settingsSaved } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => updateFailureCodeSettings(tx, req.auth.orgId, req.body)),
  );
}
