import { purchaseOrderLines, purchaseOrders } from '../../server/db/schema';
import { baseDto, documentService, personDto, type BaseRow } from '../commercial-documents/commercial-documents.service';
import { PURCHASE_ORDER_KIND, PURCHASE_ORDER_MESSAGES, PURCHASE_ORDER_STATUS_LABELS, purchaseOrderNumber } from './purchase-orders.schema';

/** Purchase orders: vendor, requester, order date; lines take purchase taxes. */
export const purchaseOrderDocs = documentService({
  ...PURCHASE_ORDER_KIND,
  webhook: { status: 'purchaseOrder', event: 'purchase-order.confirmed' },
  approval: { status: 'sendForApproval', kind: 'purchase-order-approval' },
  label: 'Purchase order',
  table: purchaseOrders,
  lines: purchaseOrderLines,
  partyColumn: 'vendorId',
  personColumn: 'requesterId',
  dateColumn: 'purchaseOrderDate',
  lineDocColumn: 'purchaseOrderId',
  partyLabel: 'Vendor',
  personLabel: 'Requester',
  partyPath: 'vendorId',
  partyType: 'vendor',
  partyTypeMessage: PURCHASE_ORDER_MESSAGES.vendorType,
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
  print: {
    title: 'Purchase Order',
    statusLabel: (s) => PURCHASE_ORDER_STATUS_LABELS[s as keyof typeof PURCHASE_ORDER_STATUS_LABELS] ?? s,
    partyLabel: 'Vendor',
    personLabel: 'Requester',
    dateLabel: 'Order date',
    expirationLabel: 'Expiration date',
  },
});
