import type { Tx } from '../../server/db/client';
import { attachAudit, newAuditContext } from './audit-context';
import { actionOf, appendAudit } from './audit.service';

/** The actor of a background job's audit row (decision 078 addendum): no person, no key. */
export const SYSTEM_ACTOR = 'system';

/**
 * Runs a background job's work for one organisation with an audit context on its transaction, as `req.inTenant`
 * does for a request: the records its services note (`recordActivity`) become one audit row, actor "system", route
 * `job:<name>`, in the same transaction (a failed run leaves none). A run that changed nothing leaves no row.
 */
export async function auditedJob<T>(tx: Tx, orgId: number, job: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  const ctx = newAuditContext();
  const result = await work(attachAudit(tx, ctx));
  if (ctx.records.length || ctx.dropped) {
    await appendAudit(tx, orgId, {
      actorKind: SYSTEM_ACTOR,
      actorLabel: SYSTEM_ACTOR,
      method: 'JOB',
      route: `job:${job}`,
      action: ctx.action ?? actionOf('JOB', ctx.records),
      records: ctx.records,
      ...(ctx.dropped ? { input: { recordsNotListed: ctx.dropped } } : {}),
    });
  }
  return result;
}
