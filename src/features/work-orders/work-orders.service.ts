/*
 * Work orders' services, one file per operation (issue 40); this module keeps the exported names and registers the
 * activity entity. Read and shown shape: work-order-read; list, counts, exports, statistics: work-order-list; the
 * checks shared by writes: work-order-rules; create/update/reschedule: work-order-write; status, hold, delete:
 * work-order-status; labour, parts, cost, contractors' lines: work-order-labor, -parts, -cost, -external.
 */
import { sql } from 'drizzle-orm';
import { workOrderAssignees, workOrders } from '../../server/db/schema';
import { registerActivityEntity } from '../activity/activity.service';
export { assignedTo, getWorkOrder, workOrdersAsShown } from './work-order-read.service';
export { seesAmounts } from './work-order-rules.service';
export {
  listWorkOrders,
  countWorkOrdersSql,
  fromPmPlan,
  dueRange,
  exportWorkOrdersBatch,
  exportLaborBatch,
  exportPartLinesBatch,
  listRecentWorkOrders,
  getStatistics,
} from './work-order-list.service';
export { createWorkOrder, addWorkOrder, createWorkOrders, updateWorkOrder, rescheduleWorkOrder, type NewWorkOrder } from './work-order-write.service';
export { holdWorkOrder, resumeWorkOrder, updateWorkOrderStatus, deleteWorkOrder } from './work-order-status.service';
export {
  laborCostMinor,
  workerRateMinor,
  partPriceMinor,
  listLabors,
  listLaborRows,
  laborRowsByOrder,
  addLabor,
  deleteLabor,
} from './work-order-labor.service';
export { getWorkOrderCost, getWorkOrderCostFor } from './work-order-cost.service';
export { useReservedParts, listParts, partsAnswer, partsAnswersByOrder, addParts, updatePartQuantity, deletePart } from './work-order-parts.service';
export { addExternalLabor, addExternalPart, deleteExternalLine, listExternalLines, closeWorkOrder, type ExternalReporter } from './work-order-external.service';

// A worker sees the history, notes and bell entries of the orders assigned to them, as they see the orders.
registerActivityEntity(
  'work-order',
  workOrders,
  'Work order',
  ({ orgId, id, userId }) =>
    sql`exists (select 1 from ${workOrderAssignees} where ${workOrderAssignees.orgId} = ${orgId}
    and ${workOrderAssignees.workOrderId} = ${id} and ${workOrderAssignees.userId} = ${userId})`,
);
