import { createHash, randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

export type Role = 'admin' | 'manager' | 'worker';

export interface AccessClaims {
  userId: number;
  orgId: number;
  role: Role;
  sessionId: number;
}

export const ACCESS_TOKEN_SECONDS = 10 * 60;

export async function signAccessToken(secret: string, claims: AccessClaims, seconds = ACCESS_TOKEN_SECONDS) {
  return new SignJWT({ org: claims.orgId, role: claims.role, sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(claims.userId))
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + seconds)
    .sign(new TextEncoder().encode(secret));
}

/** The verified claims and when they expire, or null for a forged, expired or malformed token. */
async function verifyWithExpiry(key: CryptoKey, token: string) {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
    const role = payload.role;
    if (role !== 'admin' && role !== 'manager' && role !== 'worker') return null;
    const claims: AccessClaims = { userId: Number(payload.sub), orgId: Number(payload.org), role, sessionId: Number(payload.sid) };
    return { claims, expiresAt: Number(payload.exp) * 1000 };
  } catch {
    return null;
  }
}

const CACHE_LIMIT = 10_000;

/**
 * The per-request verifier of one secret. A token is re-sent on every request of its ten minutes, and
 * checking its HMAC was a tenth of a list request's CPU, so a verified token is remembered until it
 * expires: the same string with the same secret can only verify the same way. Forged or expired tokens
 * are never remembered.
 */
export function accessTokenVerifier(secret: string) {
  const key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const verified = new Map<string, { claims: AccessClaims; expiresAt: number }>();
  return async (token: string): Promise<AccessClaims | null> => {
    const hit = verified.get(token);
    if (hit) {
      if (hit.expiresAt > Date.now()) return hit.claims;
      verified.delete(token);
    }
    const result = await verifyWithExpiry(await key, token);
    if (!result) return null;
    if (verified.size >= CACHE_LIMIT) verified.clear();
    verified.set(token, result);
    return result.claims;
  };
}

/** A random opaque token (refresh, invitation) and the hash we store in its place. */
export function newOpaqueToken() {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
