import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMINS } from '../../server/plugins/request-context';
import { auditAnswers as answers, auditFilterSchema, auditListQuerySchema, auditSettingsSchema } from './audit.schema';
import { anchorKeysOf } from './audit-anchor';
import { checkAuditChain, exportAuditLogCsv, getAuditSettings, listAuditLog, saveAuditSettings } from './audit.service';

/** The audit log (prefix /api/audit-log, decision 078): admins read, filter, export and check it; nothing edits it. */
export async function auditRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  const anchorKeys = anchorKeysOf(app.deps.config);

  app.get('/list-audit-log', { schema: { querystring: auditListQuerySchema, response: { 200: answers.list } }, config: { access: ADMINS } }, (req) =>
    req.read((tx) => listAuditLog(tx, req.auth.orgId, req.query)),
  );

  app.get('/export-audit-log', { schema: { querystring: auditFilterSchema, response: answers.csv }, config: { access: ADMINS } }, async (req, reply) => {
    const csv = await req.read((tx) => exportAuditLogCsv(tx, req.auth.orgId, req.query), { long: true });
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="audit-log-${new Date().toISOString().slice(0, 10)}.csv"`)
      .send(csv);
  });

  app.get('/check-audit-chain', { schema: { response: { 200: answers.check } }, config: { access: ADMINS } }, async (req) => ({
    check: await req.read((tx) => checkAuditChain(tx, req.auth.orgId, anchorKeys), { long: true }),
  }));

  app.get('/get-audit-settings', { schema: { response: { 200: answers.settings } }, config: { access: ADMINS } }, async (req) => ({
    settings: await req.read((tx) => getAuditSettings(tx, req.auth.orgId)),
  }));

  app.put('/update-audit-settings', { schema: { body: auditSettingsSchema, response: { 200: answers.settingsSaved } }, config: { access: ADMINS } }, (req) =>
    req.inTenant((tx) => saveAuditSettings(tx, req.auth.orgId, req.body)),
  );
}
