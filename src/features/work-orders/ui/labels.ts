import { registerTranslations } from '../../../web/i18n';
import { registerHistoryLabels } from '../../../web/components/history-labels';
import { formatDateTime } from '../../../web/lib/format';

registerTranslations('workOrders', {
  en: {
    title: 'Work Orders',
    add: 'Create Work Order',
    filter: 'Filter Work Orders',
    statusFilter: 'Status',
    newTitle: 'New Work Order',
    col: { id: 'WO-ID', status: 'Status', title: 'Title', priority: 'Priority', dueDate: 'Due Date', assignees: 'Assignee', asset: 'Asset', createdAt: 'Created' },
    status: { assigned: 'Open', 'in-progress': 'In Progress', completed: 'Closed', cancelled: 'Cancelled' },
    priority: { lowest: 'Lowest', low: 'Low', medium: 'Medium', high: 'High', critical: 'Critical' },
    stats: { heading: 'Statistics', totalPending: 'Total Pending Work Orders', dueNext7Days: 'Due in Next 7 Days', highPriorityPending: 'High Priority Pending' },
    tabs: { overview: 'Overview', operations: 'Operations', labor: 'Labor', parts: 'Parts' },
    field: {
      title: 'Work Order Title',
      duration: 'Expected Duration (HH:MM)',
      startDate: 'Start Time',
      endDate: 'End Time',
      dueDate: 'Due Date',
      priority: 'Priority',
      asset: 'Asset',
      assignees: 'Assignees',
      instructions: 'Instructions',
      status: 'Status',
    },
    operationsEmpty: 'No instructions yet',
    operationsEmptyHint: 'Describe the steps, safety notes and checks for this work order.',
    labor: {
      add: 'Add Time',
      dialogTitle: 'Add Time',
      start: 'Start Time',
      end: 'End Time',
      reason: 'Reason',
      worker: 'Worker',
      timeSpent: 'Time Spent',
      empty: 'No time logged yet',
      total: 'Total labour',
      save: 'Add',
      confirmDelete: 'Are you sure you want to delete this time entry?',
    },
    parts: {
      add: 'Add Part',
      pick: 'Select a part',
      quantity: 'Quantity',
      name: 'Part',
      price: 'Sales Price',
      lineTotal: 'Total',
      empty: 'No parts used yet',
      total: 'Parts cost',
      confirmDelete: 'Are you sure you want to remove this part?',
    },
    actions: { save: 'Save Changes', delete: 'Delete WO', cancel: 'Cancel', share: 'Share with a contractor' },
    confirmDelete: 'Are you sure you want to delete this work order?',
    toast: {
      added: 'Work order added successfully',
      updated: 'Work order updated successfully',
      deleted: 'Work order deleted successfully',
      statusUpdated: 'Work order status updated successfully',
      laborAdded: 'Work order labor added successfully',
      laborDeleted: 'Work order labor deleted successfully',
      partAdded: 'Work order part added successfully',
      partDeleted: 'Work order part deleted successfully',
      failedFetchAll: 'Failed to fetch work orders',
      failedFetch: 'Failed to fetch work order',
      failedAdd: 'Failed to add work order',
      failedUpdate: 'Failed to update work order',
      failedDelete: 'Failed to delete work order',
      failedStatus: 'Failed to update work order status',
      failedLabors: 'Failed to fetch work order labors',
      failedAddLabor: 'Failed to add work order labor',
      failedDeleteLabor: 'Failed to delete work order labor',
      failedParts: 'Failed to fetch work order parts',
      failedAddPart: 'Failed to add work order part',
      failedDeletePart: 'Failed to delete work order part',
    },
    unassigned: 'Unassigned',
  },
  ar: {
    title: 'أوامر العمل',
    add: 'إنشاء أمر عمل',
    filter: 'تصفية أوامر العمل',
    statusFilter: 'الحالة',
    newTitle: 'أمر عمل جديد',
    col: { id: 'رقم أمر العمل', status: 'الحالة', title: 'العنوان', priority: 'الأولوية', dueDate: 'تاريخ الاستحقاق', assignees: 'المكلف', asset: 'الأصل', createdAt: 'تاريخ الإنشاء' },
    status: { assigned: 'مفتوح', 'in-progress': 'قيد التنفيذ', completed: 'مغلق', cancelled: 'ملغى' },
    priority: { lowest: 'الأدنى', low: 'منخفضة', medium: 'متوسطة', high: 'عالية', critical: 'حرجة' },
    stats: { heading: 'إحصائيات', totalPending: 'إجمالي أوامر العمل المعلقة', dueNext7Days: 'مستحقة خلال 7 أيام', highPriorityPending: 'معلقة عالية الأولوية' },
    tabs: { overview: 'نظرة عامة', operations: 'العمليات', labor: 'العمل', parts: 'القطع' },
    field: {
      title: 'عنوان أمر العمل',
      duration: 'المدة المتوقعة (س:د)',
      startDate: 'وقت البدء',
      endDate: 'وقت الانتهاء',
      dueDate: 'تاريخ الاستحقاق',
      priority: 'الأولوية',
      asset: 'الأصل',
      assignees: 'المكلفون',
      instructions: 'التعليمات',
      status: 'الحالة',
    },
    operationsEmpty: 'لا توجد تعليمات بعد',
    operationsEmptyHint: 'صف الخطوات وملاحظات السلامة والفحوصات لأمر العمل هذا.',
    labor: {
      add: 'إضافة وقت',
      dialogTitle: 'إضافة وقت',
      start: 'وقت البدء',
      end: 'وقت الانتهاء',
      reason: 'السبب',
      worker: 'العامل',
      timeSpent: 'الوقت المستغرق',
      empty: 'لم يسجل أي وقت بعد',
      total: 'إجمالي العمل',
      save: 'إضافة',
      confirmDelete: 'هل أنت متأكد من حذف هذا السجل الزمني؟',
    },
    parts: {
      add: 'إضافة قطعة',
      pick: 'اختر قطعة',
      quantity: 'الكمية',
      name: 'القطعة',
      price: 'سعر البيع',
      lineTotal: 'الإجمالي',
      empty: 'لم تستخدم أي قطع بعد',
      total: 'تكلفة القطع',
      confirmDelete: 'هل أنت متأكد من إزالة هذه القطعة؟',
    },
    actions: { save: 'حفظ التغييرات', delete: 'حذف أمر العمل', cancel: 'إلغاء', share: 'مشاركة مع مقاول' },
    confirmDelete: 'هل أنت متأكد من حذف أمر العمل هذا؟',
    toast: {
      added: 'تمت إضافة أمر العمل بنجاح',
      updated: 'تم تحديث أمر العمل بنجاح',
      deleted: 'تم حذف أمر العمل بنجاح',
      statusUpdated: 'تم تحديث حالة أمر العمل بنجاح',
      laborAdded: 'تمت إضافة وقت العمل بنجاح',
      laborDeleted: 'تم حذف وقت العمل بنجاح',
      partAdded: 'تمت إضافة القطعة بنجاح',
      partDeleted: 'تم حذف القطعة بنجاح',
      failedFetchAll: 'تعذر جلب أوامر العمل',
      failedFetch: 'تعذر جلب أمر العمل',
      failedAdd: 'تعذرت إضافة أمر العمل',
      failedUpdate: 'تعذر تحديث أمر العمل',
      failedDelete: 'تعذر حذف أمر العمل',
      failedStatus: 'تعذر تحديث حالة أمر العمل',
      failedLabors: 'تعذر جلب أوقات العمل',
      failedAddLabor: 'تعذرت إضافة وقت العمل',
      failedDeleteLabor: 'تعذر حذف وقت العمل',
      failedParts: 'تعذر جلب القطع',
      failedAddPart: 'تعذرت إضافة القطعة',
      failedDeletePart: 'تعذر حذف القطعة',
    },
    unassigned: 'غير مكلف',
  },
});

export const STATUS_COLORS: Record<string, string> = { assigned: 'blue', 'in-progress': 'yellow', completed: 'teal', cancelled: 'gray' };
export const PRIORITY_COLORS: Record<string, string> = { lowest: 'gray', low: 'blue', medium: 'yellow', high: 'orange', critical: 'red' };

/** Spec: dates shown as MM/dd/yyyy hh:mm aa (the date pickers' format; formatDateTime writes the same). */
export const DATE_TIME_FORMAT = 'MM/DD/YYYY hh:mm A';
export { formatDateTime };

/** Minutes between two instants as "2h 30m". */
export function formatSpent(minutes: number) {
  const m = Math.max(0, Math.round(minutes));
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}
export const minutesBetween = (start: string, end: string) => (new Date(end).getTime() - new Date(start).getTime()) / 60_000;

/** 12-hour time picker with 5-minute steps (spec section 9). */
export const TIME_PICKER_PROPS = { format: '12h' as const, minutesStep: 5, withDropdown: true };

registerHistoryLabels('work-order', { namespace: 'workOrders', values: { status: 'status', priority: 'priority' } });
