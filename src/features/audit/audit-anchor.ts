import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../server/env';
import { keyIdOf, type EncryptionKeys } from '../../server/secret-box';

/**
 * The retention anchor's signature (decision 078; decision 083's key): HMAC-SHA256 of `orgId:seq:hash` under a key
 * derived (HKDF-SHA256) from ENCRYPTION_KEY for this purpose only, written `v2.<key id>.<hex>` so that anchors signed
 * under a previous key (ENCRYPTION_KEY_PREVIOUS) still verify after a key change. Anchors signed before (bare hex,
 * under a key derived from JWT_SECRET) still verify with that legacy key; the next prune signs them again. Never
 * stored with a key in the database.
 */
export interface AnchorKeys {
  sign(orgId: number, seq: number, hash: string): string;
  verify(signature: string | null | undefined, orgId: number, seq: number, hash: string): boolean;
}

const message = (orgId: number, seq: number, hash: string) => `${orgId}:${seq}:${hash}`;
const anchorKeyOf = (key: string) => Buffer.from(hkdfSync('sha256', key, 'cmms/audit-anchor', 'audit-anchor', 32));
const legacySignature = (jwtSecret: string, text: string) => {
  const key = createHmac('sha256', jwtSecret).update('cmms audit anchor').digest();
  return createHmac('sha256', key).update(text).digest('hex');
};
const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function createAnchorKeys(keys: EncryptionKeys, legacyJwtSecret: string): AnchorKeys {
  const currentId = keyIdOf(keys.current);
  const byId = new Map([keys.current, ...keys.previous].map((key) => [keyIdOf(key), anchorKeyOf(key)] as const));
  const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest('hex');
  return {
    sign: (orgId, seq, hash) => `v2.${currentId}.${hmac(byId.get(currentId)!, message(orgId, seq, hash))}`,
    verify(signature, orgId, seq, hash) {
      if (!signature) return false;
      const text = message(orgId, seq, hash);
      if (!signature.startsWith('v2.')) return !!legacyJwtSecret && sameText(signature, legacySignature(legacyJwtSecret, text));
      const [, id, mac] = signature.split('.');
      const key = id ? byId.get(id) : undefined;
      return !!key && !!mac && sameText(mac, hmac(key, text));
    },
  };
}

const made = new WeakMap<object, AnchorKeys>();
/** The server's anchor keys, made once per configuration. */
export function anchorKeysOf(config: Pick<Config, 'encryptionKeys' | 'jwtSecret'>): AnchorKeys {
  let keys = made.get(config);
  if (!keys) made.set(config, (keys = createAnchorKeys(config.encryptionKeys, config.jwtSecret)));
  return keys;
}

/** Exported for the test of old anchors: the signature an anchor got before decision 083's key. */
export const legacyAnchorSignature = (jwtSecret: string, orgId: number, seq: number, hash: string) => legacySignature(jwtSecret, message(orgId, seq, hash));
