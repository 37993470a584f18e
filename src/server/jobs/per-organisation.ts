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
