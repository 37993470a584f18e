import { registerTranslations } from '../../../web/i18n';

/** Strings of the calendar screen (namespace `calendar`). */
registerTranslations('calendar', {
  en: {
    title: 'Calendar',
    filter: { asset: 'Asset', team: 'Team', assignee: 'Assignee', any: 'Any' },
    legend: {
      workOrder: 'Work order',
      maintenanceOrder: 'Maintenance order',
      planned: 'Planned (not created yet)',
      overdue: 'Overdue',
      closed: 'Closed',
    },
    kind: { 'work-order': 'Work order', 'maintenance-order': 'Maintenance order', planned: 'Planned' },
    overdue: 'Overdue',
    empty: 'Nothing is due in this period',
    emptyHint: 'Work orders show on their due date (or start date), maintenance orders on their due date.',
    truncated: 'Only the first entries of this period are shown: narrow the filters to see the rest.',
    loadFailed: 'Failed to load the calendar',
    retry: 'Retry',
    dragHint: 'Drag a work or maintenance order to another day to reschedule it.',
    toast: {
      moved: 'Rescheduled to {{day}}',
      failed: 'Failed to reschedule',
      stale: 'Someone else changed this order: the calendar has been refreshed. Try again.',
    },
  },
  ar: {
    title: 'التقويم',
    filter: { asset: 'الأصل', team: 'الفريق', assignee: 'المكلَّف', any: 'الكل' },
    legend: {
      workOrder: 'أمر عمل',
      maintenanceOrder: 'أمر صيانة',
      planned: 'مخطط (لم يُنشأ بعد)',
      overdue: 'متأخر',
      closed: 'مغلق',
    },
    kind: { 'work-order': 'أمر عمل', 'maintenance-order': 'أمر صيانة', planned: 'مخطط' },
    overdue: 'متأخر',
    empty: 'لا شيء مستحق في هذه الفترة',
    emptyHint: 'تظهر أوامر العمل في تاريخ استحقاقها (أو تاريخ بدئها)، وأوامر الصيانة في تاريخ استحقاقها.',
    truncated: 'تظهر أولى مدخلات هذه الفترة فقط: ضيّق عوامل التصفية لرؤية الباقي.',
    loadFailed: 'تعذر تحميل التقويم',
    retry: 'إعادة المحاولة',
    dragHint: 'اسحب أمر عمل أو أمر صيانة إلى يوم آخر لإعادة جدولته.',
    toast: {
      moved: 'أعيدت الجدولة إلى {{day}}',
      failed: 'تعذرت إعادة الجدولة',
      stale: 'غيّر شخص آخر هذا الأمر: تم تحديث التقويم. حاول مرة أخرى.',
    },
  },
});
