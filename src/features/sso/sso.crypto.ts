import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The browser's sealed sign-in state cookie of single sign-on (decision 077): AES-256-GCM under a key derived
 * (HKDF-SHA256) from JWT_SECRET and the purpose. It lives ten minutes, so a changed JWT_SECRET only restarts a
 * sign-in. The client secret at rest is sealed under ENCRYPTION_KEY instead (`src/server/secret-box.ts`, decision 083).
 */
export type SealPurpose = 'sso-state';

const keyOf = (appSecret: string, purpose: SealPurpose) => Buffer.from(hkdfSync('sha256', appSecret, 'cmms-sso', purpose, 32));

export function seal(appSecret: string, purpose: SealPurpose, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(appSecret, purpose), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** The sealed value's text, or null when it was altered, sealed for another purpose or under another key. */
export function unseal(appSecret: string, purpose: SealPurpose, sealed: string | undefined | null): string | null {
  if (!sealed) return null;
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(appSecret, purpose), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
