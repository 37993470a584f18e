import { quotationLines, quotations } from '../../server/db/schema';
import { baseDto, documentService, personDto, type BaseRow } from '../commercial-documents/commercial-documents.service';
import { QUOTATION_KIND, QUOTATION_MESSAGES, QUOTATION_STATUS_LABELS, quotationNumber } from './quotations.schema';

/** Quotations: customer, salesperson, quotation and expiration dates; lines take sales taxes. */
export const quotationDocs = documentService({
  ...QUOTATION_KIND,
  webhook: { status: 'salesOrder', event: 'quotation.accepted' },
  label: 'Quotation',
  table: quotations,
  lines: quotationLines,
  partyColumn: 'customerId',
  personColumn: 'salesPersonId',
  dateColumn: 'quotationDate',
  lineDocColumn: 'quotationId',
  partyLabel: 'Customer',
  personLabel: 'Sales Person',
  partyPath: 'customerId',
  partyType: 'customer',
  partyTypeMessage: QUOTATION_MESSAGES.customerType,
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
  print: {
    title: 'Quotation',
    statusLabel: (s) => QUOTATION_STATUS_LABELS[s as keyof typeof QUOTATION_STATUS_LABELS] ?? s,
    partyLabel: 'Customer',
    personLabel: 'Salesperson',
    dateLabel: 'Quotation date',
    expirationLabel: 'Expiration date',
  },
});
