import { currencyDigits } from '../../shared/money';
import { registerActivityEntity } from '../activity/activity.service';
import { major, totalsDto, type BaseRow, type DocumentKind } from './document-kind.service';
import { documentQueries } from './document-queries.service';
import { documentPricing } from './document-pricing.service';
import { documentStatus } from './document-status.service';
import { documentEdits } from './document-edits.service';
import { documentPrint } from './document-print.service';

/*
 * Quotations' and purchase orders' shared services (decision 036), one file per operation (issue 40): the kinds and
 * figures in document-kind, reads in document-queries, taxes and line pricing in document-pricing, status changes in
 * document-status, add/update/delete in document-edits, options and print in document-print.
 */
export { totalsDto, type BaseRow, type DocumentKind, type DocumentValues, type ListQuery } from './document-kind.service';

/** The document-level service: one instance per kind (its history entries are registered under `entityType`). */
export function documentService(k: DocumentKind) {
  registerActivityEntity(k.entityType, k.table, k.label);
  const queries = documentQueries(k);
  const pricing = documentPricing(k);
  const status = documentStatus(k, queries);
  const { add, update, remove } = documentEdits(k, queries, pricing, status);
  const { options, print } = documentPrint(k, queries);
  const { list, get } = queries;
  const { setStatus } = status;
  const { resolveLines, taxOptions } = pricing;
  return { list, get, add, update, remove, setStatus, options, print, resolveLines, taxOptions };
}

/** The shared columns as the list rows show them, plus the feature's names. */
export function baseDto(k: Pick<DocumentKind, 'numberOf' | 'displayIdKey'>, r: BaseRow) {
  const digits = currencyDigits(r.currency);
  return {
    id: r.id,
    number: k.numberOf(r.id),
    [k.displayIdKey]: k.numberOf(r.id),
    status: r.status,
    CustomerVendor: r.partyName !== null ? { id: r.partyId, name: r.partyName, email: r.partyEmail ?? '' } : null,
    expirationDate: r.expirationDate ? r.expirationDate.toISOString() : null,
    note: r.note,
    attachments: r.attachments ?? [],
    total: major(r.total, digits),
    totals: totalsDto(r, digits),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export const personDto = (r: BaseRow) =>
  r.personFirstName !== null ? { id: r.personId, firstName: r.personFirstName, lastName: r.personLastName ?? '' } : null;
