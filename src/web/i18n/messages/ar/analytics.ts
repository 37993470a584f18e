import type { MessageCatalog } from '../translate-message';

/**
 * Arabic (decision 065) of the insights figures and the scheduled insights reports: keyed by the English text
 * exactly as sent.
 */
export const arAnalytics: MessageCatalog = {
  'A custom range needs From and To': 'النطاق المخصص يحتاج إلى "من" و"إلى"',
  'Asset category is invalid': 'فئة الأصول غير صالحة',
  'Asset is invalid': 'الأصل غير صالح',
  'Assignee is invalid': 'المكلَّف غير صالح',
  'Range must be one of 7d, 30d, quarter, year, custom': 'يجب أن يكون النطاق أحد: 7 أيام، 30 يومًا، ربع سنة، سنة، مخصص',
  'Team is invalid': 'الفريق غير صالح',
  'Work station is invalid': 'محطة العمل غير صالحة',
  '{{label}} must be a valid date': 'يجب أن يكون {{label}} تاريخًا صالحًا',
  'Format must be pdf or html': 'يجب أن تكون الصيغة pdf أو html',
  'Frequency must be weekly or monthly': 'يجب أن يكون التكرار أسبوعيًا أو شهريًا',
  'Recipients must be managers of the organisation': 'يجب أن يكون المستلمون مدراء في المؤسسة',
  'Report deleted': 'تم حذف التقرير',
  'Report scheduled': 'تمت جدولة التقرير',
  'Report updated': 'تم تحديث التقرير',
  'Weekly insights summary': 'ملخص المؤشرات الأسبوعي',
  'Monthly insights summary': 'ملخص المؤشرات الشهري',
  'The summary is attached as a PDF.': 'الملخص مرفق بصيغة PDF.',
  'Open work orders (now)': 'أوامر العمل المفتوحة (الآن)',
  'Overdue work orders (now)': 'أوامر العمل المتأخرة (الآن)',
  'Work orders created': 'أوامر العمل المنشأة',
  'Work orders completed': 'أوامر العمل المنجزة',
  'Mean time to repair (hours)': 'متوسط زمن الإصلاح (ساعات)',
  'Planned share of work orders': 'نسبة العمل المخطط',
  'PM compliance': 'الالتزام بالصيانة الوقائية',
  'Maintenance cost': 'تكلفة الصيانة',
};
