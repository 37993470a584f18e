import { z } from '../../shared/zod-setup';
import { listAnswerSchema, messageSchema, optionSchema, type Pagination } from '../../shared/pagination';
import { updatedAtField } from '../../shared/edit-version';
import { TAX_COMPUTATIONS } from '../master-data/master-data.schema';
import {
  attachmentsField,
  documentBody,
  documentLineDtoSchema,
  documentListQuery,
  documentTotalsDtoSchema,
  noteField,
  statusField,
  type DocumentLineDto,
} from './document-lines.schema';

/**
 * How one kind of commercial document (quotation, purchase order) is addressed: its API paths under
 * `/api/<plural>`, the response keys and the activity entity. The routes and the UI both read it.
 */
export interface DocumentApiKind {
  /** 'quotations', 'purchase-orders': the URL prefix, the list path and the UI's query key. */
  plural: string;
  /** 'quotation', 'purchase-order': get-<slug>/{id}, add-<slug>, update-<slug>/{id}, … */
  slug: string;
  /** The list's key in responses ('quotations', 'purchaseOrders'). */
  listKey: string;
  /** The record's key in responses ('quotation', 'purchaseOrder'). */
  singularKey: string;
  /** The activity (history) entity type. */
  entityType: string;
}

/** The paths of a document kind, relative to its prefix (`/<plural>`); `{id}` paths end with a slash. */
/** A kind's names from its slug and its response key: each plural adds an 's'; the activity entity type is the slug. */
export const documentApiKind = (slug: string, singularKey: string): DocumentApiKind => ({
  plural: `${slug}s`,
  slug,
  listKey: `${singularKey}s`,
  singularKey,
  entityType: slug,
});

export const documentPaths = (k: Pick<DocumentApiKind, 'plural' | 'slug'>) => ({
  list: `/get-${k.plural}`,
  options: `/get-${k.slug}-options`,
  upload: '/upload-attachments',
  taxOptions: '/get-tax-options',
  get: `/get-${k.slug}/`,
  add: `/add-${k.slug}`,
  update: `/update-${k.slug}/`,
  status: `/update-${k.slug}-status/`,
  remove: `/delete-${k.slug}/`,
  pdf: `/get-${k.slug}-pdf/`,
});

/**
 * The request schemas of a kind: the add/update body (overview fields + lines), the status change and the list
 * query. The overview is the kind's references (party, person), status, its dates, note and attachments, in that order.
 */
export function documentSchemas<S extends readonly [string, ...string[]], R extends z.ZodRawShape, D extends z.ZodRawShape>(
  statuses: S,
  overview: { refs: R; dates: D },
  opts: { aliases: Record<string, string>; taxRequired: boolean },
) {
  // updatedAt: on update, when the copy the edit was made from was last changed (decision 025).
  const shape = {
    ...overview.refs,
    status: statusField(statuses).optional(),
    ...overview.dates,
    note: noteField,
    attachments: attachmentsField,
    updatedAt: updatedAtField,
  };
  return {
    input: documentBody(shape, opts),
    statusInput: z.strictObject({ status: statusField(statuses) }),
    listQuery: documentListQuery(statuses),
  };
}

/** 'Q-0001' from ('Q', 1). */
export const documentNumber = (prefix: string) => (id: number) => `${prefix}-${String(id).padStart(4, '0')}`;

export const personDtoSchema = z.object({ id: z.number(), firstName: z.string(), lastName: z.string() }).nullable();
export type PersonDto = z.infer<typeof personDtoSchema>;

/** What every document DTO carries (money in major units); each kind adds its party, person and dates. */
export const documentDtoBaseSchema = z.object({
  id: z.number(),
  number: z.string(),
  status: z.string(),
  CustomerVendor: z.object({ id: z.number(), name: z.string(), email: z.string() }).nullable(),
  note: z.string().nullable(),
  attachments: z.array(z.object({ url: z.string(), name: z.string() })),
  total: z.number(),
  totals: documentTotalsDtoSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DocumentDtoBase<S extends string> = Omit<z.infer<typeof documentDtoBaseSchema>, 'status'> & { status: S };

/** A kind's DTO schema: the base, its statuses and its own fields. */
export const documentDtoSchema = <S extends readonly [string, ...string[]], F extends z.ZodRawShape>(statuses: S, fields: F) =>
  documentDtoBaseSchema.extend({ status: z.enum(statuses) }).extend(fields);

const taxOptionRule = z.object({
  taxComputation: z.enum(TAX_COMPUTATIONS),
  amount: z.number().nullable(),
  isPriceIncluded: z.boolean(),
  sequence: z.number().optional(),
  includeBaseAmount: z.boolean().optional(),
});

/** The keys differ by kind, so the routes see these answers untyped (the services' DTO types are checked instead). */
type DocumentAnswer = 'list' | 'options' | 'upload' | 'taxOptions' | 'get' | 'saved' | 'status' | 'remove';

/**
 * The answers of a kind's routes (issue 28), under its keys: the list `{ <listKey>, pagination }`, the record with
 * its lines `{ <singularKey>, services, parts, serviceDetails, partDetails }`, and what each change returns.
 */
export function documentAnswers(kind: Pick<DocumentApiKind, 'listKey' | 'singularKey'>, dto: z.ZodObject): Record<DocumentAnswer, z.ZodType> {
  const lines = z.array(documentLineDtoSchema);
  const detail = dto.extend({ serviceDetails: lines, partDetails: lines, services: lines, parts: lines });
  const list = listAnswerSchema(kind.listKey, dto);
  const said = list.extend(messageSchema.shape);
  return {
    list,
    options: z.array(optionSchema.extend({ total: z.number(), status: z.string() })),
    upload: z.object({ attachments: z.array(z.object({ url: z.string(), name: z.string() })) }),
    taxOptions: z.array(
      optionSchema.extend(taxOptionRule.shape).extend({ children: z.array(taxOptionRule.extend({ id: z.number().optional(), name: z.string().optional() })) }),
    ),
    get: z.object({ [kind.singularKey]: detail, services: lines, parts: lines, serviceDetails: lines, partDetails: lines }),
    saved: said.extend({ [kind.singularKey]: detail }),
    status: messageSchema.extend({ status: z.string(), [kind.singularKey]: dto }),
    remove: said,
  };
}

/** A document as `get-<slug>/{id}` returns it: with its lines (twice, under both spellings). */
export type DocumentDetail<D> = D & {
  serviceDetails: DocumentLineDto[];
  partDetails: DocumentLineDto[];
  services: DocumentLineDto[];
  parts: DocumentLineDto[];
};

export type DocumentList<K extends string, D> = Record<K, D[]> & { pagination: Pagination };
