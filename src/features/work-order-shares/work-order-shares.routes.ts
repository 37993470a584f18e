import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../server/db/client';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MANAGERS } from '../../server/plugins/request-context';
import { throttle } from '../../server/rate-limit';
import { HttpError } from '../../server/http-error';
import { requestOrigin } from '../../server/env';
import { readUploadedFiles, storeDocument } from '../../server/uploads/documents';
import { processImage, readUploadedImageAndFields } from '../../server/uploads/images';
import { stepImageVersion } from '../procedures/procedures.service';
import { removedUnlessKept, removingFiles, uploadSigner } from '../../server/uploads/storage';
import { idParamsSchema } from '../../shared/pagination';
import { DOCUMENT_RULES } from '../customers-vendors/customers-vendors.schema';
import {
  confirmCodeSchema,
  contractorAnswerSchema,
  contractorLaborSchema,
  contractorPartSchema,
  extendShareSchema,
  markDoneSchema,
  sendBackShareSchema,
  shareChangedSchema,
  shareCodeConfirmedSchema,
  shareCodeSentSchema,
  shareCommentSchema,
  shareCreatedSchema,
  sharedWorkOrderAnswerSchema,
  shareInputSchema,
  shareListAnswerSchema,
  shareListQuerySchema,
  shareMessageSchema,
  shareThreadSchema,
  sharedStepImageParamsSchema,
  shareTokenQuerySchema,
} from './work-order-shares.schema';
import {
  acceptShare,
  addContractorComment,
  addContractorFiles,
  addContractorLabor,
  addContractorPart,
  addTeamComment,
  answerContractorStep,
  checkContractorStepImage,
  checkContractorUpload,
  clearCodeTries,
  confirmShareCode,
  countCodeMail,
  countCodeTry,
  deleteContractorLine,
  createShare,
  extendShare,
  getShare,
  getSharedWorkOrder,
  listShares,
  liveShareId,
  markContractorDone,
  revokeShare,
  sendBackShare,
  sendShareCode,
  setContractorStepImage,
} from './work-order-shares.service';

type ZodApp = ReturnType<typeof withZod>;
const withZod = (app: FastifyInstance) => app.withTypeProvider<ZodTypeProvider>();

/**
 * Shared work orders (prefix /api/shared-work-orders, decision 040). The team's routes are for managers; the
 * contractor's are public, throttled per address (reads and writes on budgets of their own), and find their share
 * by the link's token on the host's organisation (`token=` in the query, which logs mask).
 */
export async function workOrderSharesRoutes(appBase: FastifyInstance) {
  const app = withZod(appBase);
  teamShareRoutes(app);
  contractorShareRoutes(app);
}

// ---- The team (managers) ----
function teamShareRoutes(app: ZodApp) {
  // Links from the configured domain, never the Host header (issue 45).
  const mail = (req: FastifyRequest) => ({ mailer: app.deps.mailer, origin: requestOrigin(app.deps.config, req) });

  app.get('/list-shares', { schema: { querystring: shareListQuerySchema, response: { 200: shareListAnswerSchema } }, config: { access: MANAGERS } }, (req) =>
    req.read((tx) => listShares(tx, req.auth.orgId, req.query)),
  );

  app.get('/get-share/:id', { schema: { params: idParamsSchema, response: { 200: shareThreadSchema } }, config: { access: MANAGERS } }, (req) =>
    req.read((tx) => getShare(tx, req.auth.orgId, req.params.id)),
  );

  app.post('/create-share', { schema: { body: shareInputSchema, response: { 201: shareCreatedSchema } }, config: { access: MANAGERS } }, async (req, reply) => {
    reply.status(201);
    return req.inTenant((tx) => createShare(tx, req.auth.orgId, req.auth, req.body, mail(req)));
  });

  app.put('/revoke-share/:id', { schema: { params: idParamsSchema, response: { 200: shareChangedSchema } }, config: { access: MANAGERS } }, (req) =>
    req.inTenant((tx) => revokeShare(tx, req.auth.orgId, req.auth, req.params.id)),
  );

  app.put(
    '/extend-share/:id',
    { schema: { params: idParamsSchema, body: extendShareSchema, response: { 200: shareChangedSchema } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => extendShare(tx, req.auth.orgId, req.params.id, req.body.days)),
  );

  app.put('/accept-share/:id', { schema: { params: idParamsSchema, response: { 200: shareChangedSchema } }, config: { access: MANAGERS } }, (req) =>
    req.inTenant((tx) => acceptShare(tx, req.auth.orgId, req.auth, req.params.id)),
  );

  app.put(
    '/send-back-share/:id',
    { schema: { params: idParamsSchema, body: sendBackShareSchema, response: { 200: shareChangedSchema } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => sendBackShare(tx, req.auth.orgId, req.auth, req.params.id, req.body.comment, mail(req))),
  );

  app.post(
    '/add-share-comment/:id',
    { schema: { params: idParamsSchema, body: shareCommentSchema, response: { 200: shareThreadSchema } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => addTeamComment(tx, req.auth.orgId, req.auth, req.params.id, req.body.body, mail(req))),
  );
}

// ---- The contractor (public, by the link's token) ----
function contractorShareRoutes(app: ZodApp) {
  const signer = uploadSigner(app.deps.config.jwtSecret);
  const sign = (url: string) => signer.sign(url);
  const orgOf = (req: FastifyRequest) => {
    if (!req.org) throw new HttpError(404, 'Shared work order not found');
    return req.org.id;
  };

  const open = { config: { access: 'public' as const }, onRequest: throttle('sharedWorkOrder') };
  const write = { config: { access: 'public' as const }, onRequest: throttle('sharedWorkOrderWrite') };
  const done = { 200: shareMessageSchema };
  const created = { 201: shareMessageSchema };

  app.get('/get-shared-work-order', { schema: { querystring: shareTokenQuerySchema, response: { 200: sharedWorkOrderAnswerSchema } }, ...open }, (req) =>
    req.read((tx) => getSharedWorkOrder(tx, orgOf(req), req.query.token, req.query.key, sign)),
  );

  // Mails and tries are also limited per share, whatever the address (issue 45), counted before the code's scope.
  const db = () => app.deps.database.db;
  const perShare = async (req: FastifyRequest, token: string, reply: FastifyReply, count: (db: Db, orgId: number, shareId: number) => Promise<void>) => {
    const orgId = orgOf(req);
    const shareId = await req.read((tx) => liveShareId(tx, orgId, token));
    try {
      await count(db(), orgId, shareId);
    } catch (err) {
      if (err instanceof HttpError && 'retryAfter' in err) reply.header('retry-after', String(err.retryAfter));
      throw err;
    }
    return { orgId, shareId };
  };

  app.post(
    '/send-share-code',
    { schema: { querystring: shareTokenQuerySchema, response: { 200: shareCodeSentSchema } }, config: { access: 'public' }, onRequest: throttle('shareCode') },
    async (req, reply) => {
      const { orgId } = await perShare(req, req.query.token, reply, countCodeMail);
      return req.inTenant((tx) => sendShareCode(tx, orgId, req.query.token, app.deps.mailer));
    },
  );

  app.post(
    '/confirm-share-code',
    {
      schema: { querystring: shareTokenQuerySchema, body: confirmCodeSchema, response: { 200: shareCodeConfirmedSchema } },
      config: { access: 'public' },
      onRequest: throttle('shareCode'),
    },
    async (req, reply) => {
      const { orgId, shareId } = await perShare(req, req.query.token, reply, countCodeTry);
      const result = await req.inTenant((tx) => confirmShareCode(tx, orgId, req.query.token, req.body.code));
      if (!result.ok) throw new HttpError(400, 'The code is wrong or has expired');
      await clearCodeTries(db(), orgId, shareId);
      return { message: 'E-mail confirmed', key: result.key };
    },
  );

  app.post(
    '/add-shared-comment',
    { schema: { querystring: shareTokenQuerySchema, body: shareCommentSchema, response: created }, ...write },
    async (req, reply) => {
      reply.status(201);
      return req.inTenant((tx) => addContractorComment(tx, orgOf(req), req.query.token, req.query.key, req.body.body, app.deps.mailer));
    },
  );

  // Files: the share is checked before a byte is read; then stored under the same checks as every upload.
  app.post('/upload-shared-files', { schema: { querystring: shareTokenQuerySchema, response: created }, ...write }, async (req, reply) => {
    const orgId = orgOf(req);
    await req.read((tx) => checkContractorUpload(tx, orgId, req.query.token, req.query.key));
    const files = await readUploadedFiles(req, DOCUMENT_RULES);
    const stored: { url: string; name: string }[] = [];
    for (const file of files) stored.push(await storeDocument(app.deps.storage, orgId, file, DOCUMENT_RULES));
    reply.status(201);
    return req.inTenant((tx) => addContractorFiles(tx, orgId, req.query.token, req.query.key, stored, app.deps.mailer));
  });

  app.post(
    '/add-shared-labor',
    { schema: { querystring: shareTokenQuerySchema, body: contractorLaborSchema, response: created }, ...write },
    async (req, reply) => {
      reply.status(201);
      return req.inTenant((tx) => addContractorLabor(tx, orgOf(req), req.query.token, req.query.key, req.body, app.deps.mailer));
    },
  );

  app.post(
    '/add-shared-part',
    { schema: { querystring: shareTokenQuerySchema, body: contractorPartSchema, response: created }, ...write },
    async (req, reply) => {
      reply.status(201);
      return req.inTenant((tx) => addContractorPart(tx, orgOf(req), req.query.token, req.query.key, req.body, app.deps.mailer));
    },
  );

  // Clearing a photo or signature step discards its file once the answer commits.
  app.post('/answer-shared-step', { schema: { querystring: shareTokenQuerySchema, body: contractorAnswerSchema, response: done }, ...write }, (req) =>
    removingFiles(app.deps.storage, req, (tx) => answerContractorStep(tx, orgOf(req), req.query.token, req.query.key, req.body, sign)),
  );

  // A photo or drawn signature step: the share and the step are checked before a byte is read; then the image rule
  // of every step image (re-encoded); the replaced image is discarded once the answer commits.
  app.post(
    '/add-shared-step-image/:stepId',
    { schema: { params: sharedStepImageParamsSchema, querystring: shareTokenQuerySchema, response: done }, ...write },
    async (req) => {
      const orgId = orgOf(req);
      const { token, key } = req.query;
      await req.read((tx) => checkContractorStepImage(tx, orgId, token, key, req.params.stepId));
      // The step's answeredAt as the page showed it comes with the file (field `answeredAt`): 409 if answered since.
      const { bytes, fields } = await readUploadedImageAndFields(req, 'image');
      const answeredAt = stepImageVersion(fields);
      const image = await processImage(bytes, 'image');
      const url = await app.deps.storage.put(orgId, image.full, 'webp');
      return removedUnlessKept(app.deps.storage, [url], () =>
        removingFiles(app.deps.storage, req, (tx) => setContractorStepImage(tx, orgId, token, key, req.params.stepId, url, answeredAt, sign)),
      );
    },
  );

  // The contractor's own time and parts lines (only their share's, while it works and is not accepted).
  app.delete('/delete-shared-labor/:id', { schema: { params: idParamsSchema, querystring: shareTokenQuerySchema, response: done }, ...write }, (req) =>
    req.inTenant((tx) => deleteContractorLine(tx, orgOf(req), req.query.token, req.query.key, 'labor', req.params.id)),
  );

  app.delete('/delete-shared-part/:id', { schema: { params: idParamsSchema, querystring: shareTokenQuerySchema, response: done }, ...write }, (req) =>
    req.inTenant((tx) => deleteContractorLine(tx, orgOf(req), req.query.token, req.query.key, 'part', req.params.id)),
  );

  app.post('/mark-shared-done', { schema: { querystring: shareTokenQuerySchema, body: markDoneSchema, response: done }, ...write }, (req) =>
    req.inTenant((tx) => markContractorDone(tx, orgOf(req), req.query.token, req.query.key, req.body.comment, app.deps.mailer)),
  );
}
