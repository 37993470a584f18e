import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, ReadTx, Tx } from '../../server/db/client';
import { withTenant } from '../../server/db/client';
import { sessions, users } from '../../server/db/schema';
import { notFound } from '../../server/http-error';
import { describeUserAgent } from '../../shared/user-agent';
import { newOpaqueToken, signAccessToken, type Role } from './tokens';
import { readOrgRow } from '../../server/db/org-rows';

export const REFRESH_TOKEN_DAYS = 30;

/** Where a sign-in comes from: kept on the session for the person's device list (decision 076). */
export interface SignInClient {
  userAgent?: string | null;
  ip?: string | null;
}

/** The signed-in user a session is issued to: the claims of its access token. */
export interface SessionUser {
  id: number;
  role: Role;
  tokenVersion: number;
}

/**
 * The one way a sign-in ends (password, second factor, single sign-on): a new session row, an access token and a
 * refresh token for the cookie. `client` only records the device; it changes nothing of what is issued.
 */
export async function issueSession(db: Db, orgId: number, user: SessionUser, secret: string, client: SignInClient = {}) {
  const { token, hash } = newOpaqueToken();
  const [row] = await withTenant(db, orgId, (tx) =>
    tx
      .insert(sessions)
      .values({
        orgId,
        userId: user.id,
        refreshHash: hash,
        expiresAt: new Date(Date.now() + REFRESH_TOKEN_DAYS * 86400_000),
        userAgent: client.userAgent ? client.userAgent.slice(0, 512) : null,
        ipAddress: client.ip ? client.ip.slice(0, 64) : null,
        lastSeenAt: new Date(),
      })
      .returning({ id: sessions.id }),
  );
  const accessToken = await signAccessToken(secret, { userId: user.id, orgId, role: user.role, sessionId: row.id, tokenVersion: user.tokenVersion });
  return { accessToken, refreshToken: token, sessionId: row.id };
}

const live = (orgId: number, userId: number) =>
  and(eq(sessions.orgId, orgId), eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`));

/** The signed-in devices of one person, the most recently seen first; `current` marks the caller's own. */
export async function listSessions(tx: ReadTx, orgId: number, userId: number, currentSessionId: number) {
  const rows = await tx
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      ipAddress: sessions.ipAddress,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(live(orgId, userId))
    .orderBy(desc(sql`coalesce(${sessions.lastSeenAt}, ${sessions.createdAt})`), desc(sessions.id));
  return {
    sessions: rows.map((r) => ({
      id: r.id,
      ...describeUserAgent(r.userAgent),
      ipAddress: r.ipAddress,
      createdAt: r.createdAt.toISOString(),
      lastSeenAt: (r.lastSeenAt ?? r.createdAt).toISOString(),
      current: r.id === currentSessionId,
    })),
  };
}

/** Ends one of the caller's own sessions: its refresh token stops at once, its access token within its lifetime. */
export async function deleteSession(tx: Tx, orgId: number, userId: number, sessionId: number) {
  const ended = await tx
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(live(orgId, userId), eq(sessions.id, sessionId)))
    .returning({ id: sessions.id });
  if (ended.length === 0) throw notFound('Session');
}

/** An admin ends every session of a person of the organisation. */
export async function deleteUserSessions(tx: Tx, orgId: number, userId: number) {
  const user = await readOrgRow(tx, users, { id: users.id }, orgId, userId);
  if (!user) throw notFound('User');
  const ended = await tx.update(sessions).set({ revokedAt: new Date() }).where(live(orgId, userId)).returning({ id: sessions.id });
  return { message: 'Sessions ended', ended: ended.length };
}
