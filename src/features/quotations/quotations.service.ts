import { quotationLines, quotations } from '../../server/db/schema';
import { registerActivityEntity } from '../activity/activity.service';
import { baseDto, documentService, personDto, printableDocument, type BaseRow } from './commercial-documents.service';
import { QUOTATION_STATUS_LABELS, quotationNumber, type QuotationInput, type QuotationsQuery } from './quotations.schema';
import type { Tx } from '../../server/db/client';

registerActivityEntity('quotation', quotations, 'Quotation');

/** Quotations: customer, salesperson, quotation and expiration dates; lines take sales taxes. */
export const quotationDocs = documentService({
  entityType: 'quotation',
  label: 'Quotation',
  listKey: 'quotations',
  singularKey: 'quotation',
  table: quotations,
  lines: quotationLines,
  partyColumn: 'customerId',
  personColumn: 'salesPersonId',
  dateColumn: 'quotationDate',
  lineDocColumn: 'quotationId',
  partyLabel: 'Customer',
  personLabel: 'Sales Person',
  partyPath: 'customerId',
  personPath: 'salesPersonId',
  taxScope: 'sales',
  taxScopeMessage: 'Quotation lines take sales taxes',
  numberOf: quotationNumber,
  displayIdKey: 'quotationId',
  partUom: 'unitOfMeasureId',
  shapeRow: (r: BaseRow) => {
    const person = personDto(r);
    return {
      ...baseDto({ numberOf: quotationNumber, displayIdKey: 'quotationId' }, r),
      customerId: r.partyId,
      salesPersonId: r.personId,
      salesperson: person,
      salesPerson: person,
      quotationDate: r.date.toISOString(),
    };
  },
});

export const listQuotations = (tx: Tx, orgId: number, query: QuotationsQuery) => quotationDocs.list(tx, orgId, query);
export const getQuotation = (tx: Tx, orgId: number, id: number) => quotationDocs.get(tx, orgId, id);
export const addQuotation = (tx: Tx, orgId: number, userId: number, input: QuotationInput, query: QuotationsQuery) =>
  quotationDocs.add(tx, orgId, userId, input as never, query);
export const updateQuotation = (tx: Tx, orgId: number, userId: number, id: number, input: QuotationInput, query: QuotationsQuery) =>
  quotationDocs.update(tx, orgId, userId, id, input as never, query);
export const deleteQuotation = (tx: Tx, orgId: number, userId: number, id: number, query: QuotationsQuery) => quotationDocs.remove(tx, orgId, userId, id, query);
export const updateQuotationStatus = (tx: Tx, orgId: number, userId: number, id: number, status: string) => quotationDocs.setStatus(tx, orgId, userId, id, status);
export const listQuotationOptions = (tx: Tx, orgId: number, query: { pageSize: number; name?: string; title?: string }) => quotationDocs.options(tx, orgId, query);

/** A quotation as printed (the route renders it to PDF outside the transaction). */
export const printQuotation = (tx: Tx, orgId: number, id: number) =>
  printableDocument(
    tx,
    orgId,
    quotationDocs,
    {
      title: 'Quotation',
      number: quotationNumber,
      statusLabel: (s) => QUOTATION_STATUS_LABELS[s as keyof typeof QUOTATION_STATUS_LABELS] ?? s,
      partyLabel: 'Customer',
      personLabel: 'Salesperson',
      dateLabel: 'Quotation date',
      expirationLabel: 'Expiration date',
    },
    id,
  );

export const listQuotationTaxOptions = (tx: Tx, orgId: number) => quotationDocs.taxOptions(tx, orgId);
