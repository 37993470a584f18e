import { z } from './zod-setup';
import { numberFrom } from './reference-fields';

// Pieces several areas' contracts share in their logic: a required quantity with its own rule, the sign-in token answer.

/**
 * A required quantity (3 decimals), given as a number or a numeric string (forms send strings), that `allowed` accepts:
 * missing gives `required`, text or a number past 99,999,999,999 `invalid`, a value `allowed` refuses `refused`.
 */
export const requiredQuantityField = (m: { required: string; invalid: string; refused: string }, allowed: (n: number) => boolean) =>
  z.any().transform((v, ctx): number => {
    const n = numberFrom(v);
    const message =
      v === undefined || v === null || v === '' ? m.required : !Number.isFinite(n) || Math.abs(n) > 99_999_999_999 ? m.invalid : allowed(n) ? null : m.refused;
    if (message) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return Math.round(n * 1000) / 1000;
  });

/** The answer of a sign-in that is complete: the spec's `{ accessToken }`. */
export const tokenAnswerSchema = z.object({ accessToken: z.string() });
