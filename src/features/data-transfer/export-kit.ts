import type { ZodType } from 'zod';
import { z } from '../../shared/zod-setup';
import type { ReadTx } from '../../server/db/client';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { simpleListQuerySchema, type SimpleListQuery } from '../master-data/master-data.schema';
import type { AccessClaims, Role } from '../auth/tokens';
import { quotationDocs } from '../quotations/quotations.service';
import { type QuotationDto } from '../quotations/quotations.schema';
import { type PurchaseOrderDto } from '../purchase-orders/purchase-orders.schema';
import type { PersonDto } from '../commercial-documents/commercial-documents.schema';
import type { ListQuery as DocumentListQuery } from '../commercial-documents/commercial-documents.service';

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

export interface Exporter<Q = unknown, R extends { id: number } = { id: number }> {
  /** The list's own query schema: the export takes the same filters as the screen. */
  query: ZodType<Q>;
  /** Who may export it: who may read the list. */
  access: readonly Role[];
  columns: ColumnSpec<R>[];
  read: ReadBatch<Q, R>;
}

export const define = <Q, R extends { id: number }>(e: Exporter<Q, R>) => e as unknown as Exporter;

/**
 * A list that grows without bound: the feature's keyset batch (its list filter, newest first, ids below
 * `before`), so a batch is an index range however far the export has gone.
 */
export function keyed<Q, R extends { id: number }>(e: {
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
export function paged<Q, K extends string, L extends Record<K, { id: number }[]>>(e: {
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

/** A master-data list (the simple list query, a name filter) read through its `(tx, orgId, query)` list function. */
export const simplePaged = <K extends string, L extends Record<K, { id: number }[]>>(
  list: (tx: ReadTx, orgId: number, query: SimpleListQuery) => Promise<L>,
  key: K,
  columns: ColumnSpec<L[K][number]>[],
) => paged({ query: simpleListQuerySchema, list: (tx, orgId, _actor, query) => list(tx, orgId, query), key, columns });

/** A managers' list with no filter (a work order's lines, a procedure's steps, stock levels, failure codes): `read` takes the step. */
export const unfiltered = <R extends { id: number }>(read: (tx: ReadTx, orgId: number, step: Step, limit: number) => Promise<R[]>, columns: ColumnSpec<R>[]) =>
  define({ query: z.strictObject({}), access: MANAGERS, read: (tx, orgId, _actor, _query, step, limit) => read(tx, orgId, step, limit), columns });

/** "First Last" of a person reference, or nothing. */
export const person = (p: { firstName: string; lastName: string } | null | undefined) => (p ? `${p.firstName} ${p.lastName}`.trim() : '');
export const names = (items: { name: string }[]) => items.map((i) => i.name).join('; ');

/** Quotations and purchase orders: one list each, the columns of the shared documents list. */
export function documentsExporter<D extends QuotationDto | PurchaseOrderDto>(
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
