import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../server/db/client';
import { now } from '../../server/clock';
import type { WorkOrderStatus } from '../work-orders/work-order-values';
import { portalRequests as r } from './request-portal.table';
import type { PortalStatus } from './request-portal.values';

// ---------------------------------------------------------------- the work flowing back

const FROM_WORK_ORDER: Record<WorkOrderStatus, PortalStatus> = {
  assigned: 'accepted',
  'in-progress': 'in-progress',
  completed: 'done',
  cancelled: 'declined',
};

/**
 * Called by the work-orders service when an order's status changes or the order is deleted (as cancelled):
 * portal requests accepted into it (and their duplicates) take the matching status; done and declined close them
 * (the link's 30 days start). Their requesters see it on their status page; no e-mail is sent for these changes
 * yet (decision 039).
 */
export async function workOrderStatusChanged(tx: Tx, orgId: number, workOrderId: number, status: WorkOrderStatus, dueDate: Date | null) {
  const next = status === 'assigned' && dueDate ? 'scheduled' : FROM_WORK_ORDER[status];
  const closed = next === 'done' || next === 'declined';
  await tx
    .update(r)
    .set({ status: next, closedAt: closed ? now() : null, declineReason: next === 'declined' ? 'The work was cancelled' : null, updatedAt: new Date() })
    .where(and(eq(r.orgId, orgId), eq(r.workOrderId, workOrderId), sql`${r.status} <> ${next}`));
}

