import { z } from '../../shared/zod-setup';
import type { Pagination } from '../../shared/pagination';
import {
  attachmentsField,
  documentBody,
  documentListQuery,
  noteField,
  optionalDate,
  requiredDate,
  requiredRefField,
  statusField,
  type DocumentLineDto,
  type DocumentTotalsDto,
  type StoredAttachment,
} from '../quotations/document-lines.schema';

export { documentOptionsQuery as purchaseOrderOptionsQuerySchema } from '../quotations/document-lines.schema';

/** Spec doc 2 section 4: draft (default), sendForApproval, purchaseSent, purchaseOrder; any can be chosen. */
export const PURCHASE_ORDER_STATUSES = ['draft', 'sendForApproval', 'purchaseSent', 'purchaseOrder'] as const;
export type PurchaseOrderStatus = (typeof PURCHASE_ORDER_STATUSES)[number];
export const PURCHASE_ORDER_STATUS_LABELS: Record<PurchaseOrderStatus, string> = {
  draft: 'Draft',
  sendForApproval: 'Send For Approval',
  purchaseSent: 'Purchase Order Sent',
  purchaseOrder: 'Purchase Order',
};

/** The spec's messages (doc 2 section 5 "Purchase order"). */
export const PURCHASE_ORDER_MESSAGES = {
  date: 'Purchase order date is required',
  dateInvalid: 'Purchase order date must be a valid date',
  vendor: 'Vendor is required',
  requester: 'Requester is required',
  expirationDateInvalid: 'Expiration date must be a valid date',
} as const;

export const purchaseOrderOverviewShape = {
  vendorId: requiredRefField(PURCHASE_ORDER_MESSAGES.vendor),
  requesterId: requiredRefField(PURCHASE_ORDER_MESSAGES.requester),
  status: statusField(PURCHASE_ORDER_STATUSES).optional(),
  purchaseOrderDate: requiredDate(PURCHASE_ORDER_MESSAGES.date, PURCHASE_ORDER_MESSAGES.dateInvalid),
  expirationDate: optionalDate(PURCHASE_ORDER_MESSAGES.expirationDateInvalid),
  note: noteField,
  attachments: attachmentsField,
};

/** Body of add-purchase-order and update-purchase-order/{id}. Lines take purchase taxes; a tax is required. */
export const purchaseOrderInputSchema = documentBody(purchaseOrderOverviewShape, {
  aliases: { vendor: 'vendorId', requester: 'requesterId', date: 'purchaseOrderDate', orderDate: 'purchaseOrderDate' },
  taxRequired: true,
});
export type PurchaseOrderInput = z.output<typeof purchaseOrderInputSchema>;

/** PUT update-purchase-order-status/{id}. */
export const purchaseOrderStatusInputSchema = z.strictObject({ status: statusField(PURCHASE_ORDER_STATUSES) });

export const purchaseOrdersQuerySchema = documentListQuery(PURCHASE_ORDER_STATUSES);
export type PurchaseOrdersQuery = z.output<typeof purchaseOrdersQuerySchema>;

/** 'PO-0001' from 1. */
export const purchaseOrderNumber = (id: number) => `PO-${String(id).padStart(4, '0')}`;

/** A purchase order as the lists return it; `get-purchase-order` adds the lines. Money in major units. */
export interface PurchaseOrderDto {
  id: number;
  number: string;
  purchaseOrderId: string;
  status: PurchaseOrderStatus;
  vendorId: number;
  CustomerVendor: { id: number; name: string; email: string } | null;
  requesterId: number;
  requester: { id: number; firstName: string; lastName: string } | null;
  purchaseOrderDate: string;
  expirationDate: string | null;
  note: string | null;
  attachments: StoredAttachment[];
  total: number;
  totals: DocumentTotalsDto;
  createdAt: string;
  updatedAt: string;
}

export interface PurchaseOrderDetailDto extends PurchaseOrderDto {
  serviceDetails: DocumentLineDto[];
  partDetails: DocumentLineDto[];
  services: DocumentLineDto[];
  parts: DocumentLineDto[];
}

export interface PurchaseOrderList {
  purchaseOrders: PurchaseOrderDto[];
  pagination: Pagination;
}
