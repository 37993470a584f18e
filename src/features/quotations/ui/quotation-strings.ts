import { registerDocumentTranslations, type DocumentUiKind } from '../../commercial-documents/ui/document-strings';
import { registerHistoryLabels } from '../../../web/components/history-labels';
import { QUOTATION_KIND, QUOTATION_SCHEMAS, QUOTATION_STATUSES } from '../quotations.schema';

/** Quotations in the shared list and drawer (test ids q-…). */
export const QUOTATION_UI: DocumentUiKind = {
  api: QUOTATION_KIND,
  ns: 'quotations',
  testId: 'q',
  statuses: QUOTATION_STATUSES,
  statusColors: {
    draft: 'gray',
    sendForApproval: 'yellow',
    quotation: 'blue',
    quotationSent: 'cyan',
    salesOrder: 'green',
  },
  inputSchema: QUOTATION_SCHEMAS.input,
  party: { field: 'customerId', type: 'customer', testId: 'customer' },
  person: { field: 'salesPersonId', label: 'salesPerson', testId: 'salesperson', dto: 'salesperson' },
  dateField: 'quotationDate',
  expirationRequired: true,
  listDate: 'expirationDate',
  listFilter: 'title',
  newLabel: 'newQuotation',
};

registerDocumentTranslations('quotations', {
  en: {
    title: 'Quotations',
    add: 'Generate Quotation',
    filter: 'Filter Quotations',
    col: { number: 'Quotation Number', customer: 'Customer Name', expirationDate: 'Expiration Date', salesperson: 'Salesperson Name' },
    status: { quotation: 'Quotation', quotationSent: 'Quotation Sent', salesOrder: 'Sales Order' },
    newQuotation: 'New Quotation',
    customer: 'Customer',
    salesPerson: 'Sales Person',
    quotationDate: 'Quotation Date',
    summary: 'Quotation Summary',
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
    col: { number: 'رقم العرض', customer: 'اسم العميل', expirationDate: 'تاريخ الانتهاء', salesperson: 'مندوب المبيعات' },
    status: { quotation: 'عرض سعر', quotationSent: 'تم إرسال العرض', salesOrder: 'أمر بيع' },
    newQuotation: 'عرض سعر جديد',
    customer: 'العميل',
    salesPerson: 'مندوب المبيعات',
    quotationDate: 'تاريخ العرض',
    summary: 'ملخص العرض',
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

registerHistoryLabels('quotation', { namespace: 'quotations', values: { status: 'status' } });
