import { and, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../server/db/client';
import { withoutTenant, withTenant } from '../../server/db/client';
import { demoRequests, invitations, organizations, sessions, users } from '../../server/db/schema';
import { HttpError, badRequest, conflict, notFound, unauthorized } from '../../server/http-error';
import { dummyHash, hashPassword, verifyPassword } from '../../server/passwords';
import { startLoginAttempt, type LoginLimits } from '../../server/rate-limit';
import { pgCode } from '../../server/plugins/errors';
import type { completeRegistrationSchema, DemoRequestInput, LoginInput, signupSchema } from './auth.schema';
import { hashToken, newOpaqueToken, signAccessToken } from './tokens';

export const REFRESH_TOKEN_DAYS = 30;
/** Concurrent tabs presenting the just-rotated refresh token within this window stay signed in. */
export const REFRESH_GRACE_SECONDS = 30;
/** A password change is accepted only this long after the current password was verified. */
export const PASSWORD_VERIFY_WINDOW_SECONDS = 5 * 60;

export const LOGIN_FAILURE = 'Invalid email or password';

/** Creates the organisation and its first user (role admin). The subdomain is unique across all organisations. */
export async function signup(db: Db, input: z.output<typeof signupSchema>) {
  const passwordHash = await hashPassword(input.password);
  let org: { id: number; subdomain: string };
  try {
    [org] = await withoutTenant(db, (tx) =>
      tx
        .insert(organizations)
        .values({ organization: input.organization, subdomain: input.subdomainName, numberOfWorkers: input.numberOfWorkers })
        .returning({ id: organizations.id, subdomain: organizations.subdomain }),
    );
  } catch (err) {
    if (pgCode(err) === '23505') throw conflict('This subdomain is already taken', 'subdomainName');
    throw err;
  }
  await withTenant(db, org.id, (tx) =>
    tx.insert(users).values({
      orgId: org.id,
      email: input.email,
      passwordHash,
      // The creator gives no name at signup: start from the e-mail's local part (DESIGN 11).
      firstName: input.email.split('@')[0].slice(0, 100),
      role: 'admin',
      inviteStatus: 'ACTIVE',
    }),
  );
  return { message: 'Organization registered successfully', subdomain: org.subdomain };
}

export async function searchSubdomain(db: Db, subdomain: string) {
  const [org] = await withoutTenant(db, (tx) =>
    tx
      .select({ subdomain: organizations.subdomain })
      .from(organizations)
      .where(eq(sql`lower(${organizations.subdomain})`, subdomain)),
  );
  if (!org) throw new HttpError(404, 'Subdomain not found');
  return { subdomain: org.subdomain };
}

/** Signs a user in on their organisation's host: a new session, an access token and a refresh token. */
export async function login(db: Db, orgId: number, input: LoginInput, ip: string, secret: string, limits: LoginLimits) {
  const attempt = await startLoginAttempt(db, orgId, input.email, ip, limits);
  const result = await withTenant(db, orgId, async (tx) => {
    const [user] = await tx
      .select({ id: users.id, role: users.role, passwordHash: users.passwordHash, inviteStatus: users.inviteStatus })
      .from(users)
      .where(and(eq(users.orgId, orgId), eq(sql`lower(${users.email})`, input.email)));
    const ok = await verifyPassword(user?.passwordHash ?? (await dummyHash()), input.password);
    if (!user || !ok || user.inviteStatus !== 'ACTIVE') return null;
    const session = await startSession(tx, orgId, user.id);
    const accessToken = await signAccessToken(secret, { userId: user.id, orgId, role: user.role, sessionId: session.id });
    return { accessToken, refreshToken: session.refreshToken };
  });
  if (!result) throw unauthorized(LOGIN_FAILURE);
  await attempt.succeeded();
  return result;
}

async function startSession(tx: Tx, orgId: number, userId: number) {
  const { token, hash } = newOpaqueToken();
  const [row] = await tx
    .insert(sessions)
    .values({ orgId, userId, refreshHash: hash, expiresAt: new Date(Date.now() + REFRESH_TOKEN_DAYS * 86400_000) })
    .returning({ id: sessions.id });
  return { id: row.id, refreshToken: token };
}

/**
 * Rotates a refresh token. The token just replaced is honoured for REFRESH_GRACE_SECONDS (tabs
 * refreshing at once), without a new cookie; presented later it is a theft signal and revokes the session.
 */
export async function refresh(db: Db, orgId: number, refreshToken: string | undefined, secret: string) {
  if (!refreshToken) throw unauthorized('Session expired, please sign in again');
  const hash = hashToken(refreshToken);
  const outcome = await withTenant(db, orgId, async (tx) => {
    const [session] = await tx
      .select()
      .from(sessions)
      .where(and(eq(sessions.orgId, orgId), or(eq(sessions.refreshHash, hash), eq(sessions.previousHash, hash))))
      .for('update');
    if (!session || session.revokedAt || session.expiresAt < new Date()) return null;
    const [user] = await tx
      .select({ role: users.role, inviteStatus: users.inviteStatus })
      .from(users)
      .where(and(eq(users.orgId, orgId), eq(users.id, session.userId)));
    if (!user || user.inviteStatus !== 'ACTIVE') return null;
    const claims = { userId: session.userId, orgId, role: user.role, sessionId: session.id };
    if (session.refreshHash !== hash) {
      const age = (Date.now() - (session.rotatedAt?.getTime() ?? 0)) / 1000;
      if (age > REFRESH_GRACE_SECONDS) {
        await tx.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.orgId, orgId), eq(sessions.id, session.id)));
        return 'reused' as const;
      }
      return { accessToken: await signAccessToken(secret, claims), refreshToken: undefined };
    }
    const next = newOpaqueToken();
    await tx
      .update(sessions)
      .set({ refreshHash: next.hash, previousHash: hash, rotatedAt: new Date() })
      .where(and(eq(sessions.orgId, orgId), eq(sessions.id, session.id)));
    return { accessToken: await signAccessToken(secret, claims), refreshToken: next.token };
  });
  if (outcome === null || outcome === 'reused') throw unauthorized('Session expired, please sign in again');
  return outcome;
}

export async function logout(db: Db, orgId: number, refreshToken: string | undefined) {
  if (!refreshToken) return;
  const hash = hashToken(refreshToken);
  await withTenant(db, orgId, (tx) =>
    tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.orgId, orgId), or(eq(sessions.refreshHash, hash), eq(sessions.previousHash, hash)))),
  );
}

/** Checks the signed-in user's current password; a success opens the password-change window for this session. */
export async function verifyCurrentPassword(tx: Tx, orgId: number, userId: number, sessionId: number, password: string) {
  const [user] = await tx
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.id, userId)));
  if (!user || !(await verifyPassword(user.passwordHash, password))) {
    throw new HttpError(400, 'Current password is incorrect', [{ path: 'currentPassword', message: 'Current password is incorrect' }]);
  }
  await tx
    .update(sessions)
    .set({ passwordVerifiedAt: new Date() })
    .where(and(eq(sessions.orgId, orgId), eq(sessions.id, sessionId)));
  return { message: 'Password verified' };
}

/** Sets a new password within the window after verify-password; the user's other sessions are revoked. */
export async function resetPassword(tx: Tx, orgId: number, userId: number, sessionId: number, newPassword: string) {
  const [session] = await tx
    .select({ verifiedAt: sessions.passwordVerifiedAt })
    .from(sessions)
    .where(and(eq(sessions.orgId, orgId), eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  const verifiedAt = session?.verifiedAt?.getTime() ?? 0;
  if (Date.now() - verifiedAt > PASSWORD_VERIFY_WINDOW_SECONDS * 1000) {
    throw new HttpError(403, 'Please verify your current password first');
  }
  await tx
    .update(users)
    .set({ passwordHash: await hashPassword(newPassword) })
    .where(and(eq(users.orgId, orgId), eq(users.id, userId)));
  await tx
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.orgId, orgId), eq(sessions.userId, userId), ne(sessions.id, sessionId), isNull(sessions.revokedAt)));
  await tx
    .update(sessions)
    .set({ passwordVerifiedAt: null })
    .where(and(eq(sessions.orgId, orgId), eq(sessions.id, sessionId)));
  return { message: 'Password has been updated successfully' };
}

/** The invitation behind a token, if it is unused and unexpired. */
async function findOpenInvitation(tx: Tx, orgId: number, token: string) {
  const [row] = await tx
    .select({ id: invitations.id, userId: invitations.userId, email: users.email })
    .from(invitations)
    .innerJoin(users, and(eq(users.orgId, invitations.orgId), eq(users.id, invitations.userId)))
    .where(
      and(
        eq(invitations.orgId, orgId),
        eq(invitations.tokenHash, hashToken(token)),
        isNull(invitations.usedAt),
        gt(invitations.expiresAt, new Date()),
      ),
    );
  return row ?? null;
}

export async function verifyInviteToken(tx: Tx, orgId: number, token: string) {
  const invite = await findOpenInvitation(tx, orgId, token);
  if (!invite) throw badRequest('Invalid or expired invite link.');
  return { valid: true, email: invite.email };
}

/** The invited user sets their name, phone and password; the token is spent. */
export async function completeRegistration(tx: Tx, orgId: number, input: z.output<typeof completeRegistrationSchema>) {
  const invite = await findOpenInvitation(tx, orgId, input.token);
  if (!invite) throw badRequest('Invalid or expired invite link.');
  const spent = await tx
    .update(invitations)
    .set({ usedAt: new Date() })
    .where(and(eq(invitations.orgId, orgId), eq(invitations.id, invite.id), isNull(invitations.usedAt)))
    .returning({ id: invitations.id });
  if (spent.length === 0) throw badRequest('Invalid or expired invite link.');
  await tx
    .update(users)
    .set({
      firstName: input.firstName,
      lastName: input.lastName,
      phoneNumber: input.phoneNumber,
      passwordHash: await hashPassword(input.password),
      inviteStatus: 'ACTIVE',
    })
    .where(and(eq(users.orgId, orgId), eq(users.id, invite.userId)));
  return { message: 'Registration complete' };
}

export async function addDemoRequest(db: Db, input: DemoRequestInput) {
  await withoutTenant(db, (tx) => tx.insert(demoRequests).values(input));
  return { message: 'Thank you! We will be in touch shortly.' };
}

export { notFound };
