/**
 * Work-order vocabularies, without zod: the list page needs them on its first paint, and importing the
 * schema file for two constants would put the validation library into the shell's bundle (issue 9 budget).
 */

/** Canonical statuses (DESIGN 8): assigned (Open), in-progress, completed (Closed), cancelled. */
export const WORK_ORDER_STATUSES = ['assigned', 'in-progress', 'completed', 'cancelled'] as const;
export type WorkOrderStatus = (typeof WORK_ORDER_STATUSES)[number];
export const WORK_ORDER_PRIORITIES = ['lowest', 'low', 'medium', 'high', 'critical'] as const;
export type WorkOrderPriority = (typeof WORK_ORDER_PRIORITIES)[number];

/**
 * The statuses' and priorities' names on screen, English and Arabic: the work-orders screens and the
 * technician's app (my-work) register them in their namespaces, so the two never drift apart.
 */
export const WORK_ORDER_STATUS_LABELS: Record<'en' | 'ar', Record<WorkOrderStatus, string>> = {
  en: { assigned: 'Open', 'in-progress': 'In Progress', completed: 'Closed', cancelled: 'Cancelled' },
  ar: { assigned: 'مفتوح', 'in-progress': 'قيد التنفيذ', completed: 'مغلق', cancelled: 'ملغى' },
};
export const WORK_ORDER_PRIORITY_LABELS: Record<'en' | 'ar', Record<WorkOrderPriority, string>> = {
  en: { lowest: 'Lowest', low: 'Low', medium: 'Medium', high: 'High', critical: 'Critical' },
  ar: { lowest: 'الأدنى', low: 'منخفضة', medium: 'متوسطة', high: 'عالية', critical: 'حرجة' },
};
