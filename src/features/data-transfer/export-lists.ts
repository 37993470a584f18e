import { z } from '../../shared/zod-setup';
import type { ZodType } from 'zod';
import type { ReadTx } from '../../server/db/client';
import { now } from '../../server/clock';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import type { AccessClaims, Role } from '../auth/tokens';
import { exportAssetsBatch } from '../assets/assets.service';
import { assetListQuerySchema, type AssetListQuery } from '../assets/assets.schema';
import { exportLaborBatch, exportPartLinesBatch, exportWorkOrdersBatch } from '../work-orders/work-orders.service';
import { workOrderDisplayId } from '../work-orders/work-orders.schema';
import { workOrderListQuerySchema, type WorkOrderListQuery } from '../work-orders/work-orders.schema';
import { exportMaintenanceRequestsBatch } from '../maintenance-requests/maintenance-requests.service';
import { maintenanceRequestsQuerySchema, type MaintenanceRequestsQuery } from '../maintenance-requests/maintenance-requests.schema';
import { exportMaintenanceOrdersBatch } from '../maintenance-orders/maintenance-orders.service';
import { maintenanceOrdersQuerySchema, type MaintenanceOrdersQuery } from '../maintenance-orders/maintenance-orders.schema';
import { exportPartsBatch } from '../parts/parts.service';
import { exportMovesBatch } from '../stock/stock.service';
import { listLocations, locationPaths } from '../locations/locations.service';
import { locationListQuerySchema } from '../locations/locations.schema';
import { moveListQuerySchema, type MoveListQuery } from '../stock/stock.schema';
import { partListQuerySchema, type PartListQuery } from '../parts/parts.schema';
import { listServices } from '../service-catalog/service-catalog.service';
import { serviceListQuerySchema } from '../service-catalog/service-catalog.schema';
import { listWorkStations } from '../work-stations/work-stations.service';
import { workStationListQuerySchema } from '../work-stations/work-stations.schema';
import { listTeams } from '../teams/teams.service';
import { listCustomerVendors } from '../customers-vendors/customers-vendors.service';
import { customerVendorsQuerySchema } from '../customers-vendors/customers-vendors.schema';
import { listUsers } from '../users/users.service';
import { usersQuerySchema } from '../users/users.schema';
import { quotationDocs } from '../quotations/quotations.service';
import { QUOTATION_SCHEMAS, type QuotationDto } from '../quotations/quotations.schema';
import { purchaseOrderDocs } from '../purchase-orders/purchase-orders.service';
import { PURCHASE_ORDER_SCHEMAS, type PurchaseOrderDto } from '../purchase-orders/purchase-orders.schema';
import type { PersonDto } from '../commercial-documents/commercial-documents.schema';
import type { ListQuery as DocumentListQuery } from '../commercial-documents/commercial-documents.service';
import { listPortalRequests } from '../request-portal/request-portal.service';
import { portalListQuerySchema } from '../request-portal/request-portal.schema';
import { exportPlansPage } from '../pm-plans/pm-plans.service';
import { planListQuerySchema } from '../pm-plans/pm-plans.schema';
import { listShares } from '../work-order-shares/work-order-shares.service';
import { shareListQuerySchema } from '../work-order-shares/work-order-shares.schema';
import { exportProcedureStepsPage, listProcedures } from '../procedures/procedures.service';
import { procedureListQuerySchema } from '../procedures/procedures.schema';
import { listTaxes } from '../master-data/taxes.service';
import { listUomCategories, listUoms } from '../master-data/uoms.service';
import { listAssetCategories } from '../master-data/asset-categories.service';
import { listProductCategories } from '../master-data/product-categories.service';
import { listTimeTrackingReasons } from '../master-data/time-tracking-reasons.service';
import { simpleListQuerySchema, uomListQuerySchema } from '../master-data/master-data.schema';
import { exportReadingsBatch } from '../meters/meters.service';
import { readingExportQuerySchema } from '../meters/meters.schema';
import { type ExportList } from './data-transfer.schema';

// Every exported list: its feature's query, batch reader and columns (decision 042).

/** Runs one read in a scope of its own (the request's `req.read`): each batch is its own short read. */
export type Reader = <T>(fn: (tx: ReadTx) => Promise<T>) => Promise<T>;

/** A column: the list screen's column key (so the visible columns name the exported ones), its header, and its value (default: the row's field of that key). */
export type ColumnSpec<R> = [key: string, header: string, value?: (row: R) => unknown];

/** Where the next batch starts: the list's page (from 1) and, for a keyset batch, the last id read. */
export interface Step {
  page: number;
  before: number;
}

type ReadBatch<Q, R> = (tx: ReadTx, orgId: number, actor: AccessClaims, query: Q, step: Step, limit: number) => Promise<R[]>;

interface Exporter<Q = unknown, R extends { id: number } = { id: number }> {
  /** The list's own query schema: the export takes the same filters as the screen. */
  query: ZodType<Q>;
  /** Who may export it: who may read the list. */
  access: readonly Role[];
  columns: ColumnSpec<R>[];
  read: ReadBatch<Q, R>;
}

const define = <Q, R extends { id: number }>(e: Exporter<Q, R>) => e as unknown as Exporter;

/**
 * A list that grows without bound: the feature's keyset batch (its list filter, newest first, ids below
 * `before`), so a batch is an index range however far the export has gone.
 */
function keyed<Q, R extends { id: number }>(e: {
  query: ZodType<Q>;
  /** The caller comes last: most lists do not depend on who reads them. */
  batch: (tx: ReadTx, orgId: number, query: Q, before: number, limit: number, actor: AccessClaims) => Promise<R[]>;
  columns: ColumnSpec<R>[];
}) {
  return define<Q, R>({
    query: e.query,
    access: EVERYONE,
    columns: e.columns,
    read: (tx, orgId, actor, query, step, limit) => e.batch(tx, orgId, query, step.before, limit, actor),
  });
}

/**
 * A people-sized list (stations, users, customers, master data…): the screen's own list function, page after
 * page of `limit` rows, so the export applies exactly the list's filters and visibility rules.
 */
function paged<Q, K extends string, L extends Record<K, { id: number }[]>>(e: {
  query: ZodType<Q>;
  access?: readonly Role[];
  list: (tx: ReadTx, orgId: number, actor: AccessClaims, query: Q) => Promise<L>;
  key: K;
  columns: ColumnSpec<L[K][number]>[];
}) {
  return define<Q, L[K][number]>({
    query: e.query,
    access: e.access ?? EVERYONE,
    columns: e.columns,
    read: async (tx, orgId, actor, query, step, limit) =>
      (await e.list(tx, orgId, actor, { ...query, page: step.page, pageSize: limit }))[e.key] as L[K][number][],
  });
}

/** "First Last" of a person reference, or nothing. */
const person = (p: { firstName: string; lastName: string } | null | undefined) => (p ? `${p.firstName} ${p.lastName}`.trim() : '');
const names = (items: { name: string }[]) => items.map((i) => i.name).join('; ');

/** Quotations and purchase orders: one list each, the columns of the shared documents list. */
function documentsExporter<D extends QuotationDto | PurchaseOrderDto>(
  docs: typeof quotationDocs,
  listQuery: ZodType<DocumentListQuery>,
  key: string,
  [partyKey, partyHeader]: [string, string],
  [dateKey, dateHeader]: [keyof D & string, string],
  [personKey, personHeader]: [keyof D & string, string],
) {
  return paged({
    query: listQuery,
    list: async (tx, orgId, _actor, query) => (await docs.list(tx, orgId, query)) as unknown as Record<string, D[]>,
    key,
    columns: [
      ['number', 'Number'],
      [partyKey, partyHeader, (r) => r.CustomerVendor?.name],
      ['status', 'Status'],
      ['total', 'Total'],
      [dateKey, dateHeader],
      [personKey, personHeader, (r) => person(r[personKey] as unknown as PersonDto)],
    ],
  });
}

/** The lists that export, each through its own feature's filter (decision 042). */
export const EXPORTERS: Record<ExportList, Exporter> = {
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
  assets: keyed({
    query: assetListQuerySchema as ZodType<AssetListQuery>,
    // the location as its path: names repeat under different parents, a path names one (the import reads it back)
    batch: async (tx, orgId, query, before, limit) => {
      const rows = await exportAssetsBatch(tx, orgId, query, before, limit);
      const paths = rows.some((r) => r.locationId) ? new Map((await locationPaths(tx, orgId)).map((l) => [l.id, l.path])) : new Map<number, string>();
      return rows.map((r) => ({ ...r, locationPath: r.locationId ? paths.get(r.locationId) : undefined }));
    },
    columns: [
      ['assetId', 'Asset ID'],
      ['name', 'Name'],
      ['category', 'Category', (r) => r.AssetCategory?.name],
      ['status', 'Status'],
      ['owner', 'Owner', (r) => r.CustomerVendor?.name],
      ['serial', 'Serial'],
      ['assetCode', 'Asset Code'],
      ['assetBarcode', 'Barcode'],
      ['date', 'Date'],
      ['description', 'Description'],
      ['location', 'Location', (r) => r.locationPath],
      ['parent', 'Parent', (r) => r.Parent?.assetId],
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
  parts: keyed({
    query: partListQuerySchema as ZodType<PartListQuery>,
    batch: exportPartsBatch,
    columns: [
      ['name', 'Name'],
      ['skuCode', 'SKU'],
      ['type', 'Type'],
      ['category', 'Category', (r) => r.category?.name],
      ['salesPrice', 'Sales Price'],
      ['quantityOnHand', 'Quantity on Hand', (r) => (r.type === 'stockable' ? r.quantityOnHand : '')],
      ['minimumQuantity', 'Minimum Quantity', (r) => (r.type === 'stockable' ? r.minimumQuantity : '')],
      ['unitOfMeasure', 'Unit of Measure', (r) => r.unitOfMeasure?.name],
    ],
  }),
  services: paged({
    query: serviceListQuerySchema,
    list: (tx, orgId, _actor, query) => listServices(tx, orgId, query),
    key: 'services',
    columns: [
      ['serviceId', 'Service ID'],
      ['title', 'Name'],
      ['price', 'Price'],
      ['stations', 'Work Stations', (r) => names(r.WorkStations)],
      ['createdAt', 'Created At'],
    ],
  }),
  'work-stations': paged({
    query: workStationListQuerySchema,
    list: (tx, orgId, _actor, query) => listWorkStations(tx, orgId, query),
    key: 'workStations',
    columns: [
      ['code', 'Code'],
      ['name', 'Name'],
      ['city', 'City'],
      ['team', 'Team', (r) => r.Team?.name],
      ['createdAt', 'Created At'],
    ],
  }),
  teams: paged({
    query: simpleListQuerySchema,
    list: (tx, orgId, _actor, query) => listTeams(tx, orgId, query),
    key: 'teams',
    columns: [
      ['name', 'Name'],
      ['memberCount', 'Members'],
      ['members', 'Member Names', (r) => r.members.map((m) => person(m.Worker)).join('; ')],
    ],
  }),
  'customer-vendors': paged({
    query: customerVendorsQuerySchema,
    list: (tx, orgId, _actor, query) => listCustomerVendors(tx, orgId, query),
    key: 'customerVendors',
    columns: [
      ['name', 'Name'],
      ['email', 'Email'],
      // The screen's Mobile column shows the mobile or else the phone: both exported, so a re-import changes neither.
      ['mobile', 'Mobile'],
      ['mobile', 'Phone', (r) => r.phone],
      ['type', 'Type'],
      ['city', 'City'],
      ['country', 'Country'],
    ],
  }),
  users: paged({
    query: usersQuerySchema,
    list: listUsers,
    key: 'users',
    columns: [
      ['name', 'Name', (r) => person(r)],
      ['email', 'Email'],
      ['role', 'Role'],
      ['jobTitle', 'Job Title'],
      ['inviteStatus', 'Status'],
      ['phoneNumber', 'Phone Number'],
    ],
  }),
  quotations: documentsExporter<QuotationDto>(
    quotationDocs,
    QUOTATION_SCHEMAS.listQuery as ZodType<DocumentListQuery>,
    'quotations',
    ['customer', 'Customer'],
    ['expirationDate', 'Expiration Date'],
    ['salesperson', 'Salesperson'],
  ),
  'purchase-orders': documentsExporter<PurchaseOrderDto>(
    purchaseOrderDocs,
    PURCHASE_ORDER_SCHEMAS.listQuery as ZodType<DocumentListQuery>,
    'purchaseOrders',
    ['vendor', 'Vendor'],
    ['createdAt', 'Created At'],
    ['requester', 'Requester'],
  ),
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
  taxes: paged({
    query: simpleListQuerySchema,
    list: (tx, orgId, _actor, query) => listTaxes(tx, orgId, query),
    key: 'taxes',
    columns: [
      ['name', 'Name'],
      ['scope', 'Scope'],
      ['taxComputation', 'Type'],
      ['amount', 'Value'],
      ['sequence', 'Sequence'],
      ['Children', 'Children', (r) => names(r.Children)],
    ],
  }),
  'uom-categories': paged({
    query: simpleListQuerySchema,
    list: (tx, orgId, _actor, query) => listUomCategories(tx, orgId, query),
    key: 'uomCategories',
    columns: [
      ['name', 'Name'],
      ['isReferenceSet', 'Reference Unit Set'],
    ],
  }),
  uoms: paged({
    query: uomListQuerySchema,
    list: (tx, orgId, _actor, query) => listUoms(tx, orgId, query),
    key: 'uoms',
    columns: [
      ['name', 'Name'],
      ['ratio', 'Ratio'],
      ['type', 'Type'],
      ['category', 'Category', (r) => r.category?.name],
    ],
  }),
  'asset-categories': paged({
    query: simpleListQuerySchema,
    list: (tx, orgId, _actor, query) => listAssetCategories(tx, orgId, query),
    key: 'assetCategories',
    columns: [
      ['code', 'Code'],
      ['name', 'Name'],
    ],
  }),
  'product-categories': paged({
    query: simpleListQuerySchema,
    list: (tx, orgId, _actor, query) => listProductCategories(tx, orgId, query),
    key: 'productCategories',
    columns: [
      ['name', 'Name'],
      ['parent', 'Parent', (r) => r.parent?.name],
    ],
  }),
  'time-tracking-reasons': paged({
    query: simpleListQuerySchema,
    list: (tx, orgId, _actor, query) => listTimeTrackingReasons(tx, orgId, query),
    key: 'timeTrackingReasons',
    columns: [
      ['name', 'Name'],
      ['type', 'Type'],
      ['is_blocking_reason', 'Blocking Reason'],
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
  'work-order-labor': define({
    query: z.strictObject({}),
    access: MANAGERS,
    read: (tx, orgId, _actor, _query, step, limit) => exportLaborBatch(tx, orgId, step.before, limit),
    columns: [
      ['workOrder', 'Work Order', (r) => workOrderDisplayId(r.workOrderId)],
      ['worker', 'Worker'],
      ['reason', 'Reason'],
      ['startTime', 'Start Time', (r) => r.startDate.toISOString()],
      ['endTime', 'End Time', (r) => r.endDate.toISOString()],
      ['minutes', 'Minutes', (r) => Math.round((r.endDate.getTime() - r.startDate.getTime()) / 60_000)],
    ],
  }),
  // A procedure's steps, one row each under its procedure's name (decision 059): re-imported as they are.
  'procedure-steps': define({
    query: z.strictObject({}),
    access: MANAGERS,
    read: (tx, orgId, _actor, _query, step, limit) => exportProcedureStepsPage(tx, orgId, step.page, limit),
    columns: [
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
  }),
  'work-order-parts': define({
    query: z.strictObject({}),
    access: MANAGERS,
    read: (tx, orgId, _actor, _query, step, limit) => exportPartLinesBatch(tx, orgId, step.before, limit),
    columns: [
      ['workOrder', 'Work Order', (r) => workOrderDisplayId(r.workOrderId)],
      // The SKU when the part has one (what the import looks up first), else its name.
      ['part', 'Part', (r) => r.skuCode || r.name],
      ['quantity', 'Quantity'],
      ['partName', 'Part Name', (r) => r.name],
    ],
  }),
  // The stock ledger (decision 071), with the moves list's filters.
  'stock-moves': keyed({
    query: moveListQuerySchema as ZodType<MoveListQuery>,
    batch: exportMovesBatch,
    columns: [
      ['createdAt', 'Date', (r) => r.createdAt],
      ['part', 'Part', (r) => r.part?.name],
      ['reason', 'Reason'],
      ['quantity', 'Quantity'],
      ['fromLocation', 'From', (r) => r.fromLocation?.name],
      ['toLocation', 'To', (r) => r.toLocation?.name],
      ['workOrder', 'Work Order', (r) => (r.workOrderId ? workOrderDisplayId(r.workOrderId) : '')],
      ['note', 'Note'],
      ['user', 'User', (r) => (r.user ? `${r.user.firstName} ${r.user.lastName}`.trim() : '')],
    ],
  }),
  // Parents before their children (tree order): the file re-imports as it is (issue 42).
  locations: paged({
    query: locationListQuerySchema,
    list: (tx, orgId, _actor, query) => listLocations(tx, orgId, query),
    key: 'locations',
    columns: [
      ['name', 'Name'],
      ['code', 'Code'],
      ['parent', 'Parent', (r) => (r.path.includes(' / ') ? r.path.slice(0, r.path.lastIndexOf(' / ')) : '')],
      ['path', 'Path'],
    ],
  }),
};
