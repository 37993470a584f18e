import { z } from '../../shared/zod-setup';

import { multiValue, pageQuerySchema, optionsPageSize } from '../../shared/pagination';
import { blankToUndefined, isNumericText, optionalRef, renameAliases, requiredRef } from '../../shared/reference-fields';
import { overviewBody } from '../../shared/record-fields.schema';
import { clearableDateField, dateField } from '../../shared/dates';
import { storedFileSchema, toStoredFiles } from '../../shared/stored-file';

/**
 * What quotations and purchase orders share (browser-safe): their lines, attachments, status fields,
 * list queries and the body envelope `{ overview, serviceDetails, partDetails }`.
 */

export const LINE_KINDS = ['service', 'part'] as const;
export type LineKind = (typeof LINE_KINDS)[number];

export interface StoredAttachment {
  url: string;
  name: string;
}

export const LINE_MESSAGES = {
  service: 'Service is required',
  part: 'Part is required',
  name: 'Name is required',
  quantity: 'Quantity must be at least 1',
  price: 'Price must be a positive number',
  tax: 'Tax is required',
  invalidTax: 'Select a valid tax',
  discountNegative: 'Discount cannot be negative',
  discountMax: 'Discount cannot be more than 100',
  taxAmount: 'Tax amount cannot be negative',
  subtotal: 'Subtotal cannot be negative',
  status: 'Invalid status selected',
} as const;

/** A number given as a number or a numeric string (form inputs send strings); blank is undefined. */
const toNumber = (v: unknown) => {
  const b = blankToUndefined(v);
  if (isNumericText(b)) return Number(b);
  return b;
};

/** Other spellings of line fields (spec doc 2 section 3): the first canonical name wins. */
const LINE_ALIASES: Record<string, string> = {
  serviceName: 'name',
  partName: 'name',
  price: 'unitPrice',
  salesPrice: 'unitPrice',
  service: 'serviceId',
  part: 'partId',
  tax: 'taxId',
  uom: 'uomId',
  unitOfMeasureId: 'uomId',
};

const renameLineAliases = renameAliases(LINE_ALIASES);

function renameLine(v: unknown, kind: LineKind) {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const line = { ...(v as Record<string, unknown>) };
  // the other kind's empty references, as a returned line carries them
  for (const key of kind === 'service' ? ['partId', 'uomId', 'uom', 'partName', 'salesPrice'] : ['serviceId', 'serviceName']) {
    if (line[key] === null || line[key] === undefined) delete line[key];
  }
  const renamed = renameLineAliases(line) as Record<string, unknown>;
  // read-only parts of a line the API returned are accepted back and ignored
  for (const key of ['id', 'kind', 'position', 'Tax', 'Uom', 'Service', 'Part']) delete renamed[key];
  return renamed;
}

/**
 * One line. `unitPrice` is money in major units (the catalogue's price when left out); `taxAmount` and
 * `subtotal` may be sent and are ignored (the server computes its own, DESIGN 11).
 */
export const lineSchema = (kind: LineKind, opts: { taxRequired: boolean }) =>
  z.preprocess(
    (v) => renameLine(v, kind),
    z.strictObject({
      ...(kind === 'service' ? { serviceId: requiredRef(LINE_MESSAGES.service) } : { partId: requiredRef(LINE_MESSAGES.part) }),
      name: z.string({ error: LINE_MESSAGES.name }).trim().min(1, LINE_MESSAGES.name).max(200, 'Name must be at most 200 characters').optional(),
      quantity: z.preprocess(
        toNumber,
        z.number({ error: LINE_MESSAGES.quantity }).finite(LINE_MESSAGES.quantity).min(1, LINE_MESSAGES.quantity).max(1_000_000, 'Quantity is too large'),
      ),
      unitPrice: z.preprocess(
        toNumber,
        z.number({ error: LINE_MESSAGES.price }).finite(LINE_MESSAGES.price).positive(LINE_MESSAGES.price).max(1_000_000_000, 'Price is too large').optional(),
      ),
      taxId: opts.taxRequired ? requiredRef(LINE_MESSAGES.tax) : optionalRef(LINE_MESSAGES.invalidTax).optional(),
      discount: z.preprocess(
        (v) => toNumber(v) ?? 0,
        z.number({ error: LINE_MESSAGES.discountNegative }).finite().min(0, LINE_MESSAGES.discountNegative).max(100, LINE_MESSAGES.discountMax),
      ),
      taxAmount: z.preprocess(toNumber, z.number({ error: LINE_MESSAGES.taxAmount }).min(0, LINE_MESSAGES.taxAmount).optional()),
      subtotal: z.preprocess(toNumber, z.number({ error: LINE_MESSAGES.subtotal }).min(0, LINE_MESSAGES.subtotal).optional()),
      ...(kind === 'part' ? { uomId: optionalRef('Select a valid unit of measure').optional() } : {}),
    }),
  );

export interface LineValues {
  serviceId?: number;
  partId?: number;
  name?: string;
  quantity: number;
  unitPrice?: number;
  taxId?: number | null;
  discount: number;
  taxAmount?: number;
  subtotal?: number;
  uomId?: number | null;
}

/** Attachments: uploaded files `{ url, name }`, or bare upload URLs (the spec's "url list"). */
export const attachmentsField = z.preprocess(
  toStoredFiles,
  z.array(storedFileSchema, { error: 'Attachments must be a list of uploaded files' }).max(20, 'At most 20 attachments').optional(),
);

export const noteField = z.preprocess(
  blankToUndefined,
  z.string({ error: 'Note must be text' }).trim().max(5000, 'Note must be at most 5000 characters').optional(),
);

/** A required date (ISO 8601 string or Date); an optional one that null clears (shared/dates.ts). */
export const requiredDate = (required: string, invalid: string) => dateField(required, invalid);
export const optionalDate = (invalid: string) => clearableDateField(invalid);

/** `Draft`, `send for approval`, `SALES_ORDER` … -> the canonical camelCase value of `values`. */
export function canonicalStatus<T extends readonly string[]>(values: T) {
  const byKey = new Map(values.map((v) => [v.toLowerCase(), v]));
  return (v: unknown) => (typeof v === 'string' ? (byKey.get(v.replace(/[\s_-]+/g, '').toLowerCase()) ?? v) : v);
}

export const statusField = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => canonicalStatus(values)(blankToUndefined(v)), z.enum(values, { error: LINE_MESSAGES.status }));

const DOCUMENT_READ_ONLY = ['id', 'number', 'quotationId', 'purchaseOrderId', 'CustomerVendor', 'total', 'totals', 'createdAt'];

/**
 * The body of an add or update: `{ overview: {...}, serviceDetails: [...], partDetails: [...] }` or the same
 * with the overview's fields at the top level; `services`/`parts` are accepted for the line lists.
 */
export function documentBody<O extends z.ZodRawShape>(overview: O, opts: { aliases: Record<string, string>; taxRequired: boolean }) {
  const rename = renameAliases({ ...opts.aliases, services: 'serviceDetails', parts: 'partDetails' });
  const normalise = (v: unknown) => {
    const body = overviewBody(v);
    if (!body) return v;
    // read-only fields of a document the API returned are accepted back and ignored (they set nothing)
    for (const key of DOCUMENT_READ_ONLY) delete body[key];
    return rename(body);
  };
  const lines = (kind: LineKind) =>
    z.preprocess(
      (v) => (v === null ? undefined : v),
      z
        .array(lineSchema(kind, opts), { error: `${kind === 'service' ? 'Service' : 'Part'} lines must be a list` })
        .max(200, 'At most 200 lines')
        .default([]),
    );
  return z.preprocess(normalise, z.strictObject({ ...overview, serviceDetails: lines('service'), partDetails: lines('part') }));
}

/** Query of a document list: page, pageSize, status (several), title or name (contains). */
export const documentListQuery = <T extends readonly [string, ...string[]]>(statuses: T) =>
  pageQuerySchema.extend({
    status: multiValue(z.preprocess(canonicalStatus(statuses), z.enum(statuses, { error: 'Invalid status filter' }))),
    title: z.string().trim().max(100, 'Filter must be at most 100 characters').optional(),
    name: z.string().trim().max(100, 'Filter must be at most 100 characters').optional(),
  });

export const documentOptionsQuery = z.object({
  pageSize: optionsPageSize(),
  name: z.string().trim().max(100, 'Filter must be at most 100 characters').optional(),
  title: z.string().trim().max(100, 'Filter must be at most 100 characters').optional(),
});

/** A line as the API returns it (money in major units, 2 decimals). */
export const documentLineDtoSchema = z.object({
  id: z.number(),
  kind: z.enum(LINE_KINDS),
  serviceId: z.number().nullable(),
  serviceName: z.string().optional(),
  partId: z.number().nullable(),
  partName: z.string().optional(),
  name: z.string(),
  quantity: z.number(),
  unitPrice: z.number(),
  price: z.number(),
  salesPrice: z.number().optional(),
  taxId: z.number().nullable(),
  Tax: z.object({ id: z.number(), name: z.string() }).nullable(),
  discount: z.number(),
  taxAmount: z.number(),
  subtotal: z.number(),
  uomId: z.number().nullable(),
  uom: z.number().nullable(),
  Uom: z.object({ id: z.number(), name: z.string() }).nullable(),
  position: z.number(),
});
export type DocumentLineDto = z.infer<typeof documentLineDtoSchema>;

/** The summary figures in major units. */
export const documentTotalsDtoSchema = z.object({
  rawSubtotal: z.number(),
  totalDiscount: z.number(),
  untaxed: z.number(),
  totalTax: z.number(),
  total: z.number(),
});
export type DocumentTotalsDto = z.infer<typeof documentTotalsDtoSchema>;
