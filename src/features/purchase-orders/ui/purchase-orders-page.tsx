import { DocumentsList } from '../../commercial-documents/ui/documents-list';
import { PURCHASE_ORDER_UI } from './purchase-order-strings';

/** /dashboard/purchase-orders: the list (name and status filters, 500 ms) and the purchase order drawer. */
export default function PurchaseOrdersPage() {
  return <DocumentsList kind={PURCHASE_ORDER_UI} />;
}
