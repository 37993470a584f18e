import { commercialDocumentRoutes } from '../commercial-documents/commercial-documents.routes';
import { PURCHASE_ORDER_KIND, PURCHASE_ORDER_SCHEMAS, purchaseOrderDtoSchema } from './purchase-orders.schema';
import { purchaseOrderDocs } from './purchase-orders.service';

/** Purchase orders (prefix /api/purchase-orders): get-purchase-orders, add-purchase-order, … Everyone signed in prepares them; managers delete. */
export const purchaseOrdersRoutes = commercialDocumentRoutes(
  PURCHASE_ORDER_KIND,
  { ...PURCHASE_ORDER_SCHEMAS, dto: purchaseOrderDtoSchema },
  purchaseOrderDocs,
);
