import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE } from '../../server/plugins/request-context';
import { calendarAnswerSchema, calendarQuerySchema } from './calendar.schema';
import { listCalendarEntries } from './calendar.service';

/**
 * The calendar (prefix /api/calendar, issue 23, decision 033): one read of what is due in a range. Moving an
 * entry is its own feature's route (work orders, maintenance orders: reschedule-…/{id}).
 */
export async function calendarRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/list-calendar-entries',
    { schema: { querystring: calendarQuerySchema, response: { 200: calendarAnswerSchema } }, config: { access: EVERYONE } },
    (req) => req.read((tx) => listCalendarEntries(tx, req.auth.orgId, req.auth, req.query)),
  );
}
