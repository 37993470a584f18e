import { z } from '../../shared/zod-setup';
import { NAME_MESSAGES, nameField } from '../../shared/record-fields.schema';

import { dateField } from '../../shared/dates';

/**
 * What a key may do (decision 043): `read-only` reads what a manager reads and is refused on every other method;
 * `worker` and `manager` act with that role. A key never acts above its creator's current role.
 */
export const API_KEY_ROLES = ['read-only', 'worker', 'manager'] as const;
export type ApiKeyRole = (typeof API_KEY_ROLES)[number];

/** Every key starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'cmms_live_';

export const API_KEY_MESSAGES = {
  ...NAME_MESSAGES,
  role: 'Role must be read-only, worker or manager',
  expiresAt: 'Expiry is required',
  expiresAtInvalid: 'Expiry must be a valid date',
  expiresAtPast: 'Expiry must be in the future',
  expiresAtFar: 'Expiry must be within 2 years',
} as const;

/** Keys live at most this long: a forgotten key ends by itself. */
export const MAX_KEY_DAYS = 2 * 366;

export const apiKeyInputSchema = z.strictObject({
  name: nameField(),
  role: z.enum(API_KEY_ROLES, { error: API_KEY_MESSAGES.role }),
  expiresAt: dateField(API_KEY_MESSAGES.expiresAt, API_KEY_MESSAGES.expiresAtInvalid),
});
export type ApiKeyInput = z.input<typeof apiKeyInputSchema>;

/** A key as listed: never its secret nor its hash. */
export const apiKeySchema = z.object({
  id: z.number(),
  name: z.string(),
  role: z.enum(API_KEY_ROLES),
  /** The first characters of the key, to recognise it. */
  prefix: z.string(),
  createdById: z.number(),
  createdByName: z.string().nullable(),
  expiresAt: z.date(),
  revokedAt: z.date().nullable(),
  lastUsedAt: z.date().nullable(),
  createdAt: z.date(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListSchema = z.object({ apiKeys: z.array(apiKeySchema) });
/** The answer to a creation: the key in clear, this once. */
export const apiKeyCreatedSchema = apiKeyListSchema.extend({ apiKey: apiKeySchema, key: z.string() });
