import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE } from '../../server/plugins/request-context';
import { activityAnswers as answers, activityParamsSchema, noteInputSchema, notificationSettingsSchema } from './activity.schema';
import { addNote, getNotificationSettings, listActivities, listRecentActivities, updateNotificationSettings } from './activity.service';

/** The Note Logs tab of every drawer: GET a record's history, POST a note on it. */
export async function activityRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get('/recent', { schema: { response: { 200: answers.recent } }, config: { access: EVERYONE } }, async (req) => ({
    activities: await req.read((tx) => listRecentActivities(tx, req.auth.orgId, req.auth)),
  }));

  // Each user's own bell settings: everyone may read and change theirs, nobody anyone else's.
  app.get('/notification-settings', { schema: { response: { 200: answers.settings } }, config: { access: EVERYONE } }, async (req) => ({
    notificationSettings: await req.read((tx) => getNotificationSettings(tx, req.auth.orgId, req.auth.userId)),
  }));

  app.put(
    '/notification-settings',
    { schema: { body: notificationSettingsSchema, response: { 200: answers.settings } }, config: { access: EVERYONE } },
    async (req) => ({
      notificationSettings: await req.inTenant((tx) => updateNotificationSettings(tx, req.auth.orgId, req.auth.userId, req.body)),
    }),
  );

  app.get(
    '/:entityType/:entityId',
    { schema: { params: activityParamsSchema, response: { 200: answers.history } }, config: { access: EVERYONE } },
    async (req) => ({
      activities: await req.read((tx) => listActivities(tx, req.auth.orgId, req.auth, req.params.entityType, req.params.entityId)),
    }),
  );

  app.post(
    '/:entityType/:entityId/notes',
    { schema: { params: activityParamsSchema, body: noteInputSchema, response: { 201: answers.history } }, config: { access: EVERYONE } },
    async (req, reply) =>
      // The whole answer comes out of the transaction: an Idempotency-Key stores it there (decision 025).
      reply.status(201).send(
        await req.inTenant(async (tx) => ({
          activities: await addNote(tx, req.auth.orgId, req.auth, req.params.entityType, req.params.entityId, req.body.note),
        })),
      ),
  );
}
