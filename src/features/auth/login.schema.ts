import * as z from 'zod/mini';
import '../../shared/zod-messages';
import { EMAIL_PATTERN } from '../../shared/email-pattern';
import { PASSWORD_MAX, PASSWORD_MESSAGES, PASSWORD_MIN } from '../../shared/password-rule';

/**
 * POST /api/login and the login screen. Written with zod/mini (the same rules and messages as emailField in
 * shared/validation.ts) because the login screen is the smallest page of the product: the classic API alone
 * is about 23 KB of gzipped JavaScript, zod/mini about 5 KB (issue 9).
 */
export const loginSchema = z.strictObject({
  email: z
    .string({ error: 'Email is required' })
    .check(
      z.trim(),
      z.minLength(1, 'Email is required'),
      z.maxLength(254, 'Invalid email address'),
      z.regex(EMAIL_PATTERN, 'Invalid email address'),
      z.toLowerCase(),
    ),
  // the sign-up's rule (passwordField): a shorter password cannot exist, so it is refused before any lookup
  password: z
    .string({ error: PASSWORD_MESSAGES.required })
    .check(z.minLength(1, PASSWORD_MESSAGES.required), z.minLength(PASSWORD_MIN, PASSWORD_MESSAGES.min), z.maxLength(PASSWORD_MAX, PASSWORD_MESSAGES.max)),
});
export type LoginInput = z.infer<typeof loginSchema>;
