import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../server/db/client';
import { withTenant } from '../../server/db/client';
import { HttpError } from '../../server/http-error';
import { users } from '../users/users.table';
import { hashToken, newOpaqueToken } from '../auth/tokens';
import { ssoReauthProofs, ssoSettings } from './sso.table';
import { REAUTH_PROOF_SECONDS, SSO_MESSAGES } from './sso.schema';
import { startSso, SsoRefused, verifiedAnswer, type SsoContext } from './sso.service';
import { readOrgRow } from '../../server/db/org-rows';

/**
 * A signer's fresh sign-in with the identity provider (issue 44, decision 078 addendum): a person who signs in only
 * through single sign-on has no password to give a sign-off step. The step asks the provider for a new sign-in
 * (`prompt=login`, `max_age=0`); the callback's answer is checked like a sign-in's, must name the signed-in person
 * (their e-mail) and carry an `auth_time` not older than the request; it yields a proof, bound to the person and the
 * step, good for REAUTH_PROOF_SECONDS and spent by the sign-off that uses it.
 */

/**
 * How the person re-authenticates to sign: 'sso' when single sign-on is on and they have no password, or when the
 * organisation allows only single sign-on and they are no admin (the admins' password stays the break-glass way,
 * as at sign-in); otherwise 'password'.
 */
export async function reauthMethod(db: Db, orgId: number, userId: number) {
  const [row] = await withTenant(
    db,
    orgId,
    (tx) =>
      tx
        .select({
          role: users.role,
          hasPassword: sql<boolean>`${users.passwordHash} is not null`,
          enabled: ssoSettings.enabled,
          ssoOnly: ssoSettings.ssoOnly,
          displayName: ssoSettings.displayName,
        })
        .from(users)
        .leftJoin(ssoSettings, eq(ssoSettings.orgId, users.orgId))
        .where(and(eq(users.orgId, orgId), eq(users.id, userId))),
    { readOnly: true },
  );
  const sso = !!row?.enabled && (!row.hasPassword || (!!row.ssoOnly && row.role !== 'admin'));
  return { method: sso ? ('sso' as const) : ('password' as const), displayName: row?.enabled ? row.displayName : null };
}

/** The first leg of a signer's fresh sign-in: the provider's URL (asking for a new sign-in) and the sealed state. */
export async function startSsoReauth(db: Db, orgId: number, ctx: SsoContext, userId: number, step: { workOrderId: number; stepId: number }) {
  return startSso(db, orgId, ctx, { userId, ...step, requestedAt: Math.floor(Date.now() / 1000) });
}

/**
 * The second leg: the provider's answer verified as a sign-in's is, then bound to the caller: the state must have been
 * started by them for a re-authentication, the provider's person must be them (same e-mail), and the provider must
 * have signed them in at or after the request (`auth_time`). Answers the proof (stored as its hash only).
 */
export async function finishSsoReauth(db: Db, orgId: number, ctx: SsoContext, userId: number, search: string, cookie: string | undefined) {
  // The caller is signed in: a refusal is a 400 (a 401 would say their session ended, and the app would refresh it).
  const { browser, email, claims } = await verifiedAnswer(db, orgId, ctx, search, cookie).catch((err: unknown) => {
    throw err instanceof SsoRefused && err.statusCode === 401 ? new SsoRefused(400, err.message, err.reason) : err;
  });
  const asked = browser.reauth;
  if (!asked || asked.userId !== userId) throw new SsoRefused(400, SSO_MESSAGES.notCompleted, 'state of no re-authentication of this person');
  // A sign-in kept by the provider (no new password typed) is no re-authentication.
  if (typeof claims.auth_time !== 'number' || claims.auth_time < asked.requestedAt) {
    throw new SsoRefused(400, SSO_MESSAGES.reauthNotFresh, `auth_time ${String(claims.auth_time)} before the request ${asked.requestedAt}`);
  }
  const expiresAt = new Date(Date.now() + REAUTH_PROOF_SECONDS * 1000);
  const proof = newOpaqueToken();
  const stored = await withTenant(db, orgId, async (tx) => {
    const [me] = await tx
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.orgId, orgId), eq(users.id, userId), eq(users.inviteStatus, 'ACTIVE')));
    if (!me || me.email.toLowerCase() !== email) return false;
    // Proofs never used are cleared as new ones are made.
    await tx.delete(ssoReauthProofs).where(and(eq(ssoReauthProofs.orgId, orgId), lt(ssoReauthProofs.expiresAt, new Date())));
    await tx.insert(ssoReauthProofs).values({ orgId, proofHash: proof.hash, userId, workOrderId: asked.workOrderId, stepId: asked.stepId, expiresAt });
    return true;
  });
  if (!stored) throw new SsoRefused(403, SSO_MESSAGES.reauthOtherPerson, 'another person signed in at the provider');
  return { proof: proof.token, workOrderId: asked.workOrderId, stepId: asked.stepId, expiresAt: expiresAt.toISOString() };
}

/**
 * Spends a proof for this person's signature of this step, in the sign-off's own transaction (rolled back with it):
 * unknown, expired, of another person or another step, or already spent, it is a 400 on `reauthProof`. Answers the
 * signer's name as the signature carries it.
 */
export async function spendReauthProof(tx: Tx, orgId: number, userId: number, step: { workOrderId: number; stepId: number }, proof: string) {
  const spent = await tx
    .delete(ssoReauthProofs)
    .where(
      and(
        eq(ssoReauthProofs.orgId, orgId),
        eq(ssoReauthProofs.proofHash, hashToken(proof)),
        eq(ssoReauthProofs.userId, userId),
        eq(ssoReauthProofs.workOrderId, step.workOrderId),
        eq(ssoReauthProofs.stepId, step.stepId),
        gt(ssoReauthProofs.expiresAt, new Date()),
      ),
    )
    .returning({ userId: ssoReauthProofs.userId });
  if (spent.length === 0) throw new HttpError(400, SSO_MESSAGES.proofInvalid, [{ path: 'reauthProof', message: SSO_MESSAGES.proofInvalid }]);
  const user = await readOrgRow(tx, users, { firstName: users.firstName, lastName: users.lastName }, orgId, userId);
  return { name: `${user?.firstName ?? ''} ${user?.lastName ?? ''}`.trim() };
}
