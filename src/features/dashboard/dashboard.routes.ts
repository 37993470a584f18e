import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE } from '../../server/plugins/request-context';
import { attentionQuerySchema, dashboardAnswers as answers } from './dashboard.schema';
import { getAttention, getLatestActivity } from './dashboard.service';

/** The dashboard (prefix /api/dashboard): what needs attention and the latest activity, each as the caller may see it. */
export async function dashboardRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/get-attention',
    { schema: { querystring: attentionQuerySchema, response: { 200: answers.attention } }, config: { access: EVERYONE } },
    async (req) => ({
      attention: await req.read((tx) => getAttention(tx, req.auth.orgId, req.auth, req.query.timeZone)),
    }),
  );

  app.get('/get-latest-activity', { schema: { response: { 200: answers.latest } }, config: { access: EVERYONE } }, async (req) => ({
    activities: await req.read((tx) => getLatestActivity(tx, req.auth.orgId, req.auth)),
  }));
}
