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

/** The verified claims, or null for a forged, expired or malformed token. */
export async function verifyAccessToken(secret: string, token: string): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'] });
    const role = payload.role;
    if (role !== 'admin' && role !== 'manager' && role !== 'worker') return null;
    return { userId: Number(payload.sub), orgId: Number(payload.org), role, sessionId: Number(payload.sid) };
  } catch {
    return null;
  }
}

/** A random opaque token (refresh, invitation) and the hash we store in its place. */
export function newOpaqueToken() {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
