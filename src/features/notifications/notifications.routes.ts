import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { HttpError } from '../../server/http-error';
import { throttle } from '../../server/rate-limit';
import { mailLanguage } from '../../server/mail-language';
import { errorAnswerSchema, fileAnswer } from '../../shared/pagination';
import { users } from '../../server/db/schema';
import {
  followParamsSchema,
  markReadInputSchema,
  mentionQuerySchema,
  notificationAnswers as answers,
  notificationListQuerySchema,
  notificationOrgSettingsSchema,
  notificationPreferencesSchema,
  unsubscribeQuerySchema,
} from './notifications.schema';
import {
  getOrgSettings,
  getPreferences,
  isFollowing,
  listMyNotifications,
  markRead,
  mentionCandidates,
  readUnsubscribeToken,
  setFollowing,
  unsubscribeEmail,
  updateOrgSettings,
  updatePreferences,
} from './notifications.service';
import { unsubscribePage } from './notifications.mail';
import { readOrgRow } from '../../server/db/org-rows';

const pageAnswers = { 200: fileAnswer('text/html', 'A page for the person who followed the link'), 404: errorAnswerSchema, 429: errorAnswerSchema };

/** The person's notifications (the bell), their preferences, following work, the mention picker, unsubscribing (decision 074). */
export async function notificationsRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  const viewer = (req: { auth: { userId: number; role: 'admin' | 'manager' | 'worker' } }) => ({ userId: req.auth.userId, role: req.auth.role });

  app.get('/', { schema: { querystring: notificationListQuerySchema, response: { 200: answers.list } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listMyNotifications(tx, req.auth.orgId, viewer(req), req.query.unreadOnly === 'true')),
  );

  app.post('/read', { schema: { body: markReadInputSchema, response: { 200: answers.unread } }, config: { access: EVERYONE } }, (req) =>
    req.inTenant((tx) => markRead(tx, req.auth.orgId, req.auth.userId, req.body.ids)),
  );

  app.get('/preferences', { schema: { response: { 200: answers.preferences } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => getPreferences(tx, req.auth.orgId, req.auth.userId)),
  );

  app.put('/preferences', { schema: { body: notificationPreferencesSchema, response: { 200: answers.preferences } }, config: { access: EVERYONE } }, (req) =>
    req.inTenant((tx) => updatePreferences(tx, req.auth.orgId, req.auth.userId, req.body)),
  );

  app.get('/organization-settings', { schema: { response: { 200: answers.orgSettings } }, config: { access: MANAGERS } }, async (req) => ({
    settings: await req.read((tx) => getOrgSettings(tx, req.auth.orgId)),
  }));

  app.put(
    '/organization-settings',
    { schema: { body: notificationOrgSettingsSchema, response: { 200: answers.orgSettings } }, config: { access: MANAGERS } },
    async (req) => ({ settings: await req.inTenant((tx) => updateOrgSettings(tx, req.auth.orgId, req.body)) }),
  );

  app.get('/work-orders/:id/follow', { schema: { params: followParamsSchema, response: { 200: answers.follow } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => isFollowing(tx, req.auth.orgId, viewer(req), req.params.id)),
  );

  app.put('/work-orders/:id/follow', { schema: { params: followParamsSchema, response: { 200: answers.follow } }, config: { access: EVERYONE } }, (req) =>
    req.inTenant((tx) => setFollowing(tx, req.auth.orgId, viewer(req), req.params.id, true)),
  );

  app.delete('/work-orders/:id/follow', { schema: { params: followParamsSchema, response: { 200: answers.follow } }, config: { access: EVERYONE } }, (req) =>
    req.inTenant((tx) => setFollowing(tx, req.auth.orgId, viewer(req), req.params.id, false)),
  );

  app.get('/mention-candidates', { schema: { querystring: mentionQuerySchema, response: { 200: answers.mentions } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => mentionCandidates(tx, req.auth.orgId, viewer(req), req.query.entityType, req.query.entityId, req.query.q)),
  );

  // The mail's unsubscribe link: GET shows a page whose button POSTs (a mail scanner's visit changes nothing);
  // POST is also the one-click unsubscribe of RFC 8058 (List-Unsubscribe-Post), sent form-encoded.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, _body, done) => done(null, {}));
  const secret = app.deps.config.jwtSecret;
  const tokenOf = (req: { org: { id: number } | null; query: { token: string } }) => {
    const claim = req.org ? readUnsubscribeToken(secret, req.org.id, req.query.token) : null;
    if (!claim || !req.org) throw new HttpError(404, 'This link is not valid');
    return { orgId: req.org.id, ...claim };
  };

  app.get(
    '/unsubscribe',
    { schema: { querystring: unsubscribeQuerySchema, response: pageAnswers }, config: { access: 'public' }, onRequest: throttle('tokenCheck') },
    async (req, reply) => {
      const claim = tokenOf(req);
      const [person] = await req.read((tx) =>
        tx
          .select({ language: users.language })
          .from(users)
          .where(and(eq(users.orgId, claim.orgId), eq(users.id, claim.userId))),
      );
      if (!person) throw new HttpError(404, 'This link is not valid');
      const page = unsubscribePage(mailLanguage(person.language), { kind: claim.kind, done: false, token: req.query.token });
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(page as never);
    },
  );

  app.post(
    '/unsubscribe',
    { schema: { querystring: unsubscribeQuerySchema, response: pageAnswers }, config: { access: 'public' }, onRequest: throttle('tokenCheck') },
    async (req, reply) => {
      const claim = tokenOf(req);
      const language = await req.inTenant(async (tx) => {
        const person = await readOrgRow(tx, users, { language: users.language }, claim.orgId, claim.userId);
        if (!person) throw new HttpError(404, 'This link is not valid');
        await unsubscribeEmail(tx, claim.orgId, claim.userId, claim.kind);
        return person.language;
      });
      const page = unsubscribePage(mailLanguage(language), { kind: claim.kind, done: true, token: req.query.token });
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(page as never);
    },
  );
}
