import { z } from '../../shared/zod-setup';
import { lowerCased } from '../../shared/spelling.schema';
import { NAME_MESSAGES, nameField } from '../../shared/record-fields.schema';
import { versionField } from '../../shared/edit-version';
import { messageSchema } from '../../shared/pagination';
import { optionalString, requiredString } from '../../shared/validation';
import { optionalDateField } from '../../shared/dates';
import { blankToUndefined, optionalRef, requiredRef } from '../../shared/reference-fields';

/**
 * Meter kinds (decision 031). A `counter` accumulates and never goes down (running hours, cycles, km); a reading
 * lower than the one before it is refused unless it is marked `reset` (the counter was replaced or restarted).
 * A `gauge` measures a state that goes up and down (temperature, pressure, vibration): any value, any order.
 */
export const METER_KINDS = ['counter', 'gauge'] as const;
export type MeterKind = (typeof METER_KINDS)[number];

/** Where a reading came from: typed on the asset, taken on a work order, or imported from a CSV file. */
export const READING_SOURCES = ['manual', 'work-order', 'csv'] as const;
export type ReadingSource = (typeof READING_SOURCES)[number];

/** A reading may be dated this far ahead of the server's clock (clocks of phones drift), no further. */
export const FUTURE_TOLERANCE_MS = 5 * 60 * 1000;

/** The largest reading kept: numeric(15, 4) holds 11 digits before the point. */
export const MAX_READING = 99_999_999_999;

export const METER_MESSAGES = {
  asset: 'Asset is required',
  assetUnknown: 'Asset does not exist in this organization',
  ...NAME_MESSAGES,
  nameTaken: 'This asset already has a meter with this name',
  kind: 'Kind must be counter or gauge',
  kindLocked: 'The kind of a meter with readings cannot change',
  unit: 'Unit is required',
  unitMax: 'Unit must be at most 20 characters',
  meter: 'Meter is required',
  value: 'Value is required',
  valueInvalid: 'Value must be a number',
  valueRange: `Value must be between -${MAX_READING} and ${MAX_READING}`,
  counterNegative: 'A counter reading cannot be negative',
  counterLower: 'A counter only goes up: this reading is lower than the one before it. Mark it as a reset if the counter was replaced or restarted',
  counterHigher: 'A counter only goes up: this reading is higher than a later one',
  resetGauge: 'Only a counter can be reset',
  readAtInvalid: 'Read at must be a valid date',
  readAtFuture: 'Read at cannot be in the future',
  source: 'Source must be manual or work-order',
  workOrder: 'Work order is invalid',
  workOrderRequired: 'A reading from a work order names the work order',
  workOrderUnknown: 'Work order does not exist in this organization',
  workOrderOtherAsset: 'The work order is for another asset',
  rangeOrder: 'From must be before To',
} as const;
const M = METER_MESSAGES;

const kindField = z.preprocess(lowerCased, z.enum(METER_KINDS, { error: M.kind }));

const meterFields = {
  name: nameField(),
  kind: kindField,
  unit: requiredString(M.unit).max(20, M.unitMax),
  description: optionalString(1000),
};

/** add-meter body: the asset it measures, name (unique within the asset), kind, unit (free text: h, km, °C), description. */
export const meterInputSchema = z.strictObject({ assetId: requiredRef(M.asset), ...meterFields });
export type MeterInput = z.output<typeof meterInputSchema>;

/** update-meter body: a meter stays on its asset; the kind changes only while it has no readings. */
export const meterUpdateSchema = z.strictObject({ ...meterFields, version: versionField });
export type MeterUpdate = z.output<typeof meterUpdateSchema>;

/** list-meters?assetId= */
export const meterListQuerySchema = z.object({ assetId: requiredRef(M.asset) });

const NUMBER = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)\s*$/;

/** A reading's value: a number or a numeric string (forms and CSV send strings), rounded to 4 decimals. */
export const readingValueField = z.any().transform((v, ctx): number => {
  const fail = (message: string) => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return fail(M.value);
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.length <= 40 && NUMBER.test(v) ? Number(v) : NaN;
  if (!Number.isFinite(n)) return fail(M.valueInvalid);
  if (Math.abs(n) > MAX_READING) return fail(M.valueRange);
  return Math.round(n * 10_000) / 10_000;
});

/** Not later than the tolerance allows, measured against this machine's clock when checked. */
export const isNotInFuture = (d: Date, now = Date.now()) => d.getTime() <= now + FUTURE_TOLERANCE_MS;

const flag = z.preprocess(
  (v) => (v === null || v === undefined || v === '' ? false : v === 'true' ? true : v === 'false' ? false : v),
  z.boolean({ error: 'Must be true or false' }),
);

/**
 * add-meter-reading body. `readAt` defaults to now; `source` is `manual` or `work-order` (with its work order);
 * CSV readings come through import-meter-readings. `reset` marks a counter that restarted from zero.
 */
export const readingInputSchema = z.strictObject({
  meterId: requiredRef(M.meter),
  value: readingValueField,
  readAt: optionalDateField(M.readAtInvalid).refine((d) => d === undefined || isNotInFuture(d), M.readAtFuture),
  source: z.preprocess(blankToUndefined, z.enum(['manual', 'work-order'], { error: M.source }).default('manual')),
  workOrderId: optionalRef(M.workOrder).optional(),
  reset: flag,
});
export type ReadingInput = z.output<typeof readingInputSchema>;

/** list-meter-readings/:id?from=&to=&limit=: the latest `limit` readings in the range, oldest first (a chart's series). */
export const readingListQuerySchema = z
  .object({
    from: optionalDateField('From must be a valid date'),
    to: optionalDateField('To must be a valid date'),
    limit: z.coerce
      .number({ error: 'limit must be between 1 and 2000' })
      .int('limit must be between 1 and 2000')
      .min(1, 'limit must be between 1 and 2000')
      .max(2000, 'limit must be between 1 and 2000')
      .default(500),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: M.rangeOrder, path: ['to'] });
export type ReadingListQuery = z.output<typeof readingListQuerySchema>;

/** GET data-transfer/export/meter-readings (decision 042): the organisation's readings, of one asset or meter, in [from, to]. */
export const readingExportQuerySchema = z
  .object({
    assetId: optionalRef('Asset is invalid').optional(),
    meterId: optionalRef('Meter is invalid').optional(),
    from: optionalDateField('From must be a valid date'),
    to: optionalDateField('To must be a valid date'),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: M.rangeOrder, path: ['to'] });
export type ReadingExportQuery = z.output<typeof readingExportQuerySchema>;

/** A reading as the API returns it. */
export const readingDtoSchema = z.object({
  id: z.number(),
  meterId: z.number(),
  value: z.number(),
  /** A counter's usage since its first reading, across resets; null for a gauge. */
  total: z.number().nullable(),
  reset: z.boolean(),
  /** ISO 8601 */
  readAt: z.string(),
  source: z.enum(READING_SOURCES),
  workOrderId: z.number().nullable(),
  recordedById: z.number().nullable(),
  /** "First Last" of who recorded it, null when unknown or gone. */
  recordedBy: z.string().nullable(),
  createdAt: z.string(),
});
export type ReadingDto = z.infer<typeof readingDtoSchema>;

/** A meter as the API returns it, with its latest reading (by read time). */
export const meterDtoSchema = z.object({
  id: z.number(),
  assetId: z.number(),
  name: z.string(),
  kind: z.enum(METER_KINDS),
  unit: z.string(),
  description: z.string().nullable(),
  version: z.number(),
  createdAt: z.string(),
  latestReading: readingDtoSchema.nullable(),
});
export type MeterDto = z.infer<typeof meterDtoSchema>;

export const readingListSchema = z.object({
  meter: meterDtoSchema,
  /** Oldest first. */
  readings: z.array(readingDtoSchema),
  /** True when the range holds more readings than `limit`: the oldest were left out. */
  limited: z.boolean(),
});
export type ReadingList = z.infer<typeof readingListSchema>;

/** The meter routes' answers (issue 28): an asset's meters, and what each change returns. */
const meterList = z.object({ meters: z.array(meterDtoSchema) });
const said = meterList.extend(messageSchema.shape);
export const meterAnswers = {
  list: meterList,
  add: said.extend({ meter: meterDtoSchema }),
  update: messageSchema.extend({ meter: meterDtoSchema }),
  remove: said,
  reading: said.extend({ reading: readingDtoSchema }),
  /** With `assetId`, the asset's meters too. */
  imported: messageSchema.extend({ imported: z.number(), meters: z.array(meterDtoSchema).optional() }),
};

/** One refused cell of an import: its line in the file (1 = header), column and message. */
export interface ImportIssue {
  row: number;
  column: string;
  message: string;
}

/** The most rows one import takes (each row is checked against its meter's readings before it). */
export const IMPORT_MAX_ROWS = 2000;

/** IANA time zone names the browser gives (`Intl.DateTimeFormat().resolvedOptions().timeZone`). */
const isTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

/**
 * import-meter-readings body: the CSV file's text. Columns (header names in any case, spaces ignored): `meter`
 * (a meter's id, or its name within the asset), `asset` (AS-0001 or 1; optional when `assetId` is given),
 * `value`, `read at`, optional `reset` (yes/no). Times without an offset are read in `timeZone` (default UTC).
 */
export const readingImportSchema = z.strictObject({
  assetId: optionalRef('Asset is invalid').optional(),
  csv: z.string({ error: 'Choose a CSV file' }).min(1, 'The file is empty').max(1_000_000, 'The file is too large (at most 1 MB)'),
  timeZone: z.preprocess(blankToUndefined, z.string().max(64, 'Unknown time zone').refine(isTimeZone, 'Unknown time zone').default('UTC')),
});
export type ReadingImport = z.output<typeof readingImportSchema>;
