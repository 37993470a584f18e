import type { ZodType } from 'zod';
import { exportAssetsBatch } from '../assets/assets.service';
import { assetListQuerySchema, type AssetListQuery } from '../assets/assets.schema';
import { exportPartsBatch } from '../parts/parts.service';
import { listLocations, locationPaths } from '../locations/locations.service';
import { locationListQuerySchema } from '../locations/locations.schema';
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
import type { ListQuery as DocumentListQuery } from '../commercial-documents/commercial-documents.service';
import { listTaxes } from '../master-data/taxes.service';
import { listUomCategories, listUoms } from '../master-data/uoms.service';
import { listAssetCategories } from '../master-data/asset-categories.service';
import { listProductCategories } from '../master-data/product-categories.service';
import { listTimeTrackingReasons } from '../master-data/time-tracking-reasons.service';
import { uomListQuerySchema } from '../master-data/master-data.schema';
import { keyed, paged, person, names, documentsExporter, simplePaged, type Exporter } from './export-kit';
import { type ExportList } from './data-transfer.schema';

/** The records and master data that export, each through its own feature's list. */
export const RECORD_EXPORTERS = {
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
  teams: simplePaged(listTeams, 'teams', [
    ['name', 'Name'],
    ['memberCount', 'Members'],
    ['members', 'Member Names', (r) => r.members.map((m) => person(m.Worker)).join('; ')],
  ]),
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
  taxes: simplePaged(listTaxes, 'taxes', [
    ['name', 'Name'],
    ['scope', 'Scope'],
    ['taxComputation', 'Type'],
    ['amount', 'Value'],
    ['sequence', 'Sequence'],
    ['Children', 'Children', (r) => names(r.Children)],
  ]),
  'uom-categories': simplePaged(listUomCategories, 'uomCategories', [
    ['name', 'Name'],
    ['isReferenceSet', 'Reference Unit Set'],
  ]),
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
  'asset-categories': simplePaged(listAssetCategories, 'assetCategories', [
    ['code', 'Code'],
    ['name', 'Name'],
  ]),
  'product-categories': simplePaged(listProductCategories, 'productCategories', [
    ['name', 'Name'],
    ['parent', 'Parent', (r) => r.parent?.name],
  ]),
  'time-tracking-reasons': simplePaged(listTimeTrackingReasons, 'timeTrackingReasons', [
    ['name', 'Name'],
    ['type', 'Type'],
    ['is_blocking_reason', 'Blocking Reason'],
  ]),
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
} satisfies Partial<Record<ExportList, Exporter>>;
