import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { registerCrudRoutes } from '../../server/crud-routes';
import { recordWrites } from '../../server/record-routes';
import { processImage, readUploadedImageAndFields } from '../../server/uploads/images';
import { removedUnlessKept, removingFiles } from '../../server/uploads/storage';
import { idParamsSchema, pdfAnswers } from '../../shared/pagination';
import { getCompany } from '../organization/organization.service';
import {
  answerStepSchema,
  procedureAnswers as answers,
  attachProcedureSchema,
  followUpSchema,
  procedureInputSchema,
  procedureListQuerySchema,
  PROCEDURE_MESSAGES,
  signStepSchema,
  stepImageParamsSchema,
} from './procedures.schema';
import {
  addProcedure,
  answerProcedureStep,
  attachProcedureToWorkOrder,
  checkImageStep,
  createFollowUp,
  deleteProcedure,
  detachProcedure,
  getProcedure,
  getWorkOrderProcedure,
  listProcedures,
  printWorkOrder,
  setStepImage,
  signProcedureStep,
  stepImageVersion,
  updateProcedure,
} from './procedures.service';
import { renderWorkOrderPdf } from './work-order-pdf.service';
import { userLanguage } from '../../server/pdf-labels';
import { throttle } from '../../server/rate-limit';
import { reauthenticateSigner } from '../auth/auth.service';
import { reauthMethod, spendReauthProof } from '../sso/sso-reauth.service';
import { SSO_MESSAGES } from '../sso/sso.schema';
import { HttpError } from '../../server/http-error';

/** The procedure library (prefix /api/procedures): everyone reads, managers write (decision 030). */
export async function proceduresRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  registerCrudRoutes(app, {
    names: { noun: 'procedure', plural: 'procedures', listPath: '/list-procedures' },
    access: { read: EVERYONE, write: MANAGERS },
    schemas: { listQuery: procedureListQuerySchema, input: procedureInputSchema, answers },
    service: { list: listProcedures, add: addProcedure, update: updateProcedure, remove: deleteProcedure },
    one: { key: 'procedure', get: getProcedure },
  });
}

/**
 * A work order's procedure (prefix /api/work-orders, beside the work order's own routes): workers fill the
 * steps of the orders they see (the service answers 404 for others); managers attach and detach.
 */
export async function workOrderProcedureRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  const writes = recordWrites(app);

  app.get(
    '/get-work-order-procedure/:id',
    { schema: { params: idParamsSchema, response: { 200: answers.workOrderProcedure } }, config: { access: EVERYONE } },
    (req) => req.read((tx) => getWorkOrderProcedure(tx, req.auth.orgId, req.auth, req.params.id)),
  );

  writes.post('/attach-procedure/:id', { body: attachProcedureSchema, response: answers.attached, access: MANAGERS }, (tx, orgId, actor, id, body) =>
    attachProcedureToWorkOrder(tx, orgId, actor, id, body.procedureId),
  );

  writes.delete('/detach-procedure/:id', { response: answers.attached, access: MANAGERS, removesFiles: true }, detachProcedure);

  writes.put('/answer-procedure-step/:id', { body: answerStepSchema, response: answers.answered, access: EVERYONE, removesFiles: true }, answerProcedureStep);

  // A sign-off (decision 078): the signer's password is checked again (outside the write, throttled like
  // verify-password), then the step is signed in one short write. A person who signs with single sign-on sends the
  // proof of a fresh sign-in for this step instead, spent in the same write (used once).
  app.post(
    '/sign-procedure-step/:id',
    {
      schema: { params: idParamsSchema, body: signStepSchema, response: { 200: answers.signed } },
      config: { access: EVERYONE, apiKeys: false },
      onRequest: throttle('verifyPassword', 'user'),
    },
    async (req) => {
      const { password, reauthProof, ...input } = req.body;
      const { orgId, userId } = req.auth;
      const db = app.deps.database.db;
      if (reauthProof) {
        const step = { workOrderId: req.params.id, stepId: Number(input.stepId) };
        return req.inTenant((tx) =>
          signProcedureStep(tx, orgId, req.auth, req.params.id, input, async () => (await spendReauthProof(tx, orgId, userId, step, reauthProof)).name),
        );
      }
      // Who signs in only with the identity provider signs with it too.
      if ((await reauthMethod(db, orgId, userId)).method === 'sso')
        throw new HttpError(400, SSO_MESSAGES.reauthRequired, [{ path: 'password', message: SSO_MESSAGES.reauthRequired }]);
      const { name } = await reauthenticateSigner(db, orgId, userId, password ?? '', PROCEDURE_MESSAGES.wrongPassword);
      return req.inTenant((tx) => signProcedureStep(tx, orgId, req.auth, req.params.id, input, name));
    },
  );

  // Multipart field `image` (a photo, or a drawn signature as PNG): the generic image rule, re-encoded before it is stored.
  app.post(
    '/add-step-image/:workOrderId/step/:stepId',
    { schema: { params: stepImageParamsSchema, response: { 200: answers.imageSaved } }, config: { access: EVERYONE } },
    async (req) => {
      const { workOrderId, stepId } = req.params;
      await req.inTenant((tx) => checkImageStep(tx, req.auth.orgId, req.auth, workOrderId, stepId));
      // The step's answeredAt as the client saw it comes with the file (field `answeredAt`, before it): 409 if answered since.
      const { bytes, fields } = await readUploadedImageAndFields(req, 'image');
      const answeredAt = stepImageVersion(fields);
      const image = await processImage(bytes, 'image');
      const url = await app.deps.storage.put(req.auth.orgId, image.full, 'webp');
      return removedUnlessKept(app.deps.storage, [url], () =>
        removingFiles(app.deps.storage, req, (tx) => setStepImage(tx, req.auth.orgId, req.auth, workOrderId, stepId, url, answeredAt)),
      );
    },
  );

  writes.post('/create-follow-up/:id', { body: followUpSchema, response: answers.followUp, access: EVERYONE, created: true }, (tx, orgId, actor, id, body) =>
    createFollowUp(tx, orgId, actor, id, body.stepId),
  );

  app.get(
    '/print-work-order/:id',
    { schema: { params: idParamsSchema, response: pdfAnswers('The work order with its procedure as a PDF file') }, config: { access: EVERYONE } },
    async (req, reply) => {
      const { workOrder, procedure, company, language } = await req.read(async (tx) => ({
        ...(await printWorkOrder(tx, req.auth.orgId, req.auth, req.params.id)),
        company: await getCompany(tx, req.auth.orgId),
        // printed in the requesting user's language (decision 065)
        language: await userLanguage(tx, req.auth.orgId, req.auth.userId),
      }));
      const images = new Map<string, Buffer>();
      for (const step of procedure?.steps ?? []) {
        if (typeof step.value === 'string' && (step.kind === 'photo' || step.kind === 'signature')) {
          const bytes = await app.deps.storage.read(step.value);
          if (bytes) images.set(step.value, bytes);
        }
      }
      const pdf = await renderWorkOrderPdf({ workOrder, procedure, organization: company.organization, timeZone: company.timeZone, images, language });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${workOrder.workOrderId}.pdf"`)
        .header('cache-control', 'no-store')
        .send(pdf as never); // bytes: never serialised (the schema describes them)
    },
  );
}
