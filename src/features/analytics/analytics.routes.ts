import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ReadTx } from '../../server/db/client';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { now } from '../../server/clock';
import type { z } from '../../shared/zod-setup';
import {
  type AnalyticsQuery,
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
import { failureModeMtbfSchema, failureParetoSchema } from './analytics-failures.schema';
import { failureModeMtbf, failurePareto } from './analytics-failures.service';
import { partsUsageSchema } from './analytics-parts-usage.schema';
import { partsUsage } from './analytics-parts-usage.service';

/**
 * Analytics (prefix /api/analytics, decision 038): one route per figure group so the screen's cards load on
 * their own. The organisation's figures are for managers and admins (a worker gets 403); everyone has their own
 * view (get-my-work, always the caller's).
 */
export async function analyticsRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  /** An organisation figure's route options: the shared query, managers only, and its answer. */
  const org = <T extends z.ZodType>(answer: T) => ({ schema: { querystring: analyticsQuerySchema, response: { 200: answer } }, config: { access: MANAGERS } });
  /**
   * A figure read in one scope, in the organisation's days (decision 063/064): its time zone is read first, so
   * the range's "today" (presets) and every day, week and month the figure counts are the organisation's.
   */
  type Ctx = { tx: ReadTx; r: ReturnType<typeof resolveRange>; zone: string; at: Date };
  const inOrgDays = <T>(req: Pick<FastifyRequest, 'auth' | 'read'> & { query: AnalyticsQuery }, fn: (c: Ctx) => Promise<T>) => {
    const at = now();
    return req.read(async (tx) => {
      const zone = await orgTimeZone(tx, req.auth.orgId);
      return fn({ tx, r: resolveRange(req.query, at, zone), zone, at });
    });
  };

  app.get('/get-backlog', org(backlogFiguresSchema), (req) =>
    inOrgDays(req, ({ tx, r, zone, at }) => backlogFigures(tx, req.auth.orgId, r.current, req.query, at, zone)),
  );

  app.get('/get-throughput', org(throughputFiguresSchema), (req) =>
    inOrgDays(req, ({ tx, r, zone }) => throughputFigures(tx, req.auth.orgId, r.current, r.previous, req.query, zone)),
  );

  app.get('/get-repair-times', org(repairTimesSchema), async (req) => {
    // Two independent statements (a read's statements are each their own snapshot anyway): each in a read scope
    // of its own, so on PostgreSQL they run side by side and the answer waits for the slower, not for both.
    const [mttr, mtbf] = await Promise.all([
      inOrgDays(req, ({ tx, r, zone }) => mttrFigures(tx, req.auth.orgId, r.current, r.previous, req.query, zone)),
      inOrgDays(req, ({ tx, r, zone }) => mtbfFigures(tx, req.auth.orgId, r.current, req.query, zone)),
    ]);
    return { mttr, mtbf };
  });

  // Failure codes (decision 080): failures by problem (Pareto) and MTBF by failure mode.
  app.get('/get-failure-pareto', org(failureParetoSchema), (req) =>
    inOrgDays(req, ({ tx, r, zone }) => failurePareto(tx, req.auth.orgId, r.current, req.query, zone)),
  );

  // Parts usage per asset (issue 41).
  app.get('/get-parts-usage', org(partsUsageSchema), (req) => inOrgDays(req, ({ tx, r, zone }) => partsUsage(tx, req.auth.orgId, r.current, req.query, zone)));

  app.get('/get-failure-mode-mtbf', org(failureModeMtbfSchema), (req) =>
    inOrgDays(req, ({ tx, r, zone }) => failureModeMtbf(tx, req.auth.orgId, r.current, req.query, zone)),
  );

  app.get('/get-downtime', org(downtimeFiguresSchema), (req) =>
    inOrgDays(req, ({ tx, r, zone }) => downtimeFigures(tx, req.auth.orgId, r.current, r.previous, req.query, zone)),
  );

  app.get('/get-planned-share', org(plannedShareFiguresSchema), (req) =>
    inOrgDays(req, ({ tx, r, zone }) => plannedShareFigures(tx, req.auth.orgId, r.current, r.previous, req.query, zone)),
  );

  app.get('/get-pm-compliance', org(complianceFiguresSchema), (req) =>
    inOrgDays(req, ({ tx, r, zone, at }) => complianceFigures(tx, req.auth.orgId, r.current, r.previous, req.query, at, zone)),
  );

  app.get('/get-costs', org(costFiguresSchema), (req) =>
    inOrgDays(req, ({ tx, r, zone }) => costFigures(tx, req.auth.orgId, r.current, r.previous, req.query, zone)),
  );

  app.get('/get-quoted-vs-actual', org(quotedVsActualSchema), (req) =>
    inOrgDays(req, ({ tx, r, zone }) => quotedVsActualFigures(tx, req.auth.orgId, r.current, req.query, zone)),
  );

  app.get('/get-my-work', { schema: { querystring: analyticsQuerySchema, response: { 200: myWorkFiguresSchema } }, config: { access: EVERYONE } }, (req) =>
    inOrgDays(req, ({ tx, r, zone, at }) => myWorkFigures(tx, req.auth.orgId, req.auth.userId, r.current, at, zone)),
  );
}
