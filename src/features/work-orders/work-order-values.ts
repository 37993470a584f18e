/**
 * Work-order vocabularies, without zod: the list page needs them on its first paint, and importing the
 * schema file for two constants would put the validation library into the shell's bundle (issue 9 budget).
 */

/** Canonical statuses (DESIGN 8): assigned (Open), in-progress, completed (Closed), cancelled. */
export const WORK_ORDER_STATUSES = ['assigned', 'in-progress', 'completed', 'cancelled'] as const;
export type WorkOrderStatus = (typeof WORK_ORDER_STATUSES)[number];
export const WORK_ORDER_PRIORITIES = ['lowest', 'low', 'medium', 'high', 'critical'] as const;
export type WorkOrderPriority = (typeof WORK_ORDER_PRIORITIES)[number];
