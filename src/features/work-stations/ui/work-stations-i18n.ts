import { registerTranslations } from '../../../web/i18n';
import { registerHistoryLabels } from '../../../web/components/history-labels';

registerTranslations('workStations', {
  en: {
    title: 'Work Stations',
    add: 'Add Work Station',
    filter: 'Filter Work Stations',
    newTitle: 'New Work Station',
    code: 'Code',
    name: 'Name',
    city: 'City',
    team: 'Team',
    createdAt: 'Created',
    delete: 'Delete Work Station',
    confirmDelete: 'Are you sure you want to delete this work station?',
    added: 'Work station added successfully',
    updated: 'Work station updated successfully',
    deleted: 'Work station deleted successfully',
    fetchFailed: 'Failed to fetch work stations',
    fetchOneFailed: 'Failed to fetch work station',
    addFailed: 'Failed to add work station',
    updateFailed: 'Failed to update work station',
    deleteFailed: 'Failed to delete work station',
  },
  ar: {
    title: 'محطات العمل',
    add: 'إضافة محطة عمل',
    filter: 'تصفية محطات العمل',
    newTitle: 'محطة عمل جديدة',
    code: 'الرمز',
    name: 'الاسم',
    city: 'المدينة',
    team: 'الفريق',
    createdAt: 'تاريخ الإنشاء',
    delete: 'حذف محطة العمل',
    confirmDelete: 'هل أنت متأكد أنك تريد حذف محطة العمل هذه؟',
    added: 'تمت إضافة محطة العمل بنجاح',
    updated: 'تم تحديث محطة العمل بنجاح',
    deleted: 'تم حذف محطة العمل بنجاح',
    fetchFailed: 'فشل جلب محطات العمل',
    fetchOneFailed: 'فشل جلب محطة العمل',
    addFailed: 'فشل إضافة محطة العمل',
    updateFailed: 'فشل تحديث محطة العمل',
    deleteFailed: 'فشل حذف محطة العمل',
  },
});

registerHistoryLabels('work-station', { namespace: 'workStations' });
