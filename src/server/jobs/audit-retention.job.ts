import type { Database } from '../db/client';
import { withTenant } from '../db/client';
import { organisationIds } from './per-organisation';
import { now as clockNow } from '../clock';
import { pruneAuditLog } from '../../features/audit/audit.service';
import { scheduleJob, type JobQueue } from './queue';
import type { AnchorKeys } from '../../features/audit/audit-anchor';

export const AUDIT_RETENTION_QUEUE = 'audit-retention';
/** Every night at 03:30 UTC, after the clean-up. */
export const AUDIT_RETENTION_CRON = '30 3 * * *';

/**
 * The audit log's retention (decision 078): each organisation with a retention setting loses the rows older than
 * it, in a scope of its own (the runtime role, through `prune_audit_log`), and keeps a signed anchor so that its
 * chain check still passes. `keys` sign the anchors (a key derived from ENCRYPTION_KEY, `audit-anchor.ts`).
 */
export async function pruneAuditLogs(database: Database, keys: AnchorKeys, at: Date = clockNow()) {
  const { db } = database;
  // audit_heads is a tenant table: each organisation's row is read in its own scope.
  const orgIds = await organisationIds(db);
  let removed = 0;
  for (const id of orgIds) removed += await withTenant(db, id, (tx) => pruneAuditLog(tx, id, at, keys), { long: true });
  return { removed };
}

export async function registerAuditRetention(queue: JobQueue, database: Database, keys: AnchorKeys, log: { info(obj: object, msg: string): void }) {
  await scheduleJob(queue, AUDIT_RETENTION_QUEUE, AUDIT_RETENTION_CRON, { retryLimit: 2, retryDelay: 600 }, async () => {
    const counts = await pruneAuditLogs(database, keys);
    log.info(counts, 'audit log retention done');
  });
}
