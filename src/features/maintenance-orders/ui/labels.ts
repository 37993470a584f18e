import { registerTranslations } from '../../../web/i18n';
import { ORDER_MESSAGES } from '../maintenance-orders.schema';

/** Strings of the maintenance order screens (namespace `maintenanceOrders`). */
registerTranslations('maintenanceOrders', {
  en: {
    title: 'Preventive Maintenance',
    add: 'Create Maintenance Order',
    filter: 'Filter Maintenance Orders',
    statusFilter: 'Status',
    newTitle: 'New Maintenance Order',
    overview: 'Overview',
    col: { id: 'PM-ID', status: 'Status', asset: 'Asset', scheduleDate: 'Schedule Date', dueDate: 'Due Date', request: 'Maintenance Request', type: 'Maintenance Type' },
    field: {
      request: 'Maintenance Request',
      maintenanceType: 'Maintenance Type',
      asset: 'Asset',
      services: 'Services',
      parts: 'Parts',
      scheduleDate: 'Schedule Date',
      dueDate: 'Due Date',
      completionDate: 'Completion Date',
      rootCauseAnalysis: 'Root Cause Analysis',
      status: 'Status',
    },
    status: { new: 'New', 'in-progress': 'In Progress', validate: 'Validate', cancel: 'Cancel' },
    type: { corrective: 'Corrective', preventive: 'Preventive', predictive: 'Predictive', emergency: 'Emergency', proactive: 'Proactive' },
    locked: ORDER_MESSAGES.locked,
    save: 'Save Changes',
    deleteButton: 'Delete',
    deleteConfirm: 'Are you sure you want to delete this maintenance order?',
    added: 'Maintenance order added successfully',
    updated: 'Maintenance order updated successfully',
    deleted: 'Maintenance order deleted successfully',
    statusUpdated: 'Maintenance order status updated successfully',
    failedFetch: 'Failed to fetch maintenance orders',
    failedFetchOne: 'Failed to fetch maintenance order',
    failedAdd: 'Failed to add maintenance order',
    failedUpdate: 'Failed to update maintenance order',
    failedDelete: 'Failed to delete maintenance order',
    failedStatus: 'Failed to update maintenance order status',
  },
  ar: {
    title: 'الصيانة الوقائية',
    add: 'إنشاء أمر صيانة',
    filter: 'تصفية أوامر الصيانة',
    statusFilter: 'الحالة',
    newTitle: 'أمر صيانة جديد',
    overview: 'نظرة عامة',
    col: { id: 'رقم الأمر', status: 'الحالة', asset: 'الأصل', scheduleDate: 'تاريخ الجدولة', dueDate: 'تاريخ الاستحقاق', request: 'طلب الصيانة', type: 'نوع الصيانة' },
    field: {
      request: 'طلب الصيانة',
      maintenanceType: 'نوع الصيانة',
      asset: 'الأصل',
      services: 'الخدمات',
      parts: 'القطع',
      scheduleDate: 'تاريخ الجدولة',
      dueDate: 'تاريخ الاستحقاق',
      completionDate: 'تاريخ الإنجاز',
      rootCauseAnalysis: 'تحليل السبب الجذري',
      status: 'الحالة',
    },
    status: { new: 'جديد', 'in-progress': 'قيد التنفيذ', validate: 'معتمد', cancel: 'ملغى' },
    type: { corrective: 'تصحيحية', preventive: 'وقائية', predictive: 'تنبؤية', emergency: 'طارئة', proactive: 'استباقية' },
    locked: 'تم اعتماد أمر الصيانة هذا ولم يعد من الممكن تغييره',
    save: 'حفظ التغييرات',
    deleteButton: 'حذف',
    deleteConfirm: 'هل أنت متأكد أنك تريد حذف أمر الصيانة هذا؟',
    added: 'تمت إضافة أمر الصيانة بنجاح',
    updated: 'تم تحديث أمر الصيانة بنجاح',
    deleted: 'تم حذف أمر الصيانة بنجاح',
    statusUpdated: 'تم تحديث حالة أمر الصيانة بنجاح',
    failedFetch: 'فشل جلب أوامر الصيانة',
    failedFetchOne: 'فشل جلب أمر الصيانة',
    failedAdd: 'فشل إضافة أمر الصيانة',
    failedUpdate: 'فشل تحديث أمر الصيانة',
    failedDelete: 'فشل حذف أمر الصيانة',
    failedStatus: 'فشل تحديث حالة أمر الصيانة',
  },
});

/** 'DD/MM/YYYY' of an ISO date by its UTC calendar day. */
export function formatDay(iso: string | null | undefined): string {
  if (!iso) return '';
  const [y, m, d] = iso.slice(0, 10).split('-');
  return `${d}/${m}/${y}`;
}

export const pickerDay = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : null);

/** Parses what a user types in a date box, 'DD/MM/YYYY' (the format shown), to 'YYYY-MM-DD'. */
export function parseDay(text: string): string | null {
  const m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text.trim());
  if (!m) return null;
  const iso = `${m[3]}-${m[2].padStart(2, '0')}-${m[1].padStart(2, '0')}`;
  return Number.isNaN(new Date(iso).getTime()) ? null : iso;
}
