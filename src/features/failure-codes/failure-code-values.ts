/** The three levels of a failure code (decision 080). Browser-safe. */
export const FAILURE_CODE_KINDS = ['problem', 'cause', 'remedy'] as const;
export type FailureCodeKind = (typeof FAILURE_CODE_KINDS)[number];

/** Why a work order is on hold (decision 080). */
export const HOLD_REASONS = ['parts', 'vendor', 'access', 'shutdown', 'other'] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];
