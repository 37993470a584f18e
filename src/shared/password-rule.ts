/**
 * The password rule of spec section 5 ("Auth and registration"), in one place for every schema that takes a
 * password: sign-up, invitation, password change (classic zod) and login (zod/mini, the smallest page).
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;
export const PASSWORD_MESSAGES = {
  required: 'Password is required',
  min: 'Password must be at least 8 characters',
  max: 'Password is too long',
} as const;
