import type { IssuedStepDto, ProcedureProgress, StepDto, StepKind } from './procedures.schema';

/**
 * A filled procedure's arithmetic, without zod (as work-order-values.ts): the work order drawer, the server and
 * the technician's My work (whose first load carries no validation library) count answers the same way.
 * Re-exported by procedures.schema.ts.
 */

/** Whether a stored answer fills the step (an unticked checkbox does not). */
export const isAnswered = (kind: StepKind, value: unknown) => kind !== 'heading' && value !== null && value !== undefined && value !== false;

/** Whether an answer is flagged: a failed or flagged pass/fail step, a number outside its allowed range. */
export function isFlagged(step: Pick<StepDto, 'kind' | 'min' | 'max'>, value: unknown): boolean {
  if (step.kind === 'pass-fail') return value === 'fail' || value === 'flag';
  if (step.kind === 'number' && typeof value === 'number') return (step.min !== null && value < step.min) || (step.max !== null && value > step.max);
  return false;
}

/** The progress of a filled procedure: "7 of 12", required steps still empty, flagged answers. */
export function progressOf(steps: Pick<IssuedStepDto, 'kind' | 'value' | 'required' | 'flagged'>[]): ProcedureProgress {
  const answerable = steps.filter((s) => s.kind !== 'heading');
  return {
    answered: answerable.filter((s) => isAnswered(s.kind, s.value)).length,
    total: answerable.length,
    requiredLeft: answerable.filter((s) => s.required && !isAnswered(s.kind, s.value)).length,
    flagged: answerable.filter((s) => s.flagged).length,
  };
}
