import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { now } from '../../server/clock';
import type { z } from '../../shared/zod-setup';
import {
  analyticsQuerySchema,
  backlogFiguresSchema,
  complianceFiguresSchema,
  costFiguresSchema,
  downtimeFiguresSchema,
  myWorkFiguresSchema,
  plannedShareFiguresSchema,
  quotedVsActualSchema,
  repairTimesSchema,
  resolveRange,
  throughputFiguresSchema,
} from './analytics.schema';
import {
  backlogFigures,
  complianceFigures,
  costFigures,
  downtimeFigures,
  mtbfFigures,
  mttrFigures,
  myWorkFigures,
  plannedShareFigures,
  quotedVsActualFigures,
  throughputFigures,
  orgTimeZone,
} from './analytics.service';

/**
 * Analytics (prefix /api/analytics, decision 038): one route per figure group so the screen's cards load on
 * their own. The organisation's figures are for managers and admins (a worker gets 403); everyone has their own
 * view (get-my-work, always the caller's).
 */
export async function analyticsRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  /** An organisation figure's route options: the shared query, managers only, and its answer. */
  const org = <T extends z.ZodType>(answer: T) => ({ schema: { querystring: analyticsQuerySchema, response: { 200: answer } }, config: { access: MANAGERS } });
  // Each figure's days are those of the organisation's time zone (decision 063), read in the figure's own scope.

  app.get('/get-backlog', org(backlogFiguresSchema), (req) => {
    const at = now();
    return req.read(async (tx) => backlogFigures(tx, req.auth.orgId, resolveRange(req.query, at).current, req.query, at, await orgTimeZone(tx, req.auth.orgId)));
  });

  app.get('/get-throughput', org(throughputFiguresSchema), (req) => {
    const r = resolveRange(req.query, now());
    return req.read(async (tx) => throughputFigures(tx, req.auth.orgId, r.current, r.previous, req.query, await orgTimeZone(tx, req.auth.orgId)));
  });

  app.get('/get-repair-times', org(repairTimesSchema), async (req) => {
    const r = resolveRange(req.query, now());
    // Two independent statements (a read's statements are each their own snapshot anyway): each in a read scope
    // of its own, so on PostgreSQL they run side by side and the answer waits for the slower, not for both.
    const [mttr, mtbf] = await Promise.all([
      req.read(async (tx) => mttrFigures(tx, req.auth.orgId, r.current, r.previous, req.query, await orgTimeZone(tx, req.auth.orgId))),
      req.read(async (tx) => mtbfFigures(tx, req.auth.orgId, r.current, req.query, await orgTimeZone(tx, req.auth.orgId))),
    ]);
    return { mttr, mtbf };
  });

  app.get('/get-downtime', org(downtimeFiguresSchema), (req) => {
    const r = resolveRange(req.query, now());
    return req.read(async (tx) => downtimeFigures(tx, req.auth.orgId, r.current, r.previous, req.query, await orgTimeZone(tx, req.auth.orgId)));
  });

  app.get('/get-planned-share', org(plannedShareFiguresSchema), (req) => {
    const r = resolveRange(req.query, now());
    return req.read(async (tx) => plannedShareFigures(tx, req.auth.orgId, r.current, r.previous, req.query, await orgTimeZone(tx, req.auth.orgId)));
  });

  app.get('/get-pm-compliance', org(complianceFiguresSchema), (req) => {
    const at = now();
    const r = resolveRange(req.query, at);
    return req.read(async (tx) => complianceFigures(tx, req.auth.orgId, r.current, r.previous, req.query, at, await orgTimeZone(tx, req.auth.orgId)));
  });

  app.get('/get-costs', org(costFiguresSchema), (req) => {
    const r = resolveRange(req.query, now());
    return req.read(async (tx) => costFigures(tx, req.auth.orgId, r.current, r.previous, req.query, await orgTimeZone(tx, req.auth.orgId)));
  });

  app.get('/get-quoted-vs-actual', org(quotedVsActualSchema), (req) => {
    const r = resolveRange(req.query, now());
    return req.read(async (tx) => quotedVsActualFigures(tx, req.auth.orgId, r.current, req.query, await orgTimeZone(tx, req.auth.orgId)));
  });

  app.get('/get-my-work', { schema: { querystring: analyticsQuerySchema, response: { 200: myWorkFiguresSchema } }, config: { access: EVERYONE } }, (req) => {
    const at = now();
    return req.read(async (tx) => myWorkFigures(tx, req.auth.orgId, req.auth.userId, resolveRange(req.query, at).current, at, await orgTimeZone(tx, req.auth.orgId)));
  });
}
