import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from './env';

/**
 * Secrets stored in the database (a person's two-factor secret, an organisation's SSO client secret) sealed with
 * AES-256-GCM under ENCRYPTION_KEY, not JWT_SECRET (decision 083): rotating JWT_SECRET ends sessions, never
 * enrolments. The sealed text names its key (`v2.<key id>.<iv>.<tag>.<body>`), so after a key change the rows sealed
 * under a previous key (ENCRYPTION_KEY_PREVIOUS) still open, and `npm run secrets:reseal` moves them to the current
 * one. Rows sealed before this decision (`v1.…`, under a key derived from JWT_SECRET) open with that legacy key.
 */
export type SecretPurpose = 'two-factor-secret' | 'sso-client-secret';

export interface SecretBox {
  seal(purpose: SecretPurpose, plain: string): string;
  /** The text, or null when altered, sealed for another purpose or under a key this server does not hold. */
  open(purpose: SecretPurpose, sealed: string | null | undefined): string | null;
  /** True when the sealed text is under the current key (nothing to reseal). */
  isCurrent(sealed: string): boolean;
}

export interface EncryptionKeys {
  /** ENCRYPTION_KEY (or, outside production, DATA_DIR/encryption-key made once). */
  current: string;
  /** ENCRYPTION_KEY_PREVIOUS: earlier keys, comma-separated, kept to open rows not yet resealed. */
  previous: string[];
}

/** The key's public name: 8 hex characters of an HMAC of the key (reveals nothing usable about it). */
export const keyIdOf = (key: string) => createHmac('sha256', key).update('cmms/encryption-key-id').digest('hex').slice(0, 8);
const aesKeyOf = (key: string, purpose: SecretPurpose) => Buffer.from(hkdfSync('sha256', key, 'cmms/secret-box', purpose, 32));

function decrypt(key: Buffer, iv: Buffer, tag: Buffer, body: Buffer) {
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

/** The two formats sealed under JWT_SECRET before decision 083 (two-factor's compact one, SSO's dotted one). */
function openLegacy(jwtSecret: string, purpose: SecretPurpose, sealed: string) {
  if (purpose === 'two-factor-secret') {
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    const key = Buffer.from(hkdfSync('sha256', jwtSecret, 'cmms', 'two-factor secret', 32));
    return decrypt(key, raw.subarray(0, 12), raw.subarray(12, 28), raw.subarray(28));
  }
  const [, iv, tag, body] = sealed.split('.');
  const key = Buffer.from(hkdfSync('sha256', jwtSecret, 'cmms-sso', 'sso-client-secret', 32));
  return decrypt(key, Buffer.from(iv!, 'base64url'), Buffer.from(tag!, 'base64url'), Buffer.from(body ?? '', 'base64url'));
}

export function createSecretBox(keys: EncryptionKeys, legacyJwtSecret: string): SecretBox {
  const currentId = keyIdOf(keys.current);
  const byId = new Map([keys.current, ...keys.previous].map((key) => [keyIdOf(key), key] as const));
  return {
    seal(purpose, plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', aesKeyOf(keys.current, purpose), iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v2', currentId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open(purpose, sealed) {
      if (!sealed) return null;
      try {
        if (sealed.startsWith('v1.')) return openLegacy(legacyJwtSecret, purpose, sealed);
        const [version, id, iv, tag, body] = sealed.split('.');
        const key = id && byId.get(id);
        if (version !== 'v2' || !key || !iv || !tag || body === undefined) return null;
        return decrypt(aesKeyOf(key, purpose), Buffer.from(iv, 'base64url'), Buffer.from(tag, 'base64url'), Buffer.from(body, 'base64url'));
      } catch {
        return null;
      }
    },
    isCurrent: (sealed) => sealed.startsWith(`v2.${currentId}.`),
  };
}

const boxes = new WeakMap<object, SecretBox>();
/** The server's box, made once per configuration. */
export function secretBoxOf(config: Pick<Config, 'encryptionKeys' | 'jwtSecret'>): SecretBox {
  let box = boxes.get(config);
  if (!box) boxes.set(config, (box = createSecretBox(config.encryptionKeys, config.jwtSecret)));
  return box;
}
