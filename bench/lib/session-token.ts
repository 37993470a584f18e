// A new session and its access token for a user, without their password: benchmarks drive the API as a known
// user (a token must name a live session, decision 021). Bench-only: production code has no such door.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client';
import { withTenant } from '../../src/server/db/client';
import { sessions, users } from '../../src/server/db/schema';
import { REFRESH_TOKEN_DAYS } from '../../src/features/auth/auth.service';
import { newOpaqueToken, signAccessToken } from '../../src/features/auth/tokens';

export async function sessionTokenFor(db: Db, secret: string, orgId: number, userId: number) {
  const [user] = await withTenant(
    db,
    orgId,
    (tx) =>
      tx
        .select({ role: users.role, tokenVersion: users.tokenVersion })
        .from(users)
        .where(and(eq(users.orgId, orgId), eq(users.id, userId))),
    { readOnly: true },
  );
  if (!user) throw new Error(`No user ${userId} in organisation ${orgId}`);
  const [session] = await withTenant(db, orgId, (tx) =>
    tx
      .insert(sessions)
      .values({ orgId, userId, refreshHash: newOpaqueToken().hash, expiresAt: new Date(Date.now() + REFRESH_TOKEN_DAYS * 86400_000) })
      .returning({ id: sessions.id }),
  );
  return signAccessToken(secret, { userId, orgId, role: user.role, sessionId: session.id, tokenVersion: user.tokenVersion });
}
