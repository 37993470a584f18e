import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '../../shared/pagination';
import { MANAGERS } from '../../server/plugins/request-context';
import { insightsReportDeletedSchema, insightsReportInputSchema, insightsReportListSchema, insightsReportSavedSchema } from './insights-reports.schema';
import { addInsightsReport, deleteInsightsReport, listInsightsReports, updateInsightsReport } from './insights-reports.service';

/**
 * Scheduled insights reports (prefix /api/insights-reports, decision 075): managers and admins schedule their own
 * weekly or monthly summaries; another manager's reports are not found.
 */
export async function insightsReportsRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get('/list-reports', { schema: { response: { 200: insightsReportListSchema } }, config: { access: MANAGERS } }, (req) =>
    req.read((tx) => listInsightsReports(tx, req.auth.orgId, req.auth.userId)),
  );

  app.post(
    '/add-report',
    { schema: { body: insightsReportInputSchema, response: { 201: insightsReportSavedSchema } }, config: { access: MANAGERS } },
    async (req, reply) => reply.status(201).send(await req.inTenant((tx) => addInsightsReport(tx, req.auth.orgId, req.auth.userId, req.body))),
  );

  app.put(
    '/update-report/:id',
    { schema: { params: idParamsSchema, body: insightsReportInputSchema, response: { 200: insightsReportSavedSchema } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => updateInsightsReport(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body)),
  );

  app.delete(
    '/delete-report/:id',
    { schema: { params: idParamsSchema, response: { 200: insightsReportDeletedSchema } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => deleteInsightsReport(tx, req.auth.orgId, req.auth.userId, req.params.id)),
  );
}
