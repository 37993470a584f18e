import { taxes } from '../../server/db/schema';
import { toMajor } from '../../shared/money';
import type { DocumentTotalsDto, LineValues, StoredAttachment } from './document-lines.schema';
import type { WebhookEvent } from '../webhooks/webhooks.schema';
import type { NotificationKind } from '../notifications/notifications.schema';

/**
 * The business rules quotations and purchase orders share: lines resolved against the catalogue, taxes of
 * the right scope, totals from the shared tax engine (the client's figures are never trusted), lists,
 * options, status changes and history. Each feature gives its tables and words in a `DocumentKind`.
 */
export interface DocumentKind {
  entityType: string;
  /** The webhook announced when a document reaches a status (a quotation accepted, an order confirmed; decision 043). */
  webhook?: { status: string; event: WebhookEvent };
  /** The status at which a document waits for a manager's approval, and the notification it sends (decision 074). */
  approval?: { status: string; kind: NotificationKind };
  /** 'Quotation', 'Purchase order' */
  label: string;
  listKey: string;
  singularKey: string;
  /** The document table and its lines table (Drizzle tables; typed loosely because the two differ in names). */
  table: any;
  lines: any;
  /** Column names of the document table. */
  partyColumn: string;
  personColumn: string;
  dateColumn: string;
  /** The line table's reference to its document. */
  lineDocColumn: string;
  /** e.g. 'Customer', 'Sales Person' (messages). */
  partyLabel: string;
  personLabel: string;
  partyPath: string;
  personPath: string;
  /** The party's type: a quotation's customer is a customer, a purchase order's vendor a vendor. */
  partyType: 'customer' | 'vendor';
  /** The field message when the chosen party is of the other type. */
  partyTypeMessage: string;
  taxScope: 'sales' | 'purchase';
  taxScopeMessage: string;
  numberOf(id: number): string;
  /** The id field name shown with the number (quotationId: 'Q-0001'). */
  displayIdKey: string;
  /** Shapes a list row from the shared columns (keys of the feature's DTO). */
  shapeRow(row: BaseRow): Record<string, unknown>;
  /** The part's default unit of measure for a line. */
  partUom: 'unitOfMeasureId' | 'purchaseUnitOfMeasureId';
  /** The printed document's words. */
  print: { title: string; statusLabel(s: string): string; partyLabel: string; personLabel: string; dateLabel: string; expirationLabel: string };
}

export interface BaseRow {
  id: number;
  status: string;
  partyId: number;
  partyName: string | null;
  partyEmail: string | null;
  personId: number;
  personFirstName: string | null;
  personLastName: string | null;
  date: Date;
  expirationDate: Date | null;
  note: string | null;
  attachments: StoredAttachment[];
  rawSubtotal: number;
  totalDiscount: number;
  untaxed: number;
  totalTax: number;
  total: number;
  /** The organisation's currency: the stored figures are in its minor units (decision 035). */
  currency: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface DocumentValues {
  status?: string;
  expirationDate?: Date | null;
  note?: string;
  attachments?: StoredAttachment[];
  serviceDetails: LineValues[];
  partDetails: LineValues[];
  [key: string]: unknown;
}

export interface ListQuery {
  page: number;
  pageSize: number;
  status?: string[];
  title?: string;
  name?: string;
}

export const major = (minor: number | string, digits: number) => toMajor(Number(minor), digits);

/** The stored figures (minor units of the currency) in major units, as the API speaks. */
export function totalsDto(
  r: { rawSubtotal: number; totalDiscount: number; untaxed: number; totalTax: number; total: number },
  digits: number,
): DocumentTotalsDto {
  return {
    rawSubtotal: major(r.rawSubtotal, digits),
    totalDiscount: major(r.totalDiscount, digits),
    untaxed: major(r.untaxed, digits),
    totalTax: major(r.totalTax, digits),
    total: major(r.total, digits),
  };
}

/** What the tax engine reads of a tax (decision 036). */
export const engineColumns = {
  id: taxes.id,
  name: taxes.name,
  taxComputation: taxes.taxComputation,
  amount: taxes.amount,
  isPriceIncluded: taxes.isPriceIncluded,
  sequence: taxes.sequence,
  includeBaseAmount: taxes.includeBaseAmount,
};
