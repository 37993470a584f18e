import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from '../../shared/zod-setup';
import { ADMINS, EVERYONE } from '../../server/plugins/request-context';
import { idParamsSchema, messageSchema } from '../../shared/pagination';
import { deleteSession, deleteUserSessions, listSessions } from './sessions.service';

export const sessionSchema = z.object({
  id: z.number(),
  browser: z.string(),
  os: z.string(),
  ipAddress: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export const sessionsAnswer = z.object({ sessions: z.array(sessionSchema) });

/** A person's signed-in devices (decision 076): listed and ended by themself; all ended by an admin. */
export async function sessionsRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get('/auth/list-sessions', { schema: { response: { 200: sessionsAnswer } }, config: { access: EVERYONE, apiKeys: false } }, (req) =>
    req.read((tx) => listSessions(tx, req.auth.orgId, req.auth.userId, req.auth.sessionId)),
  );

  // Like every delete, it returns the refreshed list.
  app.delete(
    '/auth/delete-session/:id',
    { schema: { params: idParamsSchema, response: { 200: sessionsAnswer.extend(messageSchema.shape) } }, config: { access: EVERYONE, apiKeys: false } },
    (req) =>
      req.inTenant(async (tx) => {
        await deleteSession(tx, req.auth.orgId, req.auth.userId, req.params.id);
        return { message: 'Session ended', ...(await listSessions(tx, req.auth.orgId, req.auth.userId, req.auth.sessionId)) };
      }),
  );

  app.post(
    '/user/delete-sessions/:id',
    { schema: { params: idParamsSchema, response: { 200: messageSchema.extend({ ended: z.number() }) } }, config: { access: ADMINS, apiKeys: false } },
    (req) => req.inTenant((tx) => deleteUserSessions(tx, req.auth.orgId, req.params.id)),
  );
}
