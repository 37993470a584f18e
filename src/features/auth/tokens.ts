import { createHash, randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

export type Role = 'admin' | 'manager' | 'worker';

export interface AccessClaims {
  userId: number;
  orgId: number;
  /** The role when the token was signed; a request acts with the user's current role (decision 021). */
  role: Role;
  sessionId: number;
  /** The user's token version when signed: a password change bumps it and every older token stops working. */
  tokenVersion: number;
  /** Set when the caller is an API key (decision 043): the key's id; `userId` is its creator, `sessionId` 0. */
  apiKeyId?: number;
}

export const ACCESS_TOKEN_SECONDS = 10 * 60;

export async function signAccessToken(secret: string, claims: AccessClaims, seconds = ACCESS_TOKEN_SECONDS) {
  return new SignJWT({ org: claims.orgId, role: claims.role, sid: claims.sessionId, ver: claims.tokenVersion })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(claims.userId))
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + seconds)
    .sign(new TextEncoder().encode(secret));
}

const REQUIRED_CLAIMS = ['exp', 'sub', 'org', 'role', 'sid', 'ver'];
const isId = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;

/**
 * The verified claims and when they expire, or null for a forged, expired or malformed token. Every claim
 * must be there and of its type: a token without expiry, subject or session, or with the organisation as a
 * string, is refused rather than read with `Number()` into something that might match.
 */
async function verifyWithExpiry(key: CryptoKey, token: string) {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: REQUIRED_CLAIMS });
    const { sub, org, role, sid, ver, exp } = payload;
    if (role !== 'admin' && role !== 'manager' && role !== 'worker') return null;
    if (typeof sub !== 'string' || !/^[1-9]\d{0,15}$/.test(sub)) return null;
    const userId = Number(sub);
    if (!isId(userId) || !isId(org) || !isId(sid) || !Number.isSafeInteger(ver) || (ver as number) < 0 || typeof exp !== 'number') return null;
    const claims: AccessClaims = { userId, orgId: org, role, sessionId: sid, tokenVersion: ver as number };
    return { claims, expiresAt: exp * 1000 };
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
