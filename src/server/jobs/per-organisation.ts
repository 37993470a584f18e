import type { Db, Tx } from '../db/client';
import { withoutTenant, withTenant } from '../db/client';
import { organizations } from '../db/schema';
import { auditedJob } from '../../features/audit/audit-job';

// A scheduled run goes through the organisations one transaction each (decision 027): never one statement over
// several tenants, always as the runtime role under RLS.

/** The ids of every organisation, read outside any tenant. */
export const organisationIds = (db: Db): Promise<number[]> =>
  withoutTenant(db, async (tx) => (await tx.select({ id: organizations.id }).from(organizations)).map((o) => o.id));

/** One organisation's part of a job's run: in its own long transaction, its changes audited as done by the job `queue`. */
export const auditedOrgRun = <T>(db: Db, orgId: number, queue: string, work: (tx: Tx) => Promise<T>): Promise<T> =>
  withTenant(db, orgId, (tx) => auditedJob(tx, orgId, queue, work), { long: true });

/**
 * Runs `work` for each organisation, `concurrency` of them at a time: one that throws is logged as
 * `<name>: organisation failed` and the others go on. Returns the ids that failed; whether that fails the run
 * (so that pg-boss retries it) is the job's choice.
 */
export async function eachOrganisation(
  orgIds: number[],
  name: string,
  log: { warn(obj: object, msg: string): void } | undefined,
  work: (orgId: number) => Promise<void>,
  concurrency = 1,
): Promise<number[]> {
  const failed: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < orgIds.length) {
      const orgId = orgIds[next++];
      try {
        await work(orgId);
      } catch (err) {
        failed.push(orgId);
        log?.warn({ orgId, err: (err as Error).message }, `${name}: organisation failed`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return failed;
}
