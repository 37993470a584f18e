import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MANAGERS } from '../../server/plugins/request-context';
import { now } from '../../server/clock';
import {
  complianceQuerySchema,
  planAnswers,
  dryRunQuerySchema,
  planIdParamsSchema,
  planInputSchema,
  planListQuerySchema,
  planPreviewSchema,
  plannedQuerySchema,
  pmSettingsSchema,
  skipInputSchema,
} from './pm-plans.schema';
import {
  addPlan,
  deletePlan,
  dryRun,
  generateDueWork,
  getPlan,
  getPmSettings,
  listOccurrences,
  listPlannedOccurrences,
  listPlans,
  pmCompliance,
  previewPlan,
  setPaused,
  skipNext,
  updatePlan,
  updatePmSettings,
} from './pm-plans.service';

/**
 * Preventive maintenance plans (prefix /api/pm-plans), decision 032. Plans are managers' work: every route,
 * reads included, is for managers and admins; workers meet plans only as the work orders they create.
 */
export async function pmPlansRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  const access = MANAGERS;

  app.get('/get-plans', { schema: { querystring: planListQuerySchema, response: { 200: planAnswers.list } }, config: { access } }, (req) =>
    req.read((tx) => listPlans(tx, req.auth.orgId, req.query, now())),
  );
  app.get('/get-plan/:id', { schema: { params: planIdParamsSchema, response: { 200: planAnswers.one } }, config: { access } }, async (req) => ({
    plan: await req.read((tx) => getPlan(tx, req.auth.orgId, req.params.id, now())),
  }));
  app.get('/get-occurrences/:id', { schema: { params: planIdParamsSchema, response: { 200: planAnswers.occurrences } }, config: { access } }, async (req) => ({
    occurrences: await req.read((tx) => listOccurrences(tx, req.auth.orgId, req.params.id)),
  }));
  app.post(
    '/add-plan',
    { schema: { body: planInputSchema, querystring: planListQuerySchema, response: { 201: planAnswers.add } }, config: { access } },
    async (req, reply) => reply.status(201).send(await req.inTenant((tx) => addPlan(tx, req.auth.orgId, req.auth, req.body, req.query, now()))),
  );
  app.put(
    '/update-plan/:id',
    { schema: { params: planIdParamsSchema, body: planInputSchema, response: { 200: planAnswers.update } }, config: { access } },
    (req) => req.inTenant((tx) => updatePlan(tx, req.auth.orgId, req.auth, req.params.id, req.body, now())),
  );
  app.delete(
    '/delete-plan/:id',
    { schema: { params: planIdParamsSchema, querystring: planListQuerySchema, response: { 200: planAnswers.remove } }, config: { access } },
    (req) => req.inTenant((tx) => deletePlan(tx, req.auth.orgId, req.auth, req.params.id, req.query, now())),
  );
  app.put('/pause/:id', { schema: { params: planIdParamsSchema, response: { 200: planAnswers.update } }, config: { access } }, (req) =>
    req.inTenant((tx) => setPaused(tx, req.auth.orgId, req.auth, req.params.id, true, now())),
  );
  app.put('/resume/:id', { schema: { params: planIdParamsSchema, response: { 200: planAnswers.update } }, config: { access } }, (req) =>
    req.inTenant((tx) => setPaused(tx, req.auth.orgId, req.auth, req.params.id, false, now())),
  );
  app.post(
    '/skip-next/:id',
    { schema: { params: planIdParamsSchema, body: skipInputSchema, response: { 200: planAnswers.skipped } }, config: { access } },
    (req) => req.inTenant((tx) => skipNext(tx, req.auth.orgId, req.auth, req.params.id, req.body, now())),
  );
  // A POST that writes nothing: the form's body is too big and too structured for a query string.
  app.post('/preview-plan', { schema: { body: planPreviewSchema, response: { 200: planAnswers.preview } }, config: { access } }, (req) =>
    req.inTenant((tx) => previewPlan(tx, req.auth.orgId, req.body)),
  );
  app.get('/dry-run', { schema: { querystring: dryRunQuerySchema, response: { 200: planAnswers.dryRun } }, config: { access } }, (req) =>
    req.read((tx) => dryRun(tx, req.auth.orgId, req.query, now())),
  );
  app.get('/planned-occurrences', { schema: { querystring: plannedQuerySchema, response: { 200: planAnswers.planned } }, config: { access } }, async (req) => ({
    occurrences: await req.read((tx) => listPlannedOccurrences(tx, req.auth.orgId, req.query)),
  }));
  app.get('/compliance', { schema: { querystring: complianceQuerySchema, response: { 200: planAnswers.compliance } }, config: { access } }, (req) =>
    req.read((tx) => pmCompliance(tx, req.auth.orgId, req.query, now())),
  );
  app.get('/settings', { schema: { response: { 200: planAnswers.settings } }, config: { access } }, async (req) => ({
    settings: await req.read((tx) => getPmSettings(tx, req.auth.orgId)),
  }));
  app.put('/settings', { schema: { body: pmSettingsSchema, response: { 200: planAnswers.settingsSaved } }, config: { access } }, (req) =>
    req.inTenant((tx) => updatePmSettings(tx, req.auth.orgId, req.body)),
  );
  // On demand: the generator for the caller's organisation, now, in the request's transaction (the job does all).
  app.post('/run-generator', { schema: { response: { 200: planAnswers.generated } }, config: { access } }, (req) =>
    req.inTenant(async (tx) => ({ message: 'Generator run', ...(await generateDueWork(tx, req.auth.orgId, now())) })),
  );
}
