import { createHash, hkdfSync, randomBytes } from 'node:crypto';
import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { jwtVerify, SignJWT } from 'jose';
import { Secret, TOTP } from 'otpauth';
import type { Db, ReadTx, Tx } from '../../server/db/client';
import { withTenant } from '../../server/db/client';
import { organizations, twoFactorEnrolments, twoFactorPolicies, users } from '../../server/db/schema';
import { HttpError, badRequest, conflict, forbidden, notFound, unauthorized } from '../../server/http-error';
import { addressKey, clearRateLimit, hitRateLimit, type LoginLimits } from '../../server/rate-limit';
import { now } from '../../server/clock';
import type { SecretBox } from '../../server/secret-box';
import { issueSession, type SignInClient } from '../auth/sessions.service';
import type { Role } from '../auth/tokens';
import { INVALID_CODE, type TwoFactorPolicy } from './two-factor.schema';
import { passwordMatches } from '../auth/password-check';
import { readOrgRow } from '../../server/db/org-rows';

/** RFC 6238 as every authenticator app reads it: SHA-1, six digits, 30-second steps; one step either side accepted. */
const PERIOD = 30;
const WINDOW = 1;
export const RECOVERY_CODES = 10;
/** How long a sign-in's second step may wait after the password. */
export const CHALLENGE_SECONDS = 5 * 60;
const EXPIRED = 'Session expired, please sign in again';

// --- The secret at rest: sealed under ENCRYPTION_KEY (decision 083), never returned after enrolment.

/** A stored secret that no key of this server opens: the person signs in with a recovery code or is reset. */
function openSecret(box: SecretBox, sealed: string) {
  const secret = box.open('two-factor-secret', sealed);
  if (secret === null) throw new HttpError(503, 'The two-factor secret cannot be read: the server lacks its encryption key');
  return secret;
}

/** Challenge tokens are signed under a key derived from JWT_SECRET (they live five minutes). */
const keyOf = (serverSecret: string, purpose: string) => Buffer.from(hkdfSync('sha256', serverSecret, 'cmms', purpose, 32));

const totpOf = (base32: string, label = '', issuer = '') =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(base32) });

/** The time step a code belongs to (within the window around the application's now), or null. */
function matchingStep(base32: string, code: string): number | null {
  const timestamp = now().getTime();
  const totp = totpOf(base32);
  const delta = totp.validate({ token: code, timestamp, window: WINDOW });
  return delta === null ? null : totp.counter({ timestamp }) + delta;
}

// --- Recovery codes: ten random codes shown once, stored as SHA-256 hashes (50 random bits each: no slow hash needed).

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export function newRecoveryCode() {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}
export const hashRecoveryCode = (code: string) =>
  createHash('sha256')
    .update(code.toLowerCase().replace(/[^a-z0-9]/g, ''))
    .digest('hex');

// --- Who must use a second factor.

export async function getPolicy(tx: ReadTx, orgId: number): Promise<{ required: TwoFactorPolicy }> {
  const [row] = await tx.select({ required: twoFactorPolicies.required }).from(twoFactorPolicies).where(eq(twoFactorPolicies.orgId, orgId));
  return { required: row?.required ?? 'off' };
}

const mustUse = (policy: TwoFactorPolicy, role: Role) => policy === 'everyone' || (policy === 'admins' && role === 'admin');

export async function enrolmentOf(tx: ReadTx, orgId: number, userId: number) {
  const [row] = await tx
    .select()
    .from(twoFactorEnrolments)
    .where(and(eq(twoFactorEnrolments.orgId, orgId), eq(twoFactorEnrolments.userId, userId)));
  return row;
}

/**
 * The admin's choice. Turning the requirement on needs the admin enrolled first: otherwise their own next sign-in
 * would lock them out of the setting.
 */
export async function updatePolicy(tx: Tx, orgId: number, adminId: number, required: TwoFactorPolicy) {
  if (required !== 'off' && !(await enrolmentOf(tx, orgId, adminId))?.confirmedAt) {
    throw badRequest('Turn on two-factor sign-in for yourself before requiring it', 'required');
  }
  await tx
    .insert(twoFactorPolicies)
    .values({ orgId, required })
    .onConflictDoUpdate({ target: twoFactorPolicies.orgId, set: { required, updatedAt: new Date() } });
  return { required };
}

/** What the password step leads to: tokens ('none'), a code ('verify'), or enrolment first ('enrol'). */
export async function signInGate(tx: ReadTx, orgId: number, user: { id: number; role: Role }): Promise<'none' | 'verify' | 'enrol'> {
  const enrolment = await enrolmentOf(tx, orgId, user.id);
  if (enrolment?.confirmedAt) return 'verify';
  return mustUse((await getPolicy(tx, orgId)).required, user.role) ? 'enrol' : 'none';
}

// --- The challenge between the password and the second step: a short-lived signed token, not an access token.

interface Challenge {
  userId: number;
  orgId: number;
  tokenVersion: number;
  step: 'verify' | 'enrol';
}

export async function signChallenge(serverSecret: string, c: Challenge) {
  return new SignJWT({ org: c.orgId, ver: c.tokenVersion, step: c.step })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(c.userId))
    .setAudience('two-factor')
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + CHALLENGE_SECONDS)
    .sign(keyOf(serverSecret, 'two-factor challenge'));
}

async function readChallenge(serverSecret: string, token: string, orgId: number, step: Challenge['step']) {
  try {
    const { payload } = await jwtVerify(token, keyOf(serverSecret, 'two-factor challenge'), { algorithms: ['HS256'], audience: 'two-factor' });
    const userId = Number(payload.sub);
    if (payload.org !== orgId || payload.step !== step || !Number.isSafeInteger(userId) || typeof payload.ver !== 'number') throw new Error('mismatch');
    return { userId, tokenVersion: payload.ver };
  } catch {
    throw unauthorized(EXPIRED);
  }
}

/**
 * Counts one second-step attempt like a password attempt (decision 022): per person and address, per person from
 * all addresses, per address. Called before the code is checked; `succeeded` forgets the person-and-address count.
 */
async function startCodeAttempt(db: Db, orgId: number, userId: number, ip: string, limits: LoginLimits) {
  const address = addressKey(ip);
  const pair = `2fa:${orgId}:${userId}:ip:${address}`;
  const hits = [
    [await hitRateLimit(db, `login:ip:${address}`, limits.windowSeconds), limits.perIp],
    [await hitRateLimit(db, pair, limits.windowSeconds), limits.perAccount],
    [await hitRateLimit(db, `2fa:${orgId}:${userId}`, limits.windowSeconds), limits.perAccountAllAddresses ?? limits.perAccount * 5],
  ] as const;
  for (const [hit, max] of hits) {
    if (hit.hits > max) {
      const minutes = Math.ceil(hit.retryAfter / 60);
      throw new HttpError(429, `Too many login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
    }
  }
  return { succeeded: () => clearRateLimit(db, pair) };
}

/** The person the challenge names, still active and with no password change since. */
async function challengedUser(tx: ReadTx, orgId: number, c: { userId: number; tokenVersion: number }) {
  const user = await readOrgRow(
    tx,
    users,
    { id: users.id, role: users.role, tokenVersion: users.tokenVersion, email: users.email, inviteStatus: users.inviteStatus },
    orgId,
    c.userId,
  );
  if (!user || user.inviteStatus !== 'ACTIVE' || user.tokenVersion !== c.tokenVersion) throw unauthorized(EXPIRED);
  return user;
}

/** Spends a code of the confirmed enrolment: the step must be later than the last one used (no replay). */
async function spendCode(tx: Tx, box: SecretBox, orgId: number, userId: number, code: string) {
  const enrolment = await enrolmentOf(tx, orgId, userId);
  if (!enrolment?.confirmedAt || !/^\d{6}$/.test(code.replace(/\s+/g, ''))) return false;
  const secret = openSecret(box, enrolment.secretCipher);
  const step = matchingStep(secret, code.replace(/\s+/g, ''));
  if (step === null) return false;
  // A secret sealed under a previous key (or JWT_SECRET's legacy one) is sealed again under the current key.
  const resealed = box.isCurrent(enrolment.secretCipher) ? {} : { secretCipher: box.seal('two-factor-secret', secret) };
  const spent = await tx
    .update(twoFactorEnrolments)
    .set({ lastStep: step, ...resealed })
    .where(
      and(
        eq(twoFactorEnrolments.orgId, orgId),
        eq(twoFactorEnrolments.userId, userId),
        isNotNull(twoFactorEnrolments.confirmedAt),
        or(isNull(twoFactorEnrolments.lastStep), lt(twoFactorEnrolments.lastStep, step)),
      ),
    )
    .returning({ userId: twoFactorEnrolments.userId });
  return spent.length > 0;
}

/** Spends one recovery code: removed from the list by the same statement that finds it, so it works once. */
async function spendRecoveryCode(tx: Tx, orgId: number, userId: number, code: string) {
  const hash = hashRecoveryCode(code);
  const spent = await tx
    .update(twoFactorEnrolments)
    .set({ recoveryHashes: sql`array_remove(${twoFactorEnrolments.recoveryHashes}, ${hash})` })
    .where(
      and(
        eq(twoFactorEnrolments.orgId, orgId),
        eq(twoFactorEnrolments.userId, userId),
        isNotNull(twoFactorEnrolments.confirmedAt),
        sql`${hash} = any(${twoFactorEnrolments.recoveryHashes})`,
      ),
    )
    .returning({ userId: twoFactorEnrolments.userId });
  return spent.length > 0;
}

export interface SignInContext {
  ip: string;
  serverSecret: string;
  box: SecretBox;
  limits: LoginLimits;
  client: SignInClient;
}

/** The sign-in's second step: a code or a recovery code, then the same session as a password-only sign-in. */
export async function verifySignIn(db: Db, orgId: number, input: { challenge: string; code?: string; recoveryCode?: string }, ctx: SignInContext) {
  const challenge = await readChallenge(ctx.serverSecret, input.challenge, orgId, 'verify');
  const attempt = await startCodeAttempt(db, orgId, challenge.userId, ctx.ip, ctx.limits);
  const user = await withTenant(db, orgId, async (tx) => {
    const found = await challengedUser(tx, orgId, challenge);
    const ok = input.recoveryCode
      ? await spendRecoveryCode(tx, orgId, found.id, input.recoveryCode)
      : await spendCode(tx, ctx.box, orgId, found.id, input.code ?? '');
    return ok ? found : null;
  });
  if (!user) throw unauthorized(INVALID_CODE);
  await attempt.succeeded();
  const { accessToken, refreshToken } = await issueSession(db, orgId, user, ctx.serverSecret, ctx.client);
  return { accessToken, refreshToken };
}

// --- Enrolment.

/** Starts (or restarts) an enrolment: a new secret, its otpauth:// address and QR code; shown this once. */
export async function startEnrolment(tx: Tx, orgId: number, userId: number, box: SecretBox) {
  const user = await readOrgRow(tx, users, { email: users.email }, orgId, userId);
  if (!user) throw notFound('User');
  if ((await enrolmentOf(tx, orgId, userId))?.confirmedAt) throw conflict('Two-factor sign-in is already on');
  const [org] = await tx.select({ name: organizations.organization }).from(organizations).where(eq(organizations.id, orgId));
  const secret = new Secret({ size: 20 }).base32;
  const sealed = box.seal('two-factor-secret', secret);
  await tx
    .insert(twoFactorEnrolments)
    .values({ orgId, userId, secretCipher: sealed })
    .onConflictDoUpdate({
      target: [twoFactorEnrolments.orgId, twoFactorEnrolments.userId],
      set: { secretCipher: sealed, lastStep: null, recoveryHashes: [], createdAt: new Date() },
    });
  const otpauthUrl = totpOf(secret, user.email, org?.name ?? 'CMMS').toString();
  const { default: QRCode } = await import('qrcode');
  const qrCode = await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 220 });
  return { secret, otpauthUrl, qrCode };
}

/** Confirms the started enrolment with a first code; answers the ten recovery codes, shown this once. */
export async function confirmEnrolment(tx: Tx, orgId: number, userId: number, code: string, box: SecretBox) {
  const enrolment = await enrolmentOf(tx, orgId, userId);
  if (!enrolment) throw badRequest('Start the enrolment first');
  if (enrolment.confirmedAt) throw conflict('Two-factor sign-in is already on');
  const step = matchingStep(openSecret(box, enrolment.secretCipher), code);
  if (step === null) throw badRequest(INVALID_CODE, 'code');
  const recoveryCodes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  await tx
    .update(twoFactorEnrolments)
    .set({ confirmedAt: new Date(), lastStep: step, recoveryHashes: recoveryCodes.map(hashRecoveryCode) })
    .where(and(eq(twoFactorEnrolments.orgId, orgId), eq(twoFactorEnrolments.userId, userId), isNull(twoFactorEnrolments.confirmedAt)));
  return { recoveryCodes };
}

/** A person who must enrol does it between the password and their first session (the challenge stands for them). */
export async function startSignInEnrolment(db: Db, orgId: number, challengeToken: string, ctx: SignInContext) {
  const challenge = await readChallenge(ctx.serverSecret, challengeToken, orgId, 'enrol');
  return withTenant(db, orgId, async (tx) => {
    const user = await challengedUser(tx, orgId, challenge);
    return startEnrolment(tx, orgId, user.id, ctx.box);
  });
}

export async function confirmSignInEnrolment(db: Db, orgId: number, input: { challenge: string; code: string }, ctx: SignInContext) {
  const challenge = await readChallenge(ctx.serverSecret, input.challenge, orgId, 'enrol');
  const attempt = await startCodeAttempt(db, orgId, challenge.userId, ctx.ip, ctx.limits);
  const { user, recoveryCodes } = await withTenant(db, orgId, async (tx) => {
    const found = await challengedUser(tx, orgId, challenge);
    return { user: found, ...(await confirmEnrolment(tx, orgId, found.id, input.code, ctx.box)) };
  });
  await attempt.succeeded();
  const { accessToken, refreshToken } = await issueSession(db, orgId, user, ctx.serverSecret, ctx.client);
  return { accessToken, refreshToken, recoveryCodes };
}

export async function getStatus(tx: ReadTx, orgId: number, user: { userId: number; role: Role }) {
  const enrolment = await enrolmentOf(tx, orgId, user.userId);
  return {
    enabled: Boolean(enrolment?.confirmedAt),
    required: mustUse((await getPolicy(tx, orgId)).required, user.role),
    recoveryCodesLeft: enrolment?.confirmedAt ? enrolment.recoveryHashes.length : 0,
  };
}

/**
 * Turns the second factor off with the password and a code (or a recovery code); refused while the organisation
 * requires it of this person. The password is checked outside any transaction (decision 021).
 */
export async function disableTwoFactor(db: Db, orgId: number, user: { userId: number; role: Role }, input: { password: string; code: string }, box: SecretBox) {
  if (!(await passwordMatches(db, orgId, user.userId, input.password))) {
    throw new HttpError(400, 'Current password is incorrect', [{ path: 'password', message: 'Current password is incorrect' }]);
  }
  await withTenant(db, orgId, async (tx) => {
    if (!(await enrolmentOf(tx, orgId, user.userId))?.confirmedAt) throw badRequest('Two-factor sign-in is off');
    if (mustUse((await getPolicy(tx, orgId)).required, user.role)) throw forbidden('Your organisation requires two-factor sign-in');
    const ok = /^\d{6}$/.test(input.code.replace(/\s+/g, ''))
      ? await spendCode(tx, box, orgId, user.userId, input.code)
      : await spendRecoveryCode(tx, orgId, user.userId, input.code);
    if (!ok) throw badRequest(INVALID_CODE, 'code');
    await tx.delete(twoFactorEnrolments).where(and(eq(twoFactorEnrolments.orgId, orgId), eq(twoFactorEnrolments.userId, user.userId)));
  });
  return { message: 'Two-factor sign-in is off' };
}

/** An admin resets a person's enrolment (a lost phone): they sign in with the password alone, or enrol again if required. */
export async function resetTwoFactor(tx: Tx, orgId: number, userId: number) {
  const user = await readOrgRow(tx, users, { id: users.id }, orgId, userId);
  if (!user) throw notFound('User');
  await tx.delete(twoFactorEnrolments).where(and(eq(twoFactorEnrolments.orgId, orgId), eq(twoFactorEnrolments.userId, userId)));
  return { message: 'Two-factor sign-in has been reset' };
}
