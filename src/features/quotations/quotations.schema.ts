import { z } from '../../shared/zod-setup';
import type { Pagination } from '../../shared/pagination';
import {
  attachmentsField,
  documentBody,
  documentListQuery,
  noteField,
  requiredDate,
  requiredRefField,
  statusField,
  type DocumentLineDto,
  type DocumentTotalsDto,
  type StoredAttachment,
} from './document-lines.schema';

export { documentOptionsQuery as quotationOptionsQuerySchema } from './document-lines.schema';

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
  salesPerson: 'Sales Person is required',
  quotationDate: 'Quotation date is required',
  quotationDateInvalid: 'Quotation date must be a valid date',
  expirationDate: 'Expiration date is required',
  expirationDateInvalid: 'Expiration date must be a valid date',
  expirationFuture: 'Expiration date must be in the future',
} as const;

export const quotationOverviewShape = {
  customerId: requiredRefField(QUOTATION_MESSAGES.customer),
  salesPersonId: requiredRefField(QUOTATION_MESSAGES.salesPerson),
  status: statusField(QUOTATION_STATUSES).optional(),
  quotationDate: requiredDate(QUOTATION_MESSAGES.quotationDate, QUOTATION_MESSAGES.quotationDateInvalid),
  expirationDate: requiredDate(QUOTATION_MESSAGES.expirationDate, QUOTATION_MESSAGES.expirationDateInvalid).refine(
    (d) => d.getTime() > Date.now(),
    QUOTATION_MESSAGES.expirationFuture,
  ),
  note: noteField,
  attachments: attachmentsField,
};

/** Body of add-quotation and update-quotation/{id} (the drawer's form uses it too). Lines take sales taxes. */
export const quotationInputSchema = documentBody(quotationOverviewShape, {
  aliases: { customer: 'customerId', salesPerson: 'salesPersonId', salesperson: 'salesPersonId', salesPersonID: 'salesPersonId' },
  taxRequired: false,
});
export type QuotationInput = z.output<typeof quotationInputSchema>;

/** PUT update-quotation-status/{id}. */
export const quotationStatusInputSchema = z.strictObject({ status: statusField(QUOTATION_STATUSES) });

export const quotationsQuerySchema = documentListQuery(QUOTATION_STATUSES);
export type QuotationsQuery = z.output<typeof quotationsQuerySchema>;

/** 'Q-0001' from 1. */
export const quotationNumber = (id: number) => `Q-${String(id).padStart(4, '0')}`;

/** A quotation as the lists return it; `get-quotation` adds the lines. Money in major units. */
export interface QuotationDto {
  id: number;
  number: string;
  quotationId: string;
  status: QuotationStatus;
  customerId: number;
  CustomerVendor: { id: number; name: string; email: string } | null;
  salesPersonId: number;
  salesperson: { id: number; firstName: string; lastName: string } | null;
  salesPerson: { id: number; firstName: string; lastName: string } | null;
  quotationDate: string;
  expirationDate: string;
  note: string | null;
  attachments: StoredAttachment[];
  total: number;
  totals: DocumentTotalsDto;
  createdAt: string;
  updatedAt: string;
}

export interface QuotationDetailDto extends QuotationDto {
  serviceDetails: DocumentLineDto[];
  partDetails: DocumentLineDto[];
  services: DocumentLineDto[];
  parts: DocumentLineDto[];
}

export interface QuotationList {
  quotations: QuotationDto[];
  pagination: Pagination;
}
