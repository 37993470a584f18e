import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema } from '../../shared/pagination';
import { processImage, readUploadedImage } from '../../server/uploads/images';
import { getCompany } from '../organization/organization.service';
import { getAppData } from './app-data.service';
import { appDataSchema } from './app-data.schema';
import { inviteUserSchema, userAnswers as answers, userUpdateSchema, usersQuerySchema } from './users.schema';
import { deleteUser, inviteUser, listUsers, setProfilePicture, updateUser } from './users.service';
import { removingFiles } from '../../server/uploads/storage';
import { requestOrigin } from '../../server/env';

/** People of the organisation (prefix /api/user) and the invitation call (/api/auth/addUser). */
export async function usersRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get('/get-app-data', { schema: { response: { 200: appDataSchema } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => getAppData(tx, req.auth.orgId, req.auth)),
  );

  app.get('/getCompanyUsers', { schema: { querystring: usersQuerySchema, response: { 200: answers.list } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listUsers(tx, req.auth.orgId, req.auth, req.query)),
  );

  app.put(
    '/updateUser/:id',
    { schema: { params: idParamsSchema, body: userUpdateSchema, response: { 200: answers.one } }, config: { access: EVERYONE, apiKeys: false } },
    (req) => req.inTenant((tx) => updateUser(tx, req.auth.orgId, req.auth, req.params.id, req.body)),
  );

  // Like every delete, it takes the list's query and returns the refreshed list.
  app.delete(
    '/deleteUser/:id',
    { schema: { params: idParamsSchema, querystring: usersQuerySchema, response: { 200: answers.remove } }, config: { access: MANAGERS } },
    (req) =>
      // The user's picture leaves storage once the delete has committed.
      removingFiles(app.deps.storage, req, async (tx) => ({
        ...(await deleteUser(tx, req.auth.orgId, req.auth, req.params.id)),
        ...(await listUsers(tx, req.auth.orgId, req.auth, req.query)),
      })),
  );

  app.post('/addProfilePicture', { schema: { response: { 200: answers.one } }, config: { access: EVERYONE, apiKeys: false } }, async (req) => {
    const image = await processImage(await readUploadedImage(req, 'avatar'), 'avatar');
    const { storage } = app.deps;
    const urls = { full: await storage.put(req.auth.orgId, image.full, 'webp'), low: await storage.put(req.auth.orgId, image.low, 'webp') };
    return req.inTenant((tx) => setProfilePicture(tx, req.auth.orgId, req.auth.userId, urls));
  });
}

/** POST /api/auth/addUser: the spec puts the invitation under /auth; it is a people action, so it lives here. */
export async function invitationRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  app.post('/addUser', { schema: { body: inviteUserSchema, response: { 201: answers.invited } }, config: { access: MANAGERS } }, async (req, reply) => {
    const { config, mailer } = app.deps;
    // The configured domain's link, never the Host header's (issue 45).
    const origin = requestOrigin(config, req);
    // 201 before the transaction: an Idempotency-Key stores the answer in it (decision 025).
    reply.status(201);
    return req.inTenant(async (tx) => {
      const company = await getCompany(tx, req.auth.orgId);
      return inviteUser(tx, req.auth.orgId, req.auth, req.body, { mailer, origin, organization: company.organization });
    });
  });
}
