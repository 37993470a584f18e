import { registerTranslations } from '../../../web/i18n';

/** Status badge colours of the list. */
export const STATUS_COLORS: Record<string, string> = {
  draft: 'gray',
  sendForApproval: 'yellow',
  quotation: 'blue',
  quotationSent: 'cyan',
  salesOrder: 'green',
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

registerTranslations('quotations', {
  en: {
    title: 'Quotations',
    add: 'Generate Quotation',
    filter: 'Filter Quotations',
    statusFilter: 'Status',
    col: { number: 'Quotation Number', customer: 'Customer Name', status: 'Status', total: 'Total', expirationDate: 'Expiration Date', salesperson: 'Salesperson Name' },
    status: { draft: 'Draft', sendForApproval: 'Send For Approval', quotation: 'Quotation', quotationSent: 'Quotation Sent', salesOrder: 'Sales Order' },
    newQuotation: 'New Quotation',
    customer: 'Customer',
    salesPerson: 'Sales Person',
    quotationDate: 'Quotation Date',
    expirationDate: 'Expiration Date',
    note: 'Note',
    services: 'Services',
    parts: 'Parts',
    service: 'Service',
    part: 'Part',
    summary: 'Quotation Summary',
    attachments: 'Attachments',
    noAttachments: 'No attachments yet',
    chooseFiles: 'Add attachments (PDF, JPEG, PNG, WebP)',
    uploadFailed: 'Failed to upload attachments',
    print: 'Print PDF',
    printFailed: 'Failed to open the PDF',
    save: 'Save Changes',
    delete: 'Delete',
    deleteConfirm: 'Are you sure you want to delete this quotation?',
    added: 'Quotation added successfully',
    updated: 'Quotation updated successfully',
    deleted: 'Quotation deleted successfully',
    statusUpdated: 'Quotation status updated successfully',
    failedFetch: 'Failed to fetch quotation',
    failedFetchAll: 'Failed to fetch quotations',
    failedAdd: 'Failed to add quotation',
    failedUpdate: 'Failed to update quotation',
    failedDelete: 'Failed to delete quotation',
    failedStatus: 'Failed to update Quotation Status',
  },
  ar: {
    title: 'عروض الأسعار',
    add: 'إنشاء عرض سعر',
    filter: 'تصفية عروض الأسعار',
    statusFilter: 'الحالة',
    col: { number: 'رقم العرض', customer: 'اسم العميل', status: 'الحالة', total: 'الإجمالي', expirationDate: 'تاريخ الانتهاء', salesperson: 'مندوب المبيعات' },
    status: { draft: 'مسودة', sendForApproval: 'إرسال للموافقة', quotation: 'عرض سعر', quotationSent: 'تم إرسال العرض', salesOrder: 'أمر بيع' },
    newQuotation: 'عرض سعر جديد',
    customer: 'العميل',
    salesPerson: 'مندوب المبيعات',
    quotationDate: 'تاريخ العرض',
    expirationDate: 'تاريخ الانتهاء',
    note: 'ملاحظة',
    services: 'الخدمات',
    parts: 'القطع',
    service: 'الخدمة',
    part: 'القطعة',
    summary: 'ملخص العرض',
    attachments: 'المرفقات',
    noAttachments: 'لا توجد مرفقات بعد',
    chooseFiles: 'إضافة مرفقات (PDF، JPEG، PNG، WebP)',
    uploadFailed: 'فشل رفع المرفقات',
    print: 'طباعة PDF',
    printFailed: 'فشل فتح ملف PDF',
    save: 'حفظ التغييرات',
    delete: 'حذف',
    deleteConfirm: 'هل أنت متأكد من حذف عرض السعر هذا؟',
    added: 'تمت إضافة عرض السعر بنجاح',
    updated: 'تم تحديث عرض السعر بنجاح',
    deleted: 'تم حذف عرض السعر بنجاح',
    statusUpdated: 'تم تحديث حالة عرض السعر بنجاح',
    failedFetch: 'فشل جلب عرض السعر',
    failedFetchAll: 'فشل جلب عروض الأسعار',
    failedAdd: 'فشل إضافة عرض السعر',
    failedUpdate: 'فشل تحديث عرض السعر',
    failedDelete: 'فشل حذف عرض السعر',
    failedStatus: 'فشل تحديث حالة عرض السعر',
  },
});
