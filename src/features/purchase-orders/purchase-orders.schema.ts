import { z } from '../../shared/zod-setup';
import { optionalDate, requiredDate } from '../commercial-documents/document-lines.schema';
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
  vendorType: 'The vendor must be a vendor, not a customer',
  requester: 'Requester is required',
  expirationDateInvalid: 'Expiration date must be a valid date',
} as const;

/** Add-purchase-order and update-purchase-order/{id} bodies (lines take purchase taxes; a tax is required), update-purchase-order-status/{id}, get-purchase-orders. */
export const PURCHASE_ORDER_SCHEMAS = documentSchemas(
  PURCHASE_ORDER_STATUSES,
  {
    refs: { vendorId: requiredRef(PURCHASE_ORDER_MESSAGES.vendor), requesterId: requiredRef(PURCHASE_ORDER_MESSAGES.requester) },
    dates: {
      purchaseOrderDate: requiredDate(PURCHASE_ORDER_MESSAGES.date, PURCHASE_ORDER_MESSAGES.dateInvalid),
      expirationDate: optionalDate(PURCHASE_ORDER_MESSAGES.expirationDateInvalid),
    },
  },
  { aliases: { vendor: 'vendorId', requester: 'requesterId', date: 'purchaseOrderDate', orderDate: 'purchaseOrderDate' }, taxRequired: true },
);

/** 'PO-0001' from 1. */
export const purchaseOrderNumber = documentNumber('PO');

export const PURCHASE_ORDER_KIND = documentApiKind('purchase-order', 'purchaseOrder');

/** A purchase order as the lists return it; `get-purchase-order` adds the lines. Money in major units. */
export const purchaseOrderDtoSchema = documentDtoSchema(PURCHASE_ORDER_STATUSES, {
  purchaseOrderId: z.string(),
  vendorId: z.number(),
  requesterId: z.number(),
  requester: personDtoSchema,
  purchaseOrderDate: z.string(),
  expirationDate: z.string().nullable(),
});
export type PurchaseOrderDto = z.infer<typeof purchaseOrderDtoSchema>;
export type PurchaseOrderDetailDto = DocumentDetail<PurchaseOrderDto>;
export type PurchaseOrderList = DocumentList<'purchaseOrders', PurchaseOrderDto>;
