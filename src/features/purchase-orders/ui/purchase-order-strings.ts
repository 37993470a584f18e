import { registerTranslations } from '../../../web/i18n';

/** Status badge colours of the list. */
export const STATUS_COLORS: Record<string, string> = {
  draft: 'gray',
  sendForApproval: 'yellow',
  purchaseSent: 'cyan',
  purchaseOrder: 'green',
};

/** dd/MM/yyyy of an ISO date (empty for none). */
export function formatDay(iso: string | null | undefined) {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
}

/** 'YYYY-MM-DD' of an ISO date, for a date input. */
export const dayValue = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : '');

registerTranslations('purchaseOrders', {
  en: {
    title: 'Purchase Orders',
    add: 'Generate Purchase Order',
    filter: 'Filter Purchase Orders',
    statusFilter: 'Status',
    col: { number: 'PO Number', vendor: 'Vendor Name', status: 'Status', total: 'Total', createdAt: 'Creation Date', requester: 'Requester Name' },
    status: { draft: 'Draft', sendForApproval: 'Send For Approval', purchaseSent: 'Purchase Order Sent', purchaseOrder: 'Purchase Order' },
    newPurchaseOrder: 'New Purchase Order',
    vendor: 'Vendor',
    requester: 'Requester',
    purchaseOrderDate: 'Purchase Order Date',
    expirationDate: 'Expiration Date',
    note: 'Note',
    services: 'Services',
    parts: 'Parts',
    service: 'Service',
    part: 'Part',
    summary: 'Purchase Summary',
    attachments: 'Attachments',
    noAttachments: 'No attachments yet',
    chooseFiles: 'Add attachments (PDF, JPEG, PNG, WebP)',
    uploadFailed: 'Failed to upload attachments',
    print: 'Print PDF',
    printFailed: 'Failed to open the PDF',
    save: 'Save Changes',
    delete: 'Delete',
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
    statusFilter: 'الحالة',
    col: { number: 'رقم أمر الشراء', vendor: 'اسم المورد', status: 'الحالة', total: 'الإجمالي', createdAt: 'تاريخ الإنشاء', requester: 'مقدم الطلب' },
    status: { draft: 'مسودة', sendForApproval: 'إرسال للموافقة', purchaseSent: 'تم إرسال أمر الشراء', purchaseOrder: 'أمر شراء' },
    newPurchaseOrder: 'أمر شراء جديد',
    vendor: 'المورد',
    requester: 'مقدم الطلب',
    purchaseOrderDate: 'تاريخ أمر الشراء',
    expirationDate: 'تاريخ الانتهاء',
    note: 'ملاحظة',
    services: 'الخدمات',
    parts: 'القطع',
    service: 'الخدمة',
    part: 'القطعة',
    summary: 'ملخص الشراء',
    attachments: 'المرفقات',
    noAttachments: 'لا توجد مرفقات بعد',
    chooseFiles: 'إضافة مرفقات (PDF، JPEG، PNG، WebP)',
    uploadFailed: 'فشل رفع المرفقات',
    print: 'طباعة PDF',
    printFailed: 'فشل فتح ملف PDF',
    save: 'حفظ التغييرات',
    delete: 'حذف',
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
