import type { Database } from '../db/client';
import { draftReorders } from '../../features/stock/reorder.service';
import type { GeneratorLog } from './pm-generator.job';
import { scheduleJob, type JobQueue } from './queue';
import { auditedOrgRun, eachOrganisation, organisationIds } from './per-organisation';

export const STOCK_REORDER_QUEUE = 'stock-reorder';
/** Daily at 05:00 UTC (STOCK_REORDER_CRON overrides it); a manager's "Draft reorders" runs the same for one organisation. */
export const STOCK_REORDER_CRON = '0 5 * * *';

/**
 * One reorder run over every organisation (decision 081): each in its own transaction; one that fails is logged
 * and the others go on. Running again drafts nothing twice: what was drafted counts as on order.
 */
export async function runStockReorder(database: Database, log?: GeneratorLog) {
  const orgIds = await organisationIds(database.db);
  let drafted = 0;
  const failed = await eachOrganisation(orgIds, 'stock reorder', log, async (orgId) => {
    const result = await auditedOrgRun(database.db, orgId, STOCK_REORDER_QUEUE, (tx) => draftReorders(tx, orgId, null));
    drafted += result.drafted;
  });
  log?.info({ organisations: orgIds.length, drafted, failed: failed.length }, 'stock reorder run done');
  return { organisations: orgIds.length, drafted, failed: failed.length };
}

/** The queue, its daily schedule and its worker. */
export async function registerStockReorder(
  queue: JobQueue,
  database: Database,
  log: GeneratorLog,
  cron = process.env.STOCK_REORDER_CRON || STOCK_REORDER_CRON,
) {
  await scheduleJob(queue, STOCK_REORDER_QUEUE, cron, { retryLimit: 1, retryDelay: 300, expireInSeconds: 30 * 60 }, async () => {
    await runStockReorder(database, log);
  });
}
