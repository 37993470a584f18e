import { z } from '../../shared/zod-setup';
import { tokenAnswerSchema } from '../../shared/schema-parts';
import { messageSchema } from '../../shared/pagination';

export const TWO_FACTOR_POLICIES = ['off', 'admins', 'everyone'] as const;
export type TwoFactorPolicy = (typeof TWO_FACTOR_POLICIES)[number];

export const INVALID_CODE = 'Invalid two-factor code';
export const CODE_REQUIRED = 'Enter the code from your authenticator app';
export const PASSWORD_INCORRECT = 'Current password is incorrect';
export const TWO_FACTOR_OFF = 'Two-factor sign-in is off';

/** Six digits from the authenticator app; spaces a person types between them are dropped. */
export const totpCodeField = () =>
  z
    .string({ error: CODE_REQUIRED })
    .transform((s) => s.replace(/\s+/g, ''))
    .pipe(
      z
        .string()
        .min(1, CODE_REQUIRED)
        .regex(/^\d{6}$/, 'The code has 6 digits'),
    );

const challengeField = () => z.string({ error: 'Session expired, please sign in again' }).min(1, 'Session expired, please sign in again').max(2000);

/** POST /api/two-factor/confirm-enrolment (signed in). */
export const confirmEnrolmentSchema = z.strictObject({ code: totpCodeField() });

/** POST /api/two-factor/disable: the password and a current code (or a recovery code). */
export const disableTwoFactorSchema = z.strictObject({
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200, 'Password is too long'),
  code: z.string({ error: CODE_REQUIRED }).trim().min(1, CODE_REQUIRED).max(20, INVALID_CODE),
});

/** POST /api/two-factor/regenerate-recovery-codes: the password again (decision 083). */
export const regenerateRecoveryCodesSchema = z.strictObject({
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200, 'Password is too long'),
});

/** POST /api/auth/verify-two-factor: the sign-in's second step, with a code or a recovery code. */
export const verifyTwoFactorSchema = z
  .strictObject({
    challenge: challengeField(),
    code: z.string().trim().max(20, INVALID_CODE).optional(),
    recoveryCode: z.string().trim().max(40, INVALID_CODE).optional(),
  })
  .refine((v) => Boolean(v.code) !== Boolean(v.recoveryCode), { message: CODE_REQUIRED, path: ['code'] });

/** POST /api/auth/start-two-factor-enrolment: a person who must enrol, between password and first use. */
export const challengeSchema = z.strictObject({ challenge: challengeField() });
export const confirmSignInEnrolmentSchema = z.strictObject({ challenge: challengeField(), code: totpCodeField() });

export const policySchema = z.strictObject({
  required: z.enum(TWO_FACTOR_POLICIES, { error: 'Choose who must use two-factor sign-in' }),
});

export const twoFactorAnswers = {
  message: messageSchema,
  status: z.object({ enabled: z.boolean(), required: z.boolean(), recoveryCodesLeft: z.number() }),
  enrolment: z.object({ secret: z.string(), otpauthUrl: z.string(), qrCode: z.string() }),
  recoveryCodes: z.object({ recoveryCodes: z.array(z.string()) }),
  signedInWithCodes: tokenAnswerSchema.extend({ recoveryCodes: z.array(z.string()) }),
  token: tokenAnswerSchema,
  policy: z.object({ required: z.enum(TWO_FACTOR_POLICIES) }),
};
export type TwoFactorStatus = z.infer<typeof twoFactorAnswers.status>;
export type TwoFactorEnrolment = z.infer<typeof twoFactorAnswers.enrolment>;
