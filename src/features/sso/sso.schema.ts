import { z } from '../../shared/zod-setup';
import { messageSchema } from '../../shared/pagination';
import { tokenAnswerSchema } from '../../shared/schema-parts';
import { idField, requiredString } from '../../shared/validation';

/** Roles a person created at their first single sign-on may get (an admin is made by an admin, never by a provider). */
export const SSO_ROLES = ['worker', 'manager'] as const;

export const SSO_MESSAGES = {
  issuerInvalid: 'Enter the issuer as a web address (https://…)',
  secretRequired: 'Client secret is required',
  unreachable: 'The identity provider could not be reached, or did not answer as an OpenID Connect provider',
  privateAddress: 'The identity provider is on a private or loopback address, which this server does not call',
  notSetUp: 'Single sign-on is not set up for this organization',
  notCompleted: 'The sign-in with your company account did not complete. Please try again.',
  notVerified: 'Your company account could not be verified',
  noEmail: 'Your company account gave no verified e-mail address',
  notInvited: 'There is no account for this e-mail address in this organization. Ask an admin to invite you.',
  ssoOnly: 'Password sign-in is turned off for this organization: sign in with your company account',
  reauthOtherPerson: 'You signed in at the identity provider as someone else: sign in with your own company account to sign',
  reauthNotFresh: 'The identity provider did not ask you to sign in again: please try again',
  proofInvalid: 'Your sign-in for this signature has expired or was already used: sign in again',
  reauthRequired: 'Sign with your company account: sign in again with it to sign',
} as const;

/** How long the proof of a signer's fresh sign-in may be used, once, for its step. */
export const REAUTH_PROOF_SECONDS = 5 * 60;

const httpUrl = requiredString('Issuer URL is required')
  .max(500, 'Must be at most 500 characters')
  .refine((s) => {
    try {
      const url = new URL(s);
      return (url.protocol === 'https:' || url.protocol === 'http:') && !url.search && !url.hash && !url.username && !url.password;
    } catch {
      return false;
    }
  }, SSO_MESSAGES.issuerInvalid)
  // The issuer identifier as the provider states it, without a trailing slash we might have added.
  .transform((s) => s.replace(/\/+$/, ''));

/**
 * PUT /api/auth/update-sso-settings and the settings form. `clientSecret` empty or absent keeps the stored one
 * (the form never receives it); it is required the first time.
 */
export const ssoSettingsInputSchema = z.strictObject({
  enabled: z.boolean(),
  displayName: requiredString('Name is required').max(60, 'Must be at most 60 characters'),
  issuer: httpUrl,
  clientId: requiredString('Client ID is required').max(300, 'Must be at most 300 characters'),
  clientSecret: z
    .string()
    .trim()
    .max(1000, 'Must be at most 1000 characters')
    .optional()
    .transform((s) => (s ? s : undefined)),
  defaultRole: z.enum(SSO_ROLES),
  createUsers: z.boolean(),
  ssoOnly: z.boolean(),
});
export type SsoSettingsInput = z.input<typeof ssoSettingsInputSchema>;

/** What the admin reads back: never the secret, only whether one is kept. */
export const ssoSettingsDtoSchema = z.object({
  configured: z.boolean(),
  enabled: z.boolean(),
  displayName: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  clientSecretSet: z.boolean(),
  defaultRole: z.enum(SSO_ROLES),
  createUsers: z.boolean(),
  ssoOnly: z.boolean(),
  /** The address to register at the provider: this organisation's own host, /sso/callback. */
  redirectUri: z.string(),
});
export type SsoSettingsDto = z.infer<typeof ssoSettingsDtoSchema>;

export const ssoSettingsAnswers = {
  settings: z.object({ settings: ssoSettingsDtoSchema }),
  saved: messageSchema.extend({ settings: ssoSettingsDtoSchema }),
  /** The login page's question: is there a "Sign in with …" button, and is the password form for admins only. */
  options: z.object({ enabled: z.boolean(), displayName: z.string().nullable(), ssoOnly: z.boolean() }),
  started: z.object({ authorizationUrl: z.string() }),
  token: tokenAnswerSchema,
  /** How the signed-in person re-authenticates to sign a sign-off step: their password, or a fresh single sign-on. */
  reauthMethod: z.object({ method: z.enum(['password', 'sso']), displayName: z.string().nullable() }),
  /** The proof of a fresh sign-in, for one sign-off of one step, used once, short-lived. */
  reauthProof: z.object({ proof: z.string(), workOrderId: z.number().int(), stepId: z.number().int(), expiresAt: z.string() }),
};

/** POST /api/auth/start-sso-reauth: the sign-off step the fresh sign-in is for. */
export const ssoReauthStartSchema = z.strictObject({
  workOrderId: idField('Invalid id'),
  stepId: idField('Step is invalid'),
});

/** POST /api/auth/finish-sso: the query string the provider sent the browser back with (`?code=…&state=…&iss=…`). */
export const ssoFinishSchema = z.strictObject({
  search: requiredString(SSO_MESSAGES.notCompleted).max(8000, SSO_MESSAGES.notCompleted),
});
