import { z } from './zod-setup';
import { EMAIL_PATTERN } from './email-pattern';

export { EMAIL_PATTERN };

/** A required text: missing, empty or blank all give `message`. */
export const requiredString = (message: string) => z.string({ error: message }).trim().min(1, message);

/** An optional text: empty strings become undefined so "cleared" and "absent" mean the same. */
export const optionalString = (max = 500) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().trim().max(max, `Must be at most ${max} characters`).optional());

export const emailField = (required = 'Email is required', invalid = 'Invalid email address') =>
  requiredString(required)
    .max(254, invalid)
    .regex(EMAIL_PATTERN, invalid)
    .transform((s) => s.toLowerCase());

/** 10 to 15 digits with an optional leading plus. */
export const PHONE_PATTERN = /^\+?\d{10,15}$/;

/** A positive integer id from a select (numbers or numeric strings). */
export const idField = (message: string) => z.coerce.number({ error: message }).int(message).min(1, message).max(2147483647, message);

/** An optional id filter: empty, null and 0 mean "none" (a cleared select in a URL). */
export const optionalIdField = (message: string) =>
  z.preprocess((v) => (v === '' || v === null || v === 0 || v === '0' ? undefined : v), idField(message).optional());

/**
 * Options of an object-level refine that runs even when some fields failed (so a form shows every message
 * at once), but only on an object: a null or non-object body must stay a 400, not throw in the refine.
 */
export const evenWhenFieldsFail = { when: (p: { value: unknown }) => typeof p.value === 'object' && p.value !== null && !Array.isArray(p.value) };
