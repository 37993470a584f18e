import { z } from '../../shared/zod-setup';
import { csvLine } from '../../shared/csv';
import { errorAnswerSchema, fileAnswer, messageSchema } from '../../shared/pagination';
import { readingImportSchema } from '../meters/meters.schema';

export { IMPORT_KINDS, IMPORT_COLUMNS, IMPORT_KEYS, type ImportKind, type ImportColumn } from './import-columns';
import { IMPORT_COLUMNS, IMPORT_KINDS, type ImportKind } from './import-columns';

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
  // Stock (issue 41) and failure codes (issue 42).
  storeroomUnknown: 'Storeroom not found: give its name',
  defaultKept: 'An organisation keeps one default storeroom: write yes on another one instead',
  failureParentUnknown:
    'Parent not found: give the code of the problem (LEAK) or, for a remedy, of the problem and the cause (LEAK > SEAL), with the asset category',
  failureParentAmbiguous: 'Several codes match this parent: give the problem and the cause (LEAK > SEAL) and the asset category',
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
  'storerooms',
  'stock-levels',
  'failure-codes',
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
