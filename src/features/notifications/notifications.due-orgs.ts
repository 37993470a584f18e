import { sql } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { rowsOf } from '../../server/db/rows';

/** Overdue work older than this is not announced (a first run on old data would flood people). */
export const OVERDUE_LOOKBACK_DAYS = 7;
/** The longest "due soon" lead time an organisation may set (hours; the settings' bound). */
const MAX_LEAD_HOURS = 336;
/** A change committed this long after its `updated_at` (a slow transaction) is still seen by the next run. */
export const CHANGE_OVERLAP_MINUTES = 5;

/** What the previous run saw: its time (the clock's) and the database's time as it started. */
export interface PreviousRun {
  at: Date;
  dbNow: Date;
}

/**
 * The organisations the every-minute job has work in (decision 074, addendum): messages due, or open work orders
 * whose due-soon or overdue moment was crossed since the previous run, or that changed since (new, edited,
 * reassigned: their check may now say something). Each part is a range scan of a global partial index
 * (`notification_deliveries_due_at_idx`, `work_orders_open_due_at_idx`, `work_orders_open_updated_idx`), so the
 * cost follows the work that is due, not the number of organisations. An organisation's check itself stays
 * idempotent (once per person and due date), so a wider window only costs time.
 */
export async function organisationsWithDueWork(tx: ReadTx, at: Date, previous: PreviousRun): Promise<number[]> {
  const last = previous.at.toISOString();
  const now = at.toISOString();
  const since = new Date(at.getTime() - OVERDUE_LOOKBACK_DAYS * 86_400_000).toISOString();
  const horizon = new Date(at.getTime() + MAX_LEAD_HOURS * 3_600_000).toISOString();
  const changedSince = new Date(previous.dbNow.getTime() - CHANGE_OVERLAP_MINUTES * 60_000).toISOString();
  // Tenant tables are walled by RLS for the runtime role: the question is asked through a SECURITY DEFINER function
  // that answers organisation ids only (src/server/db/tenancy.ts), the one cross-organisation read of this feature.
  const rows = rowsOf<{ org_id: number }>(
    await tx.execute(sql`select o as org_id from organisations_with_due_work(${now}::timestamptz, ${last}::timestamptz,
      ${changedSince}::timestamptz, ${since}::timestamptz, ${horizon}::timestamptz) o order by 1`),
  );
  return rows.map((r) => r.org_id);
}
