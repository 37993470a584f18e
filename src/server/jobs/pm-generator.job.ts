import type { Database } from '../db/client';
import { now as clockNow } from '../clock';
import { generateDueWork } from '../../features/pm-plans/pm-plans.service';
import { scheduleJob, runTime, type JobQueue } from './queue';
import { auditedOrgRun, eachOrganisation, organisationIds } from './per-organisation';

export const PM_GENERATOR_QUEUE = 'pm-generator';
/** Every 5 minutes (PM_GENERATOR_CRON overrides it, e.g. every minute in a browser journey); one instance runs each slot. */
export const PM_GENERATOR_CRON = '*/5 * * * *';

/** Organisations processed at once on PostgreSQL (of the request pool's 10 connections). */
const GENERATOR_CONCURRENCY = 4;

export interface GeneratorLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * One generator run over every organisation (decision 032): the organisations' ids from the global table,
 * then each organisation in a transaction of its own through withTenant, as the runtime role under RLS. An
 * organisation that fails is logged and the others go on; the run then throws so that pg-boss retries it
 * (nothing is created twice: each occurrence's unique key is claimed in the transaction creating its order).
 */
export async function runPmGenerator(database: Database, log?: GeneratorLog, at: Date = clockNow()) {
  const started = Date.now();
  const orgIds = await organisationIds(database.db);
  let created = 0;
  // A few organisations at a time: each is a handful of round trips, and waiting on them one by one leaves the
  // database idle. Few enough to leave the pool's other connections to requests. PGlite runs them in turn anyway.
  const concurrency = database.kind === 'postgres' ? GENERATOR_CONCURRENCY : 1;
  const failed = await eachOrganisation(
    orgIds,
    'pm generator',
    log,
    async (orgId) => {
      // Awaited first: `created += await …` would read `created` before the wait and lose the others' counts.
      const result = await auditedOrgRun(database.db, orgId, PM_GENERATOR_QUEUE, (tx) => generateDueWork(tx, orgId, at));
      created += result.created;
    },
    concurrency,
  );
  const summary = { organisations: orgIds.length, created, failed: failed.length, ms: Date.now() - started };
  log?.info(summary, 'pm generator run done');
  if (failed.length) throw new Error(`pm generator: ${failed.length} organisation(s) failed: ${failed.slice(0, 10).join(', ')}`);
  return summary;
}

/** The queue, its schedule and its worker. A failed run is retried 3 times, a minute apart. */
export async function registerPmGenerator(queue: JobQueue, database: Database, log: GeneratorLog, cron = process.env.PM_GENERATOR_CRON || PM_GENERATOR_CRON) {
  await scheduleJob<{ at: string }>(queue, PM_GENERATOR_QUEUE, cron, { retryLimit: 3, retryDelay: 60, expireInSeconds: 15 * 60 }, async (data) => {
    await runPmGenerator(database, log, runTime(data?.at));
  });
}
