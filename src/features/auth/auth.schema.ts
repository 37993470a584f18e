import { z } from '../../shared/zod-setup';
import { tokenAnswerSchema } from '../../shared/schema-parts';
import { messageSchema } from '../../shared/pagination';
import { emailField, PHONE_PATTERN, requiredString } from '../../shared/validation';
import { RESERVED_SUBDOMAINS } from '../../shared/subdomain';
import { isTimeZone } from '../../shared/dates';
import { PASSWORD_MAX, PASSWORD_MESSAGES, PASSWORD_MIN } from '../../shared/password-rule';

const REQUIRED = 'This field is required';
const MIN3 = 'Must be at least 3 characters';

export const passwordField = () =>
  z
    .string({ error: PASSWORD_MESSAGES.required })
    .min(1, PASSWORD_MESSAGES.required)
    .min(PASSWORD_MIN, PASSWORD_MESSAGES.min)
    .max(PASSWORD_MAX, PASSWORD_MESSAGES.max);

/** The register screen and POST /api/signup: every message of spec section 5 "Auth and registration". */
export const signupSchema = z.strictObject({
  organization: requiredString(REQUIRED).min(3, MIN3).max(100, 'Must be at most 100 characters'),
  email: emailField(),
  password: passwordField(),
  subdomainName: requiredString(REQUIRED)
    .min(3, MIN3)
    .max(63, 'Must be at most 63 characters')
    .transform((s) => s.toLowerCase())
    .pipe(
      z
        .string()
        .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, 'Use lowercase letters, digits and hyphens only')
        .refine((s) => !RESERVED_SUBDOMAINS.has(s), 'This subdomain is reserved'),
    ),
  numberOfWorkers: z
    .union([z.number(), z.string()], { error: REQUIRED })
    .transform((v) => String(v).trim())
    .pipe(
      z
        .string()
        .min(1, { error: REQUIRED, abort: true })
        .regex(/^\d+$/, { error: 'Only numbers are allowed', abort: true })
        .refine((s) => Number(s) > 0, 'The number must be greater than 0')
        .refine((s) => Number(s) <= 1_000_000, 'The number is too large')
        .transform(Number),
    ),
  consent: z.literal(true, { error: REQUIRED }),
  // The admin's browser zone (`Intl.DateTimeFormat().resolvedOptions().timeZone`), the organisation's first
  // time zone (decision 064): a name this runtime does not know, or none, is UTC rather than a refused signup.
  timeZone: z
    .unknown()
    .optional()
    .transform((v) => (typeof v === 'string' && v.length <= 64 && isTimeZone(v) ? v : 'UTC')),
});
export type SignupInput = z.input<typeof signupSchema>;

// The login body lives in its own zod/mini module so the login screen stays small.
export { loginSchema, type LoginInput } from './login.schema';

export const searchSubdomainSchema = z.strictObject({
  subdomain: requiredString(REQUIRED)
    .max(63, 'Subdomain not found')
    .transform((s) => s.toLowerCase()),
});

export const verifyTokenQuerySchema = z.strictObject({ token: requiredString('No token found.').max(200, 'Invalid or expired invite link.') });

/** POST /auth/complete-registration. The form adds the confirmation (see completeRegistrationFormSchema). */
export const completeRegistrationSchema = z.strictObject({
  token: requiredString('No token found.').max(200, 'Invalid or expired invite link.'),
  firstName: requiredString('First Name is required').max(100, 'Must be at most 100 characters'),
  lastName: requiredString('Last Name is required').max(100, 'Must be at most 100 characters'),
  phoneNumber: requiredString('Phone number is required')
    .min(10, 'Phone number must be 10 to 15 characters')
    .max(15, 'Phone number must be 10 to 15 characters'),
  password: passwordField(),
  confirmPassword: z.string().optional(),
});

export const completeRegistrationFormSchema = completeRegistrationSchema
  .extend({ confirmPassword: z.string({ error: 'Passwords do not match' }) })
  .refine((v) => v.password === v.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] });
export type CompleteRegistrationForm = z.infer<typeof completeRegistrationFormSchema>;

export const verifyPasswordSchema = z.strictObject({
  currentPassword: z.string({ error: 'Password is required' }).min(8, 'Password must be at least 8 characters').max(200, 'Password is too long'),
});

export const resetPasswordSchema = z
  .strictObject({
    newPassword: passwordField(),
    confirmPassword: z.string({ error: "Passwords don't match" }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: "Passwords don't match", path: ['confirmPassword'] });

export const demoRequestSchema = z.strictObject({
  name: requiredString('Name is required').max(100, 'Must be at most 100 characters'),
  email: emailField('Email is required', 'Invalid email address'),
  company: requiredString('Company is required').max(100, 'Must be at most 100 characters'),
  phone: z.string().trim().max(30, 'Must be at most 30 characters').optional(),
  message: z.string().trim().max(2000, 'Must be at most 2000 characters').optional(),
});
export type DemoRequestInput = z.infer<typeof demoRequestSchema>;

/** The answers of the sign-up and sign-in routes (issue 28). */
export const authAnswers = {
  message: messageSchema,
  signedUp: messageSchema.extend({ subdomain: z.string(), loginUrl: z.string() }),
  subdomain: z.object({ subdomain: z.string(), loginUrl: z.string() }),
  token: tokenAnswerSchema,
  /** POST /login: the spec's token, or (decision 076) a challenge for the second factor or its enrolment. */
  login: z.union([tokenAnswerSchema, z.object({ twoFactor: z.enum(['verify', 'enrol']), challenge: z.string() })]),
  invitation: z.object({ valid: z.boolean(), email: z.string() }),
};

export { PHONE_PATTERN };
