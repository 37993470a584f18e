// The import kinds and their columns (decision 042): browser-safe, shared by the wizard, the routes and the export.

/**
 * Import and export (decision 042). Browser-safe: the wizard and the routes share the kinds, their columns and
 * the cell rules. Each row is then checked by its own feature's input schema (`assetInputSchema`, …).
 */
export const IMPORT_KINDS = [
  'assets',
  'parts',
  'customer-vendors',
  'services',
  'work-stations',
  'users',
  'meter-readings',
  'asset-categories',
  'product-categories',
  'taxes',
  'uom-categories',
  'uoms',
  'time-tracking-reasons',
  'work-orders',
  'work-order-labor',
  'work-order-parts',
  'procedures',
  'pm-plans',
  'locations',
  'storerooms',
  'stock-levels',
  'failure-codes',
] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export interface ImportColumn {
  /** The field the row carries (a reference column holds a name or a code, resolved by the server). */
  key: string;
  label: string;
  required?: boolean;
  /** Other header spellings mapped to this column automatically. */
  aliases?: string[];
  /** A value for the template's example row. */
  example: string;
  /**
   * A column only the export has (not in the template): `id` is the record's display id, used to find the record
   * a row updates; `ignored` is read and dropped (computed or read-only values), so an export re-imports as it is.
   */
  exportOnly?: 'id' | 'ignored';
}

/** The columns of each import, in template order. The first `key` column is the duplicate key. */
export const IMPORT_COLUMNS: Record<ImportKind, ImportColumn[]> = {
  assets: [
    { key: 'assetId', label: 'Asset ID', exportOnly: 'id', example: '' },
    { key: 'name', label: 'Name', required: true, aliases: ['asset', 'asset name'], example: 'Boiler Feed Pump P-101' },
    { key: 'assetCode', label: 'Asset Code', aliases: ['code'], example: 'PMP-002' },
    { key: 'category', label: 'Category', required: true, aliases: ['asset category', 'category code'], example: 'Pumps' },
    { key: 'date', label: 'Date', required: true, aliases: ['purchase date', 'acquired'], example: '2024-05-01' },
    { key: 'status', label: 'Status', example: 'Operational' },
    { key: 'serial', label: 'Serial', aliases: ['serial number', 'serial no'], example: 'GRF-3341' },
    { key: 'assetBarcode', label: 'Barcode', aliases: ['asset barcode'], example: '0701234500110' },
    { key: 'owner', label: 'Owner', aliases: ['customer/vendor', 'customer', 'vendor'], example: 'Bearing World' },
    { key: 'description', label: 'Description', example: 'Grundfos NB 65' },
    // Issue 42: where it is (a location's code, path "Plant / Hall A" or name) and what it belongs to (another
    // asset's Asset ID, code or name; an asset of the organisation or a row of the same file).
    { key: 'location', label: 'Location', aliases: ['location code', 'location path'], example: 'Plant / Hall A' },
    { key: 'parent', label: 'Parent', aliases: ['parent asset', 'parent code'], example: '' },
  ],
  parts: [
    { key: 'name', label: 'Name', required: true, aliases: ['part', 'part name'], example: 'Bearing 6204' },
    { key: 'skuCode', label: 'SKU', aliases: ['sku code', 'code'], example: 'BRG-6204' },
    { key: 'type', label: 'Type', required: true, example: 'stockable' },
    { key: 'category', label: 'Category', required: true, aliases: ['product category'], example: 'Spares' },
    { key: 'salesPrice', label: 'Sales Price', required: true, aliases: ['price'], example: '12.50' },
    { key: 'unitOfMeasure', label: 'Unit of Measure', required: true, aliases: ['uom', 'unit'], example: 'Units' },
    { key: 'purchaseUnitOfMeasure', label: 'Purchase Unit of Measure', aliases: ['purchase uom', 'purchase unit'], example: 'Units' },
    { key: 'quantityOnHand', label: 'Quantity on Hand', aliases: ['quantity', 'stock', 'on hand'], example: '40' },
    { key: 'minimumQuantity', label: 'Minimum Quantity', aliases: ['minimum', 'min quantity'], example: '10' },
  ],
  'customer-vendors': [
    { key: 'name', label: 'Name', required: true, example: 'Bearing World' },
    { key: 'email', label: 'Email', required: true, aliases: ['e-mail', 'mail'], example: 'sales@bearings.example.com' },
    { key: 'type', label: 'Type', required: true, example: 'vendor' },
    { key: 'category', label: 'Category', required: true, example: 'company' },
    { key: 'parent', label: 'Parent', aliases: ['parent name', 'company'], example: '' },
    { key: 'phone', label: 'Phone', example: '+12025550123' },
    { key: 'mobile', label: 'Mobile', example: '' },
    { key: 'street', label: 'Street', example: '1 Industrial Way' },
    { key: 'street2', label: 'Street 2', example: '' },
    { key: 'city', label: 'City', example: 'Riyadh' },
    { key: 'state', label: 'State', example: '' },
    { key: 'zipCode', label: 'Zip Code', aliases: ['zip', 'postal code'], example: '' },
    { key: 'country', label: 'Country', example: 'Saudi Arabia' },
    { key: 'tinVat', label: 'TIN/VAT', aliases: ['vat', 'tin', 'tax id'], example: '' },
    { key: 'website', label: 'Website', example: 'bearings.example.com' },
  ],
  services: [
    { key: 'title', label: 'Title', required: true, aliases: ['service', 'name'], example: 'Pump overhaul' },
    { key: 'price', label: 'Price', required: true, example: '250' },
    {
      key: 'workStations',
      label: 'Work Stations',
      required: true,
      aliases: ['work station', 'workstation', 'workstations', 'stations'],
      example: 'WS-01; WS-02',
    },
    { key: 'operation', label: 'Operation', required: true, aliases: ['operations per station'], example: 'Dismantle; Reassemble' },
    { key: 'timeRequired', label: 'Time Required', required: true, aliases: ['time'], example: '2h; 1h' },
    { key: 'operations', label: 'Description', aliases: ['operations', 'notes'], example: 'Full overhaul with new seals' },
    { key: 'serviceId', label: 'Service ID', exportOnly: 'id', example: '' },
    { key: 'createdAt', label: 'Created At', exportOnly: 'ignored', example: '' },
  ],
  'work-stations': [
    { key: 'code', label: 'Code', required: true, aliases: ['station code', 'work station code'], example: 'WS-01' },
    { key: 'name', label: 'Name', required: true, aliases: ['work station', 'station'], example: 'Machining bay' },
    { key: 'city', label: 'City', required: true, example: 'Riyadh' },
    { key: 'team', label: 'Team', required: true, aliases: ['team name'], example: 'Mechanics' },
    { key: 'createdAt', label: 'Created At', exportOnly: 'ignored', example: '' },
  ],
  users: [
    { key: 'email', label: 'Email', required: true, aliases: ['e-mail', 'mail'], example: 'new.technician@example.com' },
    { key: 'role', label: 'Role', required: true, example: 'worker' },
    // The users list's other columns: an invitation sets only the e-mail and the role.
    { key: 'name', label: 'Name', exportOnly: 'ignored', example: '' },
    { key: 'jobTitle', label: 'Job Title', exportOnly: 'ignored', example: '' },
    { key: 'inviteStatus', label: 'Status', exportOnly: 'ignored', example: '' },
    { key: 'phoneNumber', label: 'Phone Number', exportOnly: 'ignored', example: '' },
  ],
  'meter-readings': [
    { key: 'asset', label: 'Asset', aliases: ['asset id', 'asset number', 'asset no'], example: 'AS-0001' },
    { key: 'meter', label: 'Meter', required: true, aliases: ['meter name', 'meter id'], example: 'Running hours' },
    { key: 'value', label: 'Value', required: true, aliases: ['reading'], example: '1200' },
    { key: 'readAt', label: 'Read At', required: true, aliases: ['date', 'time', 'reading date', 'date time'], example: '2026-03-31 14:30' },
    { key: 'reset', label: 'Reset', example: 'no' },
  ],
  'asset-categories': [
    { key: 'code', label: 'Short Code', required: true, aliases: ['code'], example: 'PMP' },
    { key: 'name', label: 'Name', required: true, aliases: ['category'], example: 'Pumps' },
  ],
  'product-categories': [
    { key: 'name', label: 'Name', required: true, aliases: ['category'], example: 'Bearings' },
    { key: 'parent', label: 'Parent', aliases: ['parent category'], example: 'Spares' },
  ],
  taxes: [
    { key: 'name', label: 'Tax Name', required: true, aliases: ['name', 'tax'], example: 'VAT 15%' },
    { key: 'scope', label: 'Scope', required: true, example: 'sales' },
    { key: 'taxComputation', label: 'Tax Computation', required: true, aliases: ['computation', 'type'], example: 'percentage_of_price' },
    { key: 'amount', label: 'Amount', aliases: ['rate', 'value'], example: '15' },
    { key: 'isPriceIncluded', label: 'Price Included', required: true, aliases: ['included in price'], example: 'no' },
    { key: 'sequence', label: 'Sequence', example: '1' },
    { key: 'includeBaseAmount', label: 'Affects Base', aliases: ['affects base of subsequent taxes', 'include base amount'], example: 'no' },
    { key: 'children', label: 'Child Taxes', aliases: ['children'], example: '' },
  ],
  'uom-categories': [
    { key: 'name', label: 'Name', required: true, aliases: ['category'], example: 'Weight' },
    { key: 'isReferenceSet', label: 'Reference Unit Set', exportOnly: 'ignored', example: '' },
  ],
  uoms: [
    { key: 'name', label: 'Name', required: true, aliases: ['unit', 'unit of measure'], example: 'Kilogram' },
    { key: 'category', label: 'Category', required: true, aliases: ['uom category'], example: 'Weight' },
    { key: 'type', label: 'Type', required: true, example: 'reference' },
    { key: 'ratio', label: 'Ratio', example: '1' },
  ],
  'time-tracking-reasons': [
    { key: 'name', label: 'Name', required: true, aliases: ['reason'], example: 'Waiting for parts' },
    { key: 'type', label: 'Type', required: true, example: 'availability' },
    { key: 'isBlockingReason', label: 'Blocking', required: true, aliases: ['is blocking reason', 'blocking reason'], example: 'yes' },
  ],
  'work-orders': [
    { key: 'workOrderId', label: 'WO-ID', exportOnly: 'id', aliases: ['work order id', 'work order'], example: '' },
    { key: 'title', label: 'Title', required: true, aliases: ['work order title'], example: 'Replace pump seal' },
    { key: 'status', label: 'Status', example: 'assigned' },
    { key: 'priority', label: 'Priority', example: 'high' },
    { key: 'startDate', label: 'Start Date', aliases: ['start'], example: '2026-03-02T08:00:00Z' },
    { key: 'endDate', label: 'End Date', aliases: ['end'], example: '2026-03-02T12:00:00Z' },
    { key: 'dueDate', label: 'Due Date', aliases: ['due'], example: '2026-03-03T17:00:00Z' },
    { key: 'duration', label: 'Duration', example: '04:00' },
    { key: 'assignees', label: 'Assigned To', aliases: ['assignees', 'assignee', 'assigned'], example: 'tech@example.com; Omar Saleh' },
    { key: 'asset', label: 'Asset', aliases: ['asset name', 'asset id', 'asset code'], example: 'AS-0001' },
    { key: 'instructions', label: 'Instructions', aliases: ['description'], example: 'Isolate the pump first' },
    { key: 'createdAt', label: 'Created At', exportOnly: 'ignored', example: '' },
  ],
  'work-order-labor': [
    { key: 'workOrder', label: 'Work Order', required: true, aliases: ['wo-id', 'work order id'], example: 'WO-0001' },
    { key: 'worker', label: 'Worker', required: true, aliases: ['technician', 'worker email', 'email'], example: 'tech@example.com' },
    { key: 'reason', label: 'Reason', required: true, aliases: ['time tracking reason'], example: 'Repair' },
    { key: 'startTime', label: 'Start Time', required: true, aliases: ['start', 'start date'], example: '2026-03-02T08:00:00Z' },
    { key: 'endTime', label: 'End Time', required: true, aliases: ['end', 'end date'], example: '2026-03-02T10:30:00Z' },
    { key: 'minutes', label: 'Minutes', exportOnly: 'ignored', example: '' },
  ],
  'work-order-parts': [
    { key: 'workOrder', label: 'Work Order', required: true, aliases: ['wo-id', 'work order id'], example: 'WO-0001' },
    { key: 'part', label: 'Part', required: true, aliases: ['sku', 'part sku'], example: 'BRG-6204' },
    { key: 'quantity', label: 'Quantity', aliases: ['qty'], example: '2' },
    { key: 'partName', label: 'Part Name', exportOnly: 'ignored', example: '' },
  ],
  // One row per step (the procedure-steps export), grouped by the procedure's name (decision 059).
  procedures: [
    { key: 'procedure', label: 'Procedure', required: true, aliases: ['procedure name', 'name'], example: 'Pump monthly check' },
    { key: 'description', label: 'Description', example: 'Monthly check of the feed pumps' },
    { key: 'kind', label: 'Step Type', required: true, aliases: ['type', 'step kind', 'kind'], example: 'number' },
    { key: 'label', label: 'Label', required: true, aliases: ['step', 'step label'], example: 'Discharge pressure' },
    { key: 'required', label: 'Required', example: 'yes' },
    { key: 'unit', label: 'Unit', example: 'bar' },
    { key: 'min', label: 'Min', aliases: ['minimum'], example: '2' },
    { key: 'max', label: 'Max', aliases: ['maximum'], example: '6' },
    { key: 'options', label: 'Options', aliases: ['choices'], example: '' },
    { key: 'followUpOnFailure', label: 'Follow-up on Failure', aliases: ['follow-up', 'follow up'], example: 'no' },
    { key: 'meterName', label: 'Meter Name', aliases: ['meter'], example: '' },
  ],
  // One row per plan (the pm-plans export): the list's columns, then the drawer's fields (decision 059).
  'pm-plans': [
    { key: 'planId', label: 'ID', exportOnly: 'id', aliases: ['plan id'], example: '' },
    { key: 'name', label: 'Name', required: true, aliases: ['plan', 'plan name'], example: 'Pump monthly service' },
    { key: 'target', label: 'Target', exportOnly: 'ignored', example: '' },
    { key: 'trigger', label: 'Trigger', aliases: ['recurrence'], example: 'calendar monthly 1' },
    { key: 'nextDue', label: 'Next Due', exportOnly: 'ignored', example: '' },
    { key: 'lastCompleted', label: 'Last Completed', exportOnly: 'ignored', example: '' },
    { key: 'compliance', label: 'Compliance', exportOnly: 'ignored', example: '' },
    { key: 'state', label: 'State', aliases: ['paused'], example: 'active' },
    { key: 'title', label: 'Work Order Title', required: true, aliases: ['title'], example: 'Monthly pump service' },
    { key: 'assets', label: 'Assets', aliases: ['asset'], example: 'PMP-002' },
    { key: 'workStation', label: 'Work Station', aliases: ['station'], example: '' },
    { key: 'priority', label: 'Priority', example: 'medium' },
    { key: 'duration', label: 'Duration', example: '01:30' },
    { key: 'team', label: 'Team', example: '' },
    { key: 'procedure', label: 'Procedure', example: '' },
    { key: 'assignees', label: 'Assigned To', aliases: ['assignees', 'assignee'], example: 'tech@example.com' },
    { key: 'parts', label: 'Parts', example: '2 x BRG-6204' },
    { key: 'weekdays', label: 'Weekdays', example: '' },
    { key: 'monthlyMode', label: 'Monthly Mode', example: 'day' },
    { key: 'monthDay', label: 'Month Day', example: '1' },
    { key: 'monthWeek', label: 'Month Week', example: '' },
    { key: 'monthWeekday', label: 'Month Weekday', example: '' },
    { key: 'schedule', label: 'Schedule', example: 'fixed' },
    { key: 'startDate', label: 'Start Date', required: true, aliases: ['start'], example: '2026-01-01' },
    { key: 'endDate', label: 'End Date', aliases: ['end'], example: '' },
    { key: 'leadDays', label: 'Lead Days', aliases: ['lead time'], example: '3' },
    { key: 'meter', label: 'Meter', example: '' },
    { key: 'meterEvery', label: 'Meter Every', example: '' },
    { key: 'meterThreshold', label: 'Meter Threshold', example: '' },
    { key: 'meterLeadUnits', label: 'Meter Lead Units', example: '' },
    { key: 'instructions', label: 'Instructions', aliases: ['description'], example: '' },
  ],
  // One row per location, parents before their children (the locations export): matched by code, else by path.
  locations: [
    { key: 'name', label: 'Name', required: true, aliases: ['location', 'location name'], example: 'Hall A' },
    { key: 'code', label: 'Code', aliases: ['location code'], example: 'HA' },
    { key: 'parent', label: 'Parent', aliases: ['parent location', 'parent path', 'parent code'], example: 'Plant' },
    { key: 'path', label: 'Path', exportOnly: 'ignored', example: '' },
  ],
  // Stock (issue 41): a storeroom by its name; a level by its part and storeroom, the quantity posted as a count.
  storerooms: [
    { key: 'name', label: 'Name', required: true, aliases: ['storeroom', 'stock location'], example: 'Van 1' },
    { key: 'kind', label: 'Kind', aliases: ['type'], example: 'van' },
    { key: 'isDefault', label: 'Default', aliases: ['default location', 'is default'], example: 'no' },
    // Issue 42: where it is, a location of the tree by its code, path ("Plant / Hall A") or name.
    { key: 'location', label: 'Location', aliases: ['location code', 'location path'], example: 'Plant / Hall A' },
  ],
  'stock-levels': [
    { key: 'part', label: 'Part', required: true, aliases: ['sku', 'part sku', 'part number'], example: 'BRG-6204' },
    { key: 'partName', label: 'Part Name', exportOnly: 'ignored', example: '' },
    { key: 'storeroom', label: 'Storeroom', required: true, aliases: ['stock location', 'location'], example: 'Main store' },
    { key: 'quantity', label: 'Quantity', aliases: ['on hand', 'quantity on hand', 'counted', 'qty'], example: '40' },
    { key: 'reorderPoint', label: 'Reorder Point', aliases: ['minimum', 'min'], example: '10' },
    { key: 'reorderQuantity', label: 'Reorder Quantity', aliases: ['reorder qty'], example: '20' },
    { key: 'bin', label: 'Bin', aliases: ['shelf', 'bin location'], example: 'A-03' },
  ],
  // Failure codes (issue 42): problem > cause > remedy, one row each, parents above; a parent by its codes (LEAK > SEAL).
  'failure-codes': [
    { key: 'kind', label: 'Kind', required: true, aliases: ['level', 'type'], example: 'problem' },
    { key: 'code', label: 'Code', required: true, aliases: ['failure code'], example: 'LEAK' },
    { key: 'name', label: 'Name', required: true, aliases: ['description'], example: 'Leak' },
    { key: 'parent', label: 'Parent', aliases: ['parent code'], example: '' },
    { key: 'assetCategory', label: 'Asset Category', aliases: ['category'], example: 'Pumps' },
  ],
};

/**
 * The column whose values must be unique in the file: a value the organisation has names the record the row
 * updates (meter readings have none: every row is a new reading).
 */
export const IMPORT_KEYS: Record<ImportKind, string | null> = {
  assets: 'assetCode',
  parts: 'skuCode',
  'customer-vendors': 'email',
  services: 'title',
  'work-stations': 'code',
  users: 'email',
  'meter-readings': null,
  'asset-categories': 'code',
  'product-categories': 'name',
  taxes: 'name',
  'uom-categories': 'name',
  uoms: 'name',
  'time-tracking-reasons': 'name',
  // Matched by their WO-ID column only (titles repeat); lines by their order and part, or order, worker and start.
  'work-orders': null,
  'work-order-labor': null,
  'work-order-parts': null,
  // Rows are steps: grouped by the Procedure column, a procedure matched by its name.
  procedures: null,
  // Matched by the ID column, else by name (names repeat only where the organisation made them so).
  'pm-plans': 'name',
  // Matched by code, else by path (names repeat under different parents).
  locations: null,
  storerooms: 'name',
  // Matched by part and storeroom; failure codes by their place (kind, parent, category) and code, else name.
  'stock-levels': null,
  'failure-codes': null,
};
