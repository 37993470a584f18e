import { z } from '../../shared/zod-setup';
import { requiredDate } from '../commercial-documents/document-lines.schema';
import { requiredRef } from '../../shared/reference-fields';
import {
  documentNumber,
  documentSchemas,
  documentDtoSchema,
  personDtoSchema,
  documentApiKind,
  type DocumentDetail,
  type DocumentList,
} from '../commercial-documents/commercial-documents.schema';

/** Spec doc 2 section 4: changed freely from the dropdown when editing. */
export const QUOTATION_STATUSES = ['draft', 'sendForApproval', 'quotation', 'quotationSent', 'salesOrder'] as const;
export type QuotationStatus = (typeof QUOTATION_STATUSES)[number];
export const QUOTATION_STATUS_LABELS: Record<QuotationStatus, string> = {
  draft: 'Draft',
  sendForApproval: 'Send For Approval',
  quotation: 'Quotation',
  quotationSent: 'Quotation Sent',
  salesOrder: 'Sales Order',
};

/** The spec's messages (doc 2 section 5 "Quotation"), word for word. */
export const QUOTATION_MESSAGES = {
  customer: 'Customer is required',
  customerType: 'The customer must be a customer, not a vendor',
  salesPerson: 'Sales Person is required',
  quotationDate: 'Quotation date is required',
  quotationDateInvalid: 'Quotation date must be a valid date',
  expirationDate: 'Expiration date is required',
  expirationDateInvalid: 'Expiration date must be a valid date',
  expirationFuture: 'Expiration date must be in the future',
} as const;

/** Add-quotation and update-quotation/{id} bodies (the drawer's form uses it too; lines take sales taxes), update-quotation-status/{id}, get-quotations. */
export const QUOTATION_SCHEMAS = documentSchemas(
  QUOTATION_STATUSES,
  {
    refs: { customerId: requiredRef(QUOTATION_MESSAGES.customer), salesPersonId: requiredRef(QUOTATION_MESSAGES.salesPerson) },
    dates: {
      quotationDate: requiredDate(QUOTATION_MESSAGES.quotationDate, QUOTATION_MESSAGES.quotationDateInvalid),
      expirationDate: requiredDate(QUOTATION_MESSAGES.expirationDate, QUOTATION_MESSAGES.expirationDateInvalid).refine(
        (d) => d.getTime() > Date.now(),
        QUOTATION_MESSAGES.expirationFuture,
      ),
    },
  },
  {
    aliases: { customer: 'customerId', salesPerson: 'salesPersonId', salesperson: 'salesPersonId', salesPersonID: 'salesPersonId' },
    taxRequired: false,
  },
);

/** 'Q-0001' from 1. */
export const quotationNumber = documentNumber('Q');

export const QUOTATION_KIND = documentApiKind('quotation', 'quotation');

/** A quotation as the lists return it; `get-quotation` adds the lines. Money in major units. */
export const quotationDtoSchema = documentDtoSchema(QUOTATION_STATUSES, {
  quotationId: z.string(),
  customerId: z.number(),
  salesPersonId: z.number(),
  salesperson: personDtoSchema,
  salesPerson: personDtoSchema,
  quotationDate: z.string(),
  expirationDate: z.string(),
});
export type QuotationDto = z.infer<typeof quotationDtoSchema>;
export type QuotationDetailDto = DocumentDetail<QuotationDto>;
export type QuotationList = DocumentList<'quotations', QuotationDto>;
