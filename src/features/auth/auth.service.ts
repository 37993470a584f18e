import { and, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, ReadTx } from '../../server/db/client';
import { withoutTenant, withTenant } from '../../server/db/client';
import { demoRequests, invitations, organizations, sessions, users } from '../../server/db/schema';
import { HttpError, badRequest, conflict, notFound, unauthorized } from '../../server/http-error';
import { dummyHash, hashPassword, verifyPassword } from '../../server/passwords';
import { startLoginAttempt, type LoginLimits } from '../../server/rate-limit';
import { pgCode } from '../../server/db/pg-code';
import type { completeRegistrationSchema, DemoRequestInput, LoginInput, signupSchema } from './auth.schema';
import { hashToken, newOpaqueToken, signAccessToken, type AccessClaims, type Role } from './tokens';
import { issueSession, REFRESH_TOKEN_DAYS, type SignInClient } from './sessions.service';
import { signChallenge, signInGate } from '../two-factor/two-factor.service';
import { param, preparedRead } from '../../server/db/prepared';
import { passwordSignInClosed } from '../sso/sso-policy';
import { SSO_MESSAGES } from '../sso/sso.schema';
import { appendAudit } from '../audit/audit.service';
import { passwordMatches } from './password-check';
import { readOrgRow } from '../../server/db/org-rows';
import { insertOrganisation, insertUsers, spendInvitations, writeUser } from './identity-writes';

export { REFRESH_TOKEN_DAYS };
/** Concurrent tabs presenting the just-rotated refresh token within this window stay signed in. */
export const REFRESH_GRACE_SECONDS = 30;
/** A password change is accepted only this long after the current password was verified. */
export const PASSWORD_VERIFY_WINDOW_SECONDS = 5 * 60;

export const LOGIN_FAILURE = 'Invalid email or password';

/**
 * Creates the organisation and its first user (role admin), in one transaction: a failure after the organisation
 * leaves no organisation without a user (its subdomain taken for ever). The subdomain is unique across all
 * organisations.
 */
export async function signup(db: Db, input: Omit<z.output<typeof signupSchema>, 'timeZone'> & { timeZone?: string }, client: SignInClient = {}) {
  const passwordHash = await hashPassword(input.password);
  try {
    const org = await withoutTenant(db, async (tx) => {
      const created = await insertOrganisation(tx, {
        organization: input.organization,
        subdomain: input.subdomainName,
        numberOfWorkers: input.numberOfWorkers,
        timeZone: input.timeZone ?? 'UTC',
      });
      // The new organisation's rows are walled by row-level security: name it for the rest of this transaction.
      await tx.execute(sql`select set_config('app.org_id', ${String(created.id)}, true)`);
      const [admin] = await insertUsers(tx, [
        {
          orgId: created.id,
          email: input.email,
          passwordHash,
          // The creator gives no name at signup: start from the e-mail's local part (DESIGN 11).
          firstName: input.email.split('@')[0].slice(0, 100),
          role: 'admin',
          inviteStatus: 'ACTIVE',
        },
      ]);
      // The chain's first row (decision 078 addendum): the organisation and its admin, by the person signing up.
      await appendAudit(tx, created.id, {
        actorKind: 'user',
        userId: admin.id,
        actorLabel: input.email.toLowerCase(),
        ip: client.ip ?? null,
        userAgent: client.userAgent ?? null,
        method: 'POST',
        route: '/api/signup',
        action: 'sign-up',
        records: [
          { entityType: 'organization', entityId: created.id, action: 'created', changes: { subdomain: { from: null, to: created.subdomain } } },
          { entityType: 'user', entityId: admin.id, action: 'created', changes: { role: { from: null, to: 'admin' } } },
        ],
        input,
      });
      return created;
    });
    return { message: 'Organization registered successfully', subdomain: org.subdomain };
  } catch (err) {
    if (pgCode(err) === '23505') throw conflict('This subdomain is already taken', 'subdomainName');
    throw err;
  }
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

type SignedIn = { accessToken: string; refreshToken: string; twoFactor?: undefined };
type TwoFactorChallenge = { twoFactor: 'verify' | 'enrol'; challenge: string };

/**
 * Signs a user in on their organisation's host: a new session, an access token and a refresh token. A person with
 * a second factor, or who must enrol one, gets a short-lived challenge instead (decision 076); those without keep
 * the spec's answer unchanged.
 */
export async function login(
  db: Db,
  orgId: number,
  input: LoginInput,
  ip: string,
  secret: string,
  limits: LoginLimits,
  client: SignInClient = { ip },
): Promise<SignedIn | TwoFactorChallenge> {
  const attempt = await startLoginAttempt(db, orgId, input.email, ip, limits);
  // One read, the hash checked with no transaction open, then one short write (decision 021).
  const [user] = await withTenant(
    db,
    orgId,
    (tx) =>
      tx
        .select({ id: users.id, role: users.role, passwordHash: users.passwordHash, inviteStatus: users.inviteStatus, tokenVersion: users.tokenVersion })
        .from(users)
        .where(and(eq(users.orgId, orgId), eq(sql`lower(${users.email})`, input.email))),
    { readOnly: true },
  );
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyHash()), input.password);
  if (!user || !ok || user.inviteStatus !== 'ACTIVE') throw unauthorized(LOGIN_FAILURE);
  // Single sign-on only: admins keep the password as the break-glass way in (decision 077).
  if (user.role !== 'admin' && (await passwordSignInClosed(db, orgId))) throw new HttpError(403, SSO_MESSAGES.ssoOnly);
  const gate = await withTenant(db, orgId, (tx) => signInGate(tx, orgId, user), { readOnly: true });
  await attempt.succeeded();
  if (gate !== 'none') {
    return { twoFactor: gate, challenge: await signChallenge(secret, { userId: user.id, orgId, tokenVersion: user.tokenVersion, step: gate }) };
  }
  const { accessToken, refreshToken } = await issueSession(db, orgId, user, secret, client);
  return { accessToken, refreshToken };
}

/**
 * What a token's caller may do now: the user's current role, or null when the session is revoked or expired,
 * the user deleted or not active, or the token older than the user's last password change. One read by
 * primary keys on every authenticated request (decision 021).
 */
export async function currentRole(db: Db, claims: AccessClaims): Promise<Role | null> {
  // Read on every request, never kept: a change made through any instance applies to the next request on all
  // of them (decision 021, addendum 2).
  const values = { orgId: claims.orgId, sessionId: claims.sessionId, userId: claims.userId };
  const [row] = await withTenant(
    db,
    claims.orgId,
    (tx) =>
      preparedRead(
        tx,
        'auth.currentRole',
        () =>
          tx
            .select({ role: users.role, tokenVersion: users.tokenVersion })
            .from(sessions)
            .innerJoin(users, and(eq(users.orgId, sessions.orgId), eq(users.id, sessions.userId)))
            .where(
              and(
                eq(sessions.orgId, param('orgId')),
                eq(sessions.id, param('sessionId')),
                eq(sessions.userId, param('userId')),
                isNull(sessions.revokedAt),
                gt(sessions.expiresAt, sql`now()`),
                eq(users.inviteStatus, 'ACTIVE'),
              ),
            ),
        values,
        // Two primary-key lookups: one plan serves every organisation (decision 019).
        { onePlan: true },
      ),
    { readOnly: true },
  );
  if (!row || row.tokenVersion !== claims.tokenVersion) return null;
  return row.role;
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
    const user = await readOrgRow(tx, users, { role: users.role, inviteStatus: users.inviteStatus, tokenVersion: users.tokenVersion }, orgId, session.userId);
    if (!user || user.inviteStatus !== 'ACTIVE') return null;
    const claims = { userId: session.userId, orgId, role: user.role, sessionId: session.id, tokenVersion: user.tokenVersion };
    if (session.refreshHash !== hash) {
      const age = (Date.now() - (session.rotatedAt?.getTime() ?? 0)) / 1000;
      if (age > REFRESH_GRACE_SECONDS) {
        await tx
          .update(sessions)
          .set({ revokedAt: new Date() })
          .where(and(eq(sessions.orgId, orgId), eq(sessions.id, session.id)));
        return 'reused' as const;
      }
      return { accessToken: await signAccessToken(secret, claims), refreshToken: undefined };
    }
    const next = newOpaqueToken();
    await tx
      .update(sessions)
      .set({ refreshHash: next.hash, previousHash: hash, rotatedAt: new Date(), lastSeenAt: new Date() })
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

/**
 * Checks the signed-in user's current password; a success opens the password-change window for this session.
 * The hash is checked between a read and a short write, never inside a transaction (decision 021).
 */
export async function verifyCurrentPassword(db: Db, orgId: number, userId: number, sessionId: number, password: string) {
  if (!(await passwordMatches(db, orgId, userId, password))) {
    throw new HttpError(400, 'Current password is incorrect', [{ path: 'currentPassword', message: 'Current password is incorrect' }]);
  }
  await withTenant(db, orgId, (tx) =>
    tx
      .update(sessions)
      .set({ passwordVerifiedAt: new Date() })
      .where(and(eq(sessions.orgId, orgId), eq(sessions.id, sessionId))),
  );
  return { message: 'Password verified' };
}

const NOT_VERIFIED = 'Please verify your current password first';

/** The window after verify-password is open on this session (the condition, for a read and for the write). */
const verifiedWithinWindow = (orgId: number, sessionId: number) =>
  and(
    eq(sessions.orgId, orgId),
    eq(sessions.id, sessionId),
    isNull(sessions.revokedAt),
    gt(sessions.passwordVerifiedAt, new Date(Date.now() - PASSWORD_VERIFY_WINDOW_SECONDS * 1000)),
  );

/**
 * Sets a new password within the window after verify-password. The user's other sessions are revoked and the
 * token version bumped, so every access token signed before (this session's too) stops working; this
 * session gets a new one from /refresh. The new hash is made before the write's transaction opens.
 */
export async function resetPassword(db: Db, orgId: number, userId: number, sessionId: number, newPassword: string) {
  const open = await withTenant(db, orgId, (tx) => tx.select({ id: sessions.id }).from(sessions).where(verifiedWithinWindow(orgId, sessionId)), {
    readOnly: true,
  });
  if (open.length === 0) throw new HttpError(403, NOT_VERIFIED);
  const passwordHash = await hashPassword(newPassword);
  await withTenant(db, orgId, async (tx) => {
    // The window is spent by the write that uses it: two changes at once cannot both pass.
    const spent = await tx.update(sessions).set({ passwordVerifiedAt: null }).where(verifiedWithinWindow(orgId, sessionId)).returning({ id: sessions.id });
    if (spent.length === 0) throw new HttpError(403, NOT_VERIFIED);
    await writeUser(tx, orgId, userId, { passwordHash, tokenVersion: sql`${users.tokenVersion} + 1` });
    await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.orgId, orgId), eq(sessions.userId, userId), ne(sessions.id, sessionId), isNull(sessions.revokedAt)));
  });
  return { message: 'Password has been updated successfully' };
}

/** The invitation behind a token, if it is unused and unexpired. */
async function findOpenInvitation(tx: ReadTx, orgId: number, token: string) {
  const [row] = await tx
    .select({ id: invitations.id, userId: invitations.userId, email: users.email })
    .from(invitations)
    .innerJoin(users, and(eq(users.orgId, invitations.orgId), eq(users.id, invitations.userId)))
    .where(and(eq(invitations.orgId, orgId), eq(invitations.tokenHash, hashToken(token)), isNull(invitations.usedAt), gt(invitations.expiresAt, new Date())));
  return row ?? null;
}

export async function verifyInviteToken(tx: ReadTx, orgId: number, token: string) {
  const invite = await findOpenInvitation(tx, orgId, token);
  if (!invite) throw badRequest('Invalid or expired invite link.');
  return { valid: true, email: invite.email };
}

/**
 * The invited user sets their name, phone and password; the token is spent. The token is checked first (an
 * invalid link costs no hash), the hash made outside any transaction, then the write spends the token again
 * under its own condition, so a link used twice at once completes once.
 */
export async function completeRegistration(db: Db, orgId: number, input: z.output<typeof completeRegistrationSchema>) {
  const found = await withTenant(db, orgId, (tx) => findOpenInvitation(tx, orgId, input.token), { readOnly: true });
  if (!found) throw badRequest('Invalid or expired invite link.');
  const passwordHash = await hashPassword(input.password);
  await withTenant(db, orgId, async (tx) => {
    const invite = await findOpenInvitation(tx, orgId, input.token);
    if (!invite) throw badRequest('Invalid or expired invite link.');
    const spent = await spendInvitations(tx, orgId, { invitationId: invite.id });
    if (spent.length === 0) throw badRequest('Invalid or expired invite link.');
    await writeUser(tx, orgId, invite.userId, {
      firstName: input.firstName,
      lastName: input.lastName,
      phoneNumber: input.phoneNumber,
      passwordHash,
      inviteStatus: 'ACTIVE',
    });
  });
  return { message: 'Registration complete' };
}

export async function addDemoRequest(db: Db, input: DemoRequestInput) {
  await withoutTenant(db, (tx) => tx.insert(demoRequests).values(input));
  return { message: 'Thank you! We will be in touch shortly.' };
}

export { notFound };

/**
 * Re-authentication of a signer (a procedure's sign-off step, decision 078): the user's password checked again,
 * outside any transaction (decision 021), and their name as the signature will carry it. A wrong password is a 400
 * on `password`; the route is throttled like verify-password. Hook for single sign-on: a user who signs in only
 * through their identity provider has no password to give; the sign-on helper replaces this check for them with
 * a fresh sign-in (decision 078 leaves it to that work).
 */
export async function reauthenticateSigner(db: Db, orgId: number, userId: number, password: string, wrong: string) {
  const [user] = await withTenant(
    db,
    orgId,
    (tx) =>
      tx
        .select({ passwordHash: users.passwordHash, firstName: users.firstName, lastName: users.lastName })
        .from(users)
        .where(and(eq(users.orgId, orgId), eq(users.id, userId))),
    { readOnly: true },
  );
  if (!user || !(await verifyPassword(user.passwordHash, password))) throw new HttpError(400, wrong, [{ path: 'password', message: wrong }]);
  return { name: `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim() };
}
