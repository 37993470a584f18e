import { z } from '../../shared/zod-setup';
import { csvLine } from '../../shared/csv';
import { errorAnswerSchema, fileAnswer, messageSchema } from '../../shared/pagination';
import { readingImportSchema } from '../meters/meters.schema';

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
};

/** The kinds whose rows name records the organisation may lack, created on request (`createMissing`). */
export const CREATES_MISSING: Partial<Record<ImportKind, string>> = { assets: 'category', parts: 'category', 'product-categories': 'parent', uoms: 'category' };

/** Cells holding several names (a service's work stations, a group tax's children) separate them with `;`. */
export const LIST_SEPARATOR = ';';

export const IMPORT_MESSAGES = {
  formula: 'Cell starts with =, +, - or @ and would run as a spreadsheet formula; remove that character',
  duplicateInFile: (other: number) => `Duplicate of row ${other}`,
  duplicateExisting: 'A record with this value already exists',
  /** The key names one record and the id column another. */
  keyOtherRecord: 'Another record already has this value',
  /** A key several records share (asset codes, SKUs, e-mails of customers are not unique). */
  keyAmbiguous: 'Several records have this value: add the ID column to say which one',
  adminInvite: 'An invitation cannot give the admin role: invite the person as manager, then an admin changes the role',
  unknownColumn: 'Unknown column',
  tooLong: 'Cell must be at most 10000 characters',
  stationParts: 'Give one value for all the work stations, or one per work station separated by ;',
  // The master-data services' own messages for a reference they do not find.
  childUnknown: 'Child tax not found',
  parentUnknown: 'Parent category not found',
  parentNotFound: 'Parent not found',
  uomCategoryUnknown: 'UOM category not found',
  // Work orders and their lines (decision 059).
  assetUnknown: 'Asset not found: give its name, its code or its Asset ID (AS-0001)',
  assetAmbiguous: 'Several assets have this name: give its code or its Asset ID (AS-0001)',
  locationUnknown: 'Location not found: give its code, its path (Plant / Hall A) or its name',
  locationAmbiguous: 'Several locations have this name: give its code or its path (Plant / Hall A)',
  personUnknown: (name: string) => `No member of this organisation is ${name}: give their e-mail`,
  personAmbiguous: (name: string) => `Several members are called ${name}: give their e-mail`,
  workOrderUnknown: 'Work order not found: give its number (WO-0001)',
  reasonUnknown: 'Time tracking reason not found',
  partUnknown: 'Part not found: give its SKU or its name',
  partAmbiguous: 'Several parts have this SKU or name: give one that names one part',
  timeInvalid: 'Start time must be a valid date',
  // Procedures (decision 059): rows are steps, grouped by the procedure's name.
  procedureAmbiguous: 'Several procedures have this name: rename one before importing',
  yesNo: 'Write yes or no',
  // PM plans (decision 059).
  planState: 'State must be active or paused',
  planParts: 'Write each part as "2 x SKU" (or its name), separated by ;',
  teamUnknown: 'Team not found',
  stationUnknown: 'Work station not found',
  procedureUnknown: 'Procedure not found',
} as const;

const normalHeader = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The column a file's header means, by key, label or alias (case, spaces and punctuation ignored). */
export function guessColumn(kind: ImportKind, header: string): string | undefined {
  const h = normalHeader(header);
  if (!h) return undefined;
  return IMPORT_COLUMNS[kind].find((c) => [c.key, c.label, ...(c.aliases ?? [])].some((name) => normalHeader(name) === h))?.key;
}

/** The template of a kind: its headers and one example row. */
export const importTemplate = (kind: ImportKind) => {
  const columns = IMPORT_COLUMNS[kind].filter((c) => !c.exportOnly);
  return `\uFEFF${csvLine(columns.map((c) => c.label))}${csvLine(columns.map((c) => c.example))}`;
};

export const IMPORT_MAX_ROWS = 200_000;

export const importKindParamsSchema = z.strictObject({ kind: z.enum(IMPORT_KINDS, { error: 'Unknown import type' }) });

/** POST import/{kind}: rows keyed by column (mapped in the browser), the mode and whether to write. */
export const importRequestSchema = z.strictObject({
  rows: z
    .array(z.record(z.string().max(50), z.string().max(10_000, IMPORT_MESSAGES.tooLong).nullable()), { error: 'Rows are required' })
    .min(1, 'The file has no rows')
    .max(IMPORT_MAX_ROWS, `At most ${IMPORT_MAX_ROWS} rows at a time`),
  /** `all`: nothing is written unless every row is valid; `valid`: the valid rows are written, the others returned. */
  mode: z.enum(['all', 'valid'], { error: 'Mode must be all or valid' }).default('all'),
  /** Checks and writes in a transaction that is then rolled back. */
  dryRun: z.boolean({ error: 'dryRun must be true or false' }).default(false),
  /** Creates the categories the rows name and the organisation lacks. */
  createMissing: z.boolean({ error: 'createMissing must be true or false' }).default(false),
  /** Meter readings: the zone of times written without an offset (the browser's). */
  timeZone: readingImportSchema.shape.timeZone,
  /** The file's row number of `rows[0]` (2 after a header line), so problems name the file's rows. */
  firstRow: z
    .number({ error: 'firstRow must be a number' })
    .int('firstRow must be a number')
    .min(1, 'firstRow must be a number')
    .max(10_000_000, 'firstRow must be a number')
    .default(2),
});
export type ImportRequest = z.output<typeof importRequestSchema>;

export const importProblemSchema = z.object({
  /** The file's row number. */
  row: z.number(),
  /** The column key (`category`), or null for the whole row. */
  column: z.string().nullable(),
  message: z.string(),
});
export type ImportProblem = z.infer<typeof importProblemSchema>;

/** The answer of POST import/{kind} (response schema). */
export const importResultSchema = z.object({
  total: z.number(),
  /** Rows without problems. */
  valid: z.number(),
  /** Rows written (0 on a dry run or when an all-or-nothing import had problems). */
  imported: z.number(),
  /** Rows that create a record, written or (dry run) to be written. */
  new: z.number(),
  /** Rows that change the record they name (by its key or its ID column), written or to be written. */
  updated: z.number(),
  /** Rows that name a record and hold the values it has: nothing to write. */
  unchanged: z.number(),
  dryRun: z.boolean(),
  problems: z.array(importProblemSchema),
  /**
   * Names of the referenced records (categories, parents) created with `createMissing`: on a dry run, those the
   * import would create; empty when nothing was or would be written (an all-or-nothing import with problems).
   */
  created: z.array(z.string()),
  /** Names the rows refer to and the organisation lacks, where they can be created (offered for creation). */
  missing: z.array(z.string()),
});
export type ImportResult = z.infer<typeof importResultSchema>;

/** PUT mapping/{kind}: file header -> column key, remembered per organisation. */
export const importMappingSchema = z.strictObject({
  mapping: z.record(z.string().max(200), z.string().max(50)).refine((m) => Object.keys(m).length <= 200, 'At most 200 columns'),
});

/** The answers of GET and PUT mapping/{kind} (response schemas). */
export const importMappingAnswerSchema = z.object({ mapping: z.record(z.string(), z.string()) });
export const importMappingSavedSchema = messageSchema.extend(importMappingAnswerSchema.shape);

// ---- Export ---------------------------------------------------------------------------------------------

/** Every list screen's name for `GET export/{list}` (decision 042); the organisation archive holds one CSV of each. */
export const EXPORT_LISTS = [
  'work-orders',
  'assets',
  'maintenance-requests',
  'maintenance-orders',
  'parts',
  'services',
  'work-stations',
  'teams',
  'customer-vendors',
  'users',
  'quotations',
  'purchase-orders',
  'portal-requests',
  'pm-plans',
  'shared-work-orders',
  'procedures',
  'taxes',
  'uom-categories',
  'uoms',
  'asset-categories',
  'product-categories',
  'time-tracking-reasons',
  'meter-readings',
  'work-order-labor',
  'work-order-parts',
  'procedure-steps',
  'stock-moves',
  'locations',
] as const;
export type ExportList = (typeof EXPORT_LISTS)[number];

export const exportParamsSchema = z.strictObject({ list: z.enum(EXPORT_LISTS, { error: 'Unknown list' }) });

/** The list's own filters (checked by the list's query schema) and the visible columns, comma separated. */
export const exportQuerySchema = z.record(z.string().max(50), z.union([z.string().max(2000), z.array(z.string().max(2000)).max(50)]));

/** The answers of the exports: the file (streamed, never serialised), or a refusal (an unknown list or filter, no caller, a role without the right). */
export const exportCsvAnswers = {
  200: fileAnswer('text/csv', 'The list as a CSV file: UTF-8 with a BOM, CRLF line ends'),
  400: errorAnswerSchema,
  401: errorAnswerSchema,
  403: errorAnswerSchema,
};
export const exportZipAnswers = {
  200: fileAnswer('application/zip', 'The organisation as a ZIP archive: lists/<list>.csv, data/<table>.ndjson, data/manifest.json and files/<name>'),
  401: errorAnswerSchema,
  403: errorAnswerSchema,
};

// ---- Organisation import (decision 069) ---------------------------------------------------------------------

/** The largest organisation archive an import takes (the upload), and what its entries may weigh unpacked. */
export const ORGANISATION_ARCHIVE_MAX_BYTES = 200 * 1024 * 1024;
export const ORGANISATION_ARCHIVE_MAX_UNPACKED = 1024 * 1024 * 1024;

/** The kinds an organisation import counts, in the summary's order; `rows` holds every row written. */
export const ORGANISATION_IMPORT_KINDS = [
  'users',
  'teams',
  'masterData',
  'customersVendors',
  'assets',
  'meters',
  'parts',
  'procedures',
  'plans',
  'requests',
  'maintenanceOrders',
  'workOrders',
  'labor',
  'workOrderParts',
  'quotations',
  'purchaseOrders',
  'portalRequests',
  'history',
  'files',
] as const;
export type OrganisationImportKind = (typeof ORGANISATION_IMPORT_KINDS)[number];

export const organisationImportResultSchema = messageSchema.extend({
  counts: z.object(Object.fromEntries(ORGANISATION_IMPORT_KINDS.map((k) => [k, z.number()])) as Record<OrganisationImportKind, z.ZodNumber>),
  rows: z.number(),
});
export type OrganisationImportResult = z.infer<typeof organisationImportResultSchema>;

export const organisationImportAnswers = {
  200: organisationImportResultSchema,
  400: errorAnswerSchema,
  401: errorAnswerSchema,
  403: errorAnswerSchema,
  409: errorAnswerSchema,
  413: errorAnswerSchema,
  415: errorAnswerSchema,
};
