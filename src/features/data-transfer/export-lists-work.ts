import type { ZodType } from 'zod';
import { now } from '../../server/clock';
import { MANAGERS } from '../../server/plugins/request-context';
import { exportLaborBatch, exportPartLinesBatch, exportWorkOrdersBatch } from '../work-orders/work-orders.service';
import { workOrderDisplayId } from '../work-orders/work-orders.schema';
import { workOrderListQuerySchema, type WorkOrderListQuery } from '../work-orders/work-orders.schema';
import { exportMaintenanceRequestsBatch } from '../maintenance-requests/maintenance-requests.service';
import { maintenanceRequestsQuerySchema, type MaintenanceRequestsQuery } from '../maintenance-requests/maintenance-requests.schema';
import { exportMaintenanceOrdersBatch } from '../maintenance-orders/maintenance-orders.service';
import { maintenanceOrdersQuerySchema, type MaintenanceOrdersQuery } from '../maintenance-orders/maintenance-orders.schema';
import { listPortalRequests } from '../request-portal/request-portal.service';
import { portalListQuerySchema } from '../request-portal/request-portal.schema';
import { exportPlansPage } from '../pm-plans/pm-plans.service';
import { planListQuerySchema } from '../pm-plans/pm-plans.schema';
import { listShares } from '../work-order-shares/work-order-shares.service';
import { shareListQuerySchema } from '../work-order-shares/work-order-shares.schema';
import { exportProcedureStepsPage, listProcedures } from '../procedures/procedures.service';
import { procedureListQuerySchema } from '../procedures/procedures.schema';
import { exportReadingsBatch } from '../meters/meters.service';
import { readingExportQuerySchema } from '../meters/meters.schema';
import { define, keyed, paged, unfiltered, person, names, type Exporter } from './export-kit';
import { type ExportList } from './data-transfer.schema';

/** The work lists that export (orders, requests, plans, procedures, readings and lines), each through its own feature's filter. */
export const WORK_EXPORTERS = {
  'work-orders': keyed({
    query: workOrderListQuerySchema as ZodType<WorkOrderListQuery>,
    batch: (tx, orgId, query, before, limit, actor) => exportWorkOrdersBatch(tx, orgId, actor, query, before, limit),
    columns: [
      ['workOrderId', 'WO-ID'],
      ['status', 'Status'],
      ['title', 'Title'],
      ['priority', 'Priority'],
      ['startDate', 'Start Date'],
      ['endDate', 'End Date'],
      ['dueDate', 'Due Date'],
      ['duration', 'Duration'],
      ['assignees', 'Assigned To', (r) => r.assignees.map(person).join('; ')],
      ['asset', 'Asset', (r) => r.asset?.name],
      ['createdAt', 'Created At'],
    ],
  }),
  'maintenance-requests': keyed({
    query: maintenanceRequestsQuerySchema as ZodType<MaintenanceRequestsQuery>,
    batch: exportMaintenanceRequestsBatch,
    columns: [
      ['maintenanceRequestId', 'ID'],
      ['title', 'Title'],
      ['maintenanceType', 'Type'],
      ['requester', 'Requester', (r) => (r.Customer ? `${r.requester}: ${r.Customer.name}` : r.requester)],
      ['problemDescription', 'Description'],
      ['dateOfRequest', 'Date'],
      ['priority', 'Priority'],
      ['assignedTo', 'Assigned To', (r) => person(r.Worker)],
      ['state', 'State'],
      ['asset', 'Asset', (r) => r.asset?.name],
    ],
  }),
  'maintenance-orders': keyed({
    query: maintenanceOrdersQuerySchema as ZodType<MaintenanceOrdersQuery>,
    batch: exportMaintenanceOrdersBatch,
    columns: [
      ['maintenanceOrderId', 'ID'],
      ['status', 'Status'],
      ['asset', 'Asset', (r) => r.asset?.name],
      ['scheduleDate', 'Schedule Date'],
      ['dueDate', 'Due Date'],
      ['maintenanceRequest', 'Request', (r) => r.maintenanceRequest?.maintenanceRequestId],
      ['maintenanceType', 'Type'],
      ['completionDate', 'Completion Date'],
    ],
  }),
  'portal-requests': paged({
    query: portalListQuerySchema,
    access: MANAGERS,
    list: (tx, orgId, _actor, query) => listPortalRequests(tx, orgId, query),
    key: 'requests',
    columns: [
      ['number', 'Number'],
      ['description', 'Description'],
      ['where', 'Where', (r) => r.targetName],
      ['urgency', 'Urgency'],
      ['age', 'Received At', (r) => r.createdAt.toISOString()],
      ['status', 'Status'],
      ['contact', 'Contact', (r) => [r.name, r.email, r.phone].filter(Boolean).join(', ')],
    ],
  }),
  // The list's columns, then the drawer's fields with the records they name (decision 059): re-imported as it is.
  'pm-plans': define({
    query: planListQuerySchema,
    access: MANAGERS,
    read: (tx, orgId, _actor, _query, step, limit) => exportPlansPage(tx, orgId, step.page, limit, now()),
    columns: [
      ['planId', 'ID'],
      ['name', 'Name'],
      ['target', 'Target', (r) => (r.workStation ? r.workStation.name : names(r.assets))],
      ['trigger', 'Trigger', (r) => `${r.trigger} ${r.frequency} ${r.interval}`],
      ['nextDue', 'Next Due'],
      ['lastCompleted', 'Last Completed'],
      ['compliance', 'Compliance', (r) => (r.compliance.due ? `${r.compliance.onTime}/${r.compliance.due}` : '')],
      ['state', 'State', (r) => (r.paused ? 'paused' : 'active')],
      ['title', 'Work Order Title'],
      ['assets', 'Assets', (r) => r.names.assets.join('; ')],
      ['workStation', 'Work Station', (r) => r.names.workStation],
      ['priority', 'Priority'],
      ['duration', 'Duration'],
      ['team', 'Team', (r) => r.team?.name],
      ['procedure', 'Procedure', (r) => r.names.procedure],
      ['assignees', 'Assigned To', (r) => r.names.assignees.join('; ')],
      ['parts', 'Parts', (r) => r.names.parts.map((l) => `${l.quantity} x ${l.part}`).join('; ')],
      ['weekdays', 'Weekdays', (r) => r.weekdays.join('; ')],
      ['monthlyMode', 'Monthly Mode'],
      ['monthDay', 'Month Day'],
      ['monthWeek', 'Month Week'],
      ['monthWeekday', 'Month Weekday'],
      ['schedule', 'Schedule'],
      ['startDate', 'Start Date'],
      ['endDate', 'End Date'],
      ['leadDays', 'Lead Days'],
      ['meter', 'Meter', (r) => r.names.meter],
      ['meterEvery', 'Meter Every'],
      ['meterThreshold', 'Meter Threshold'],
      ['meterLeadUnits', 'Meter Lead Units'],
      ['instructions', 'Instructions'],
    ],
  }),
  'shared-work-orders': paged({
    query: shareListQuerySchema,
    access: MANAGERS,
    list: (tx, orgId, _actor, query) => listShares(tx, orgId, query),
    key: 'shares',
    columns: [
      ['workOrderTitle', 'Work Order', (r) => `WO-${String(r.workOrderId).padStart(4, '0')} ${r.workOrderTitle}`],
      ['contractorName', 'Contractor'],
      ['email', 'Email'],
      ['permissions', 'Permissions', (r) => ['view', r.canComment && 'comment', r.canLog && 'log', r.canComplete && 'complete'].filter(Boolean).join('; ')],
      ['expiresAt', 'Expires At'],
      ['lastActivityAt', 'Last Activity'],
      ['status', 'Status'],
      ['externalCostMinor', 'External Cost (minor units)'],
    ],
  }),
  procedures: paged({
    query: procedureListQuerySchema,
    list: (tx, orgId, _actor, query) => listProcedures(tx, orgId, query),
    key: 'procedures',
    columns: [
      ['name', 'Name'],
      ['stepCount', 'Steps'],
      ['description', 'Description'],
      ['updatedAt', 'Updated At'],
    ],
  }),
  'meter-readings': keyed({
    query: readingExportQuerySchema,
    batch: exportReadingsBatch,
    columns: [
      ['asset', 'Asset'],
      ['meter', 'Meter'],
      ['readAt', 'Read At'],
      ['value', 'Value'],
      ['unit', 'Unit'],
      ['total', 'Total'],
      ['reset', 'Reset'],
      ['source', 'Source'],
      ['recordedBy', 'Recorded By'],
    ],
  }),
  // A work order's lines, one row each, named by the order's number (decision 059): re-imported as they are.
  'work-order-labor': unfiltered(
    (tx, orgId, step, limit) => exportLaborBatch(tx, orgId, step.before, limit),
    [
      ['workOrder', 'Work Order', (r) => workOrderDisplayId(r.workOrderId)],
      ['worker', 'Worker'],
      ['reason', 'Reason'],
      ['startTime', 'Start Time', (r) => r.startDate.toISOString()],
      ['endTime', 'End Time', (r) => r.endDate.toISOString()],
      ['minutes', 'Minutes', (r) => Math.round((r.endDate.getTime() - r.startDate.getTime()) / 60_000)],
    ],
  ),
  // A procedure's steps, one row each under its procedure's name (decision 059): re-imported as they are.
  'procedure-steps': unfiltered(
    (tx, orgId, step, limit) => exportProcedureStepsPage(tx, orgId, step.page, limit),
    [
      ['procedure', 'Procedure'],
      ['description', 'Description'],
      ['kind', 'Step Type'],
      ['label', 'Label'],
      ['required', 'Required', (r) => (r.required ? 'yes' : 'no')],
      ['unit', 'Unit'],
      ['min', 'Min'],
      ['max', 'Max'],
      ['options', 'Options', (r) => (r.options ?? []).join('; ')],
      ['followUpOnFailure', 'Follow-up on Failure', (r) => (r.followUpOnFailure ? 'yes' : 'no')],
      ['meterName', 'Meter Name'],
    ],
  ),
  'work-order-parts': unfiltered(
    (tx, orgId, step, limit) => exportPartLinesBatch(tx, orgId, step.before, limit),
    [
      ['workOrder', 'Work Order', (r) => workOrderDisplayId(r.workOrderId)],
      // The SKU when the part has one (what the import looks up first), else its name.
      ['part', 'Part', (r) => r.skuCode || r.name],
      ['quantity', 'Quantity'],
      ['partName', 'Part Name', (r) => r.name],
    ],
  ),
} satisfies Partial<Record<ExportList, Exporter>>;
