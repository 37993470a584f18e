import * as z from 'zod/mini';
import '../../shared/zod-messages';
import { EMAIL_PATTERN } from '../../shared/email-pattern';

/**
 * POST /api/login and the login screen. Written with zod/mini (the same rules and messages as emailField in
 * shared/validation.ts) because the login screen is the smallest page of the product: the classic API alone
 * is about 23 KB of gzipped JavaScript, zod/mini about 5 KB (issue 9).
 */
export const loginSchema = z.strictObject({
  email: z.string({ error: 'Email is required' }).check(
    z.trim(),
    z.minLength(1, 'Email is required'),
    z.maxLength(254, 'Invalid email address'),
    z.regex(EMAIL_PATTERN, 'Invalid email address'),
    z.toLowerCase(),
  ),
  password: z.string({ error: 'Password is required' }).check(z.minLength(1, 'Password is required'), z.maxLength(200, 'Password is too long')),
});
export type LoginInput = z.infer<typeof loginSchema>;
