import { z } from '../../shared/zod-setup';
import type { Pagination } from '../../shared/pagination';
import { updatedAtField } from '../../shared/edit-version';
import { attachmentsField, documentBody, documentListQuery, noteField, statusField, type DocumentLineDto, type DocumentTotalsDto, type StoredAttachment } from './document-lines.schema';

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
  const shape = { ...overview.refs, status: statusField(statuses).optional(), ...overview.dates, note: noteField, attachments: attachmentsField, updatedAt: updatedAtField };
  return {
    input: documentBody(shape, opts),
    statusInput: z.strictObject({ status: statusField(statuses) }),
    listQuery: documentListQuery(statuses),
  };
}

/** 'Q-0001' from ('Q', 1). */
export const documentNumber = (prefix: string) => (id: number) => `${prefix}-${String(id).padStart(4, '0')}`;

export type PersonDto = { id: number; firstName: string; lastName: string } | null;

/** What every document DTO carries (money in major units); each kind adds its party, person and dates. */
export interface DocumentDtoBase<S extends string> {
  id: number;
  number: string;
  status: S;
  CustomerVendor: { id: number; name: string; email: string } | null;
  note: string | null;
  attachments: StoredAttachment[];
  total: number;
  totals: DocumentTotalsDto;
  createdAt: string;
  updatedAt: string;
}

/** A document as `get-<slug>/{id}` returns it: with its lines (twice, under both spellings). */
export type DocumentDetail<D> = D & {
  serviceDetails: DocumentLineDto[];
  partDetails: DocumentLineDto[];
  services: DocumentLineDto[];
  parts: DocumentLineDto[];
};

export type DocumentList<K extends string, D> = Record<K, D[]> & { pagination: Pagination };
