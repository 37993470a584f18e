import { registerDocumentTranslations, type DocumentUiKind } from '../../commercial-documents/ui/document-strings';
import { registerHistoryLabels } from '../../../web/components/history-labels';
import { PURCHASE_ORDER_KIND, PURCHASE_ORDER_SCHEMAS, PURCHASE_ORDER_STATUSES } from '../purchase-orders.schema';

/** Purchase orders in the shared list and drawer (test ids po-…). */
export const PURCHASE_ORDER_UI: DocumentUiKind = {
  api: PURCHASE_ORDER_KIND,
  ns: 'purchaseOrders',
  testId: 'po',
  statuses: PURCHASE_ORDER_STATUSES,
  statusColors: {
    draft: 'gray',
    sendForApproval: 'yellow',
    purchaseSent: 'cyan',
    purchaseOrder: 'green',
  },
  inputSchema: PURCHASE_ORDER_SCHEMAS.input,
  party: { field: 'vendorId', type: 'vendor', testId: 'vendor' },
  person: { field: 'requesterId', label: 'requester', testId: 'requester', dto: 'requester' },
  dateField: 'purchaseOrderDate',
  expirationRequired: false,
  listDate: 'createdAt',
  listFilter: 'name',
  newLabel: 'newPurchaseOrder',
};

registerDocumentTranslations('purchaseOrders', {
  en: {
    title: 'Purchase Orders',
    add: 'Generate Purchase Order',
    filter: 'Filter Purchase Orders',
    col: { number: 'PO Number', vendor: 'Vendor Name', createdAt: 'Creation Date', requester: 'Requester Name' },
    status: { purchaseSent: 'Purchase Order Sent', purchaseOrder: 'Purchase Order' },
    newPurchaseOrder: 'New Purchase Order',
    vendor: 'Vendor',
    requester: 'Requester',
    purchaseOrderDate: 'Purchase Order Date',
    summary: 'Purchase Summary',
    deleteConfirm: 'Are you sure you want to delete this purchase order?',
    added: 'Purchase order added successfully',
    updated: 'Purchase order updated successfully',
    deleted: 'Purchase order deleted successfully',
    statusUpdated: 'Purchase order status updated successfully',
    failedFetch: 'Failed to fetch purchase order',
    failedFetchAll: 'Failed to fetch purchase orders',
    failedAdd: 'Failed to add purchase order',
    failedUpdate: 'Failed to update purchase order',
    failedDelete: 'Failed to delete purchase order',
    failedStatus: 'Failed to update purchase order status',
  },
  ar: {
    title: 'أوامر الشراء',
    add: 'إنشاء أمر شراء',
    filter: 'تصفية أوامر الشراء',
    col: { number: 'رقم أمر الشراء', vendor: 'اسم المورد', createdAt: 'تاريخ الإنشاء', requester: 'مقدم الطلب' },
    status: { purchaseSent: 'تم إرسال أمر الشراء', purchaseOrder: 'أمر شراء' },
    newPurchaseOrder: 'أمر شراء جديد',
    vendor: 'المورد',
    requester: 'مقدم الطلب',
    purchaseOrderDate: 'تاريخ أمر الشراء',
    summary: 'ملخص الشراء',
    deleteConfirm: 'هل أنت متأكد من حذف أمر الشراء هذا؟',
    added: 'تمت إضافة أمر الشراء بنجاح',
    updated: 'تم تحديث أمر الشراء بنجاح',
    deleted: 'تم حذف أمر الشراء بنجاح',
    statusUpdated: 'تم تحديث حالة أمر الشراء بنجاح',
    failedFetch: 'فشل جلب أمر الشراء',
    failedFetchAll: 'فشل جلب أوامر الشراء',
    failedAdd: 'فشل إضافة أمر الشراء',
    failedUpdate: 'فشل تحديث أمر الشراء',
    failedDelete: 'فشل حذف أمر الشراء',
    failedStatus: 'فشل تحديث حالة أمر الشراء',
  },
});

registerHistoryLabels('purchase-order', { namespace: 'purchaseOrders', values: { status: 'status' } });
