import { purchaseOrderLines, purchaseOrders } from '../../server/db/schema';
import type { Tx } from '../../server/db/client';
import { registerActivityEntity } from '../activity/activity.service';
import { baseDto, documentService, personDto, printableDocument, type BaseRow } from '../quotations/commercial-documents.service';
import { PURCHASE_ORDER_STATUS_LABELS, purchaseOrderNumber, type PurchaseOrderInput, type PurchaseOrdersQuery } from './purchase-orders.schema';

registerActivityEntity('purchase-order', purchaseOrders, 'Purchase order');

/** Purchase orders: vendor, requester, order date; lines take purchase taxes. */
export const purchaseOrderDocs = documentService({
  entityType: 'purchase-order',
  label: 'Purchase order',
  listKey: 'purchaseOrders',
  singularKey: 'purchaseOrder',
  table: purchaseOrders,
  lines: purchaseOrderLines,
  partyColumn: 'vendorId',
  personColumn: 'requesterId',
  dateColumn: 'purchaseOrderDate',
  lineDocColumn: 'purchaseOrderId',
  partyLabel: 'Vendor',
  personLabel: 'Requester',
  partyPath: 'vendorId',
  personPath: 'requesterId',
  taxScope: 'purchase',
  taxScopeMessage: 'Purchase order lines take purchase taxes',
  numberOf: purchaseOrderNumber,
  displayIdKey: 'purchaseOrderId',
  partUom: 'purchaseUnitOfMeasureId',
  shapeRow: (r: BaseRow) => ({
    ...baseDto({ numberOf: purchaseOrderNumber, displayIdKey: 'purchaseOrderId' }, r),
    vendorId: r.partyId,
    requesterId: r.personId,
    requester: personDto(r),
    purchaseOrderDate: r.date.toISOString(),
  }),
});

export const listPurchaseOrders = (tx: Tx, orgId: number, query: PurchaseOrdersQuery) => purchaseOrderDocs.list(tx, orgId, query);
export const getPurchaseOrder = (tx: Tx, orgId: number, id: number) => purchaseOrderDocs.get(tx, orgId, id);
export const addPurchaseOrder = (tx: Tx, orgId: number, userId: number, input: PurchaseOrderInput, query: PurchaseOrdersQuery) =>
  purchaseOrderDocs.add(tx, orgId, userId, input as never, query);
export const updatePurchaseOrder = (tx: Tx, orgId: number, userId: number, id: number, input: PurchaseOrderInput, query: PurchaseOrdersQuery) =>
  purchaseOrderDocs.update(tx, orgId, userId, id, input as never, query);
export const deletePurchaseOrder = (tx: Tx, orgId: number, userId: number, id: number, query: PurchaseOrdersQuery) =>
  purchaseOrderDocs.remove(tx, orgId, userId, id, query);
export const updatePurchaseOrderStatus = (tx: Tx, orgId: number, userId: number, id: number, status: string) =>
  purchaseOrderDocs.setStatus(tx, orgId, userId, id, status);
export const listPurchaseOrderOptions = (tx: Tx, orgId: number, query: { pageSize: number; name?: string; title?: string }) =>
  purchaseOrderDocs.options(tx, orgId, query);

/** A purchase order as printed (the route renders it to PDF outside the transaction). */
export const printPurchaseOrder = (tx: Tx, orgId: number, id: number) =>
  printableDocument(
    tx,
    orgId,
    purchaseOrderDocs,
    {
      title: 'Purchase Order',
      number: purchaseOrderNumber,
      statusLabel: (s) => PURCHASE_ORDER_STATUS_LABELS[s as keyof typeof PURCHASE_ORDER_STATUS_LABELS] ?? s,
      partyLabel: 'Vendor',
      personLabel: 'Requester',
      dateLabel: 'Order date',
      expirationLabel: 'Expiration date',
    },
    id,
  );

export const listPurchaseOrderTaxOptions = (tx: Tx, orgId: number) => purchaseOrderDocs.taxOptions(tx, orgId);
