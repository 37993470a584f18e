import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { client, createOrg, emailOfUser, useTestApp, type Client, type TestOrg } from '../../server/test/harness';
import { orgRows } from '../../server/test/sql';
import { withTenant } from '../../server/db/client';
import { auditLog, twoFactorEnrolments } from '../../server/db/schema';
import { now, setClockOffset } from '../../server/clock';

const t = useTestApp({ loginLimits: { perIp: 1_000_000, perAccount: 3, windowSeconds: 900 } });
afterEach(() => setClockOffset(0));

/** The code an authenticator app shows now (the application's now, which the tests move by whole steps). */
const codeOf = (secret: string) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: now().getTime() });
let offset = 0;
/** The next 30-second step: a code already used in this one is refused (no replay). */
const nextStep = () => setClockOffset((offset += 30_000));

const emailOf = (orgId: number, userId: number) => emailOfUser(t, orgId, userId);
const userIdOf = (token: string) => Number(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sub);

/** Enrols the client's user through the signed-in routes; the secret shown and the ten recovery codes. */
async function enrol(c: Client) {
  const start = await c.post('/api/two-factor/start-enrolment');
  expect(start.status).toBe(200);
  const confirm = await c.post('/api/two-factor/confirm-enrolment', { code: codeOf(start.body.secret) });
  expect(confirm.status).toBe(200);
  nextStep();
  return { secret: start.body.secret as string, recoveryCodes: confirm.body.recoveryCodes as string[] };
}

async function passwordStep(org: TestOrg, email = org.email) {
  const res = await org.anonymous.post('/api/login', { email, password: org.password });
  expect(res.status).toBe(200);
  return res.body as { twoFactor?: string; challenge?: string; accessToken?: string };
}

describe('enrolment', () => {
  it('starts with a secret, an otpauth address and a QR code, confirms with a code and shows ten recovery codes once', async () => {
    const org = await createOrg(t);
    expect((await org.admin.get('/api/two-factor/get-status')).body).toEqual({ enabled: false, required: false, recoveryCodesLeft: 0 });
    const start = await org.admin.post('/api/two-factor/start-enrolment');
    expect(start.status).toBe(200);
    expect(start.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(start.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/.+\?.*secret=/);
    expect(start.body.qrCode).toMatch(/^data:image\/png;base64,/);
    // the secret is kept encrypted, never in clear
    const [row] = await withTenant(t.database.db, org.orgId, (tx) => tx.select().from(twoFactorEnrolments).where(eq(twoFactorEnrolments.orgId, org.orgId)));
    expect(row.secretCipher).not.toContain(start.body.secret);
    expect(row.confirmedAt).toBeNull();

    const wrong = await org.admin.post('/api/two-factor/confirm-enrolment', { code: '000000' === codeOf(start.body.secret) ? '111111' : '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.issues).toEqual([{ path: 'code', message: 'Invalid two-factor code' }]);
    const malformed = await org.admin.post('/api/two-factor/confirm-enrolment', { code: '12ab' });
    expect(malformed.body.issues).toEqual([{ path: 'code', message: 'The code has 6 digits' }]);

    const confirm = await org.admin.post('/api/two-factor/confirm-enrolment', { code: codeOf(start.body.secret) });
    expect(confirm.status).toBe(200);
    expect(confirm.body.recoveryCodes).toHaveLength(10);
    expect(new Set(confirm.body.recoveryCodes).size).toBe(10);
    expect((await org.admin.get('/api/two-factor/get-status')).body).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 });
    // enrolled: no second start (the secret is never shown again), no second confirmation
    expect((await org.admin.post('/api/two-factor/start-enrolment')).status).toBe(409);
    const [after] = await withTenant(t.database.db, org.orgId, (tx) => tx.select().from(twoFactorEnrolments).where(eq(twoFactorEnrolments.orgId, org.orgId)));
    expect(after.recoveryHashes.join()).not.toContain(confirm.body.recoveryCodes[0]);
  });

  it('turns off with the password and a code, not without', async () => {
    const org = await createOrg(t);
    const { secret } = await enrol(org.admin);
    expect((await org.admin.post('/api/two-factor/disable', { password: 'wrong-password', code: codeOf(secret) })).status).toBe(400);
    expect((await org.admin.post('/api/two-factor/disable', { password: org.password, code: '123' })).status).toBe(400);
    const off = await org.admin.post('/api/two-factor/disable', { password: org.password, code: codeOf(secret) });
    expect(off.status).toBe(200);
    expect((await passwordStep(org)).accessToken).toBeTruthy();
  });
});

describe('recovery codes made again (decision 083)', () => {
  it('asks the password again, voids the old codes, answers ten new ones once, and is in the audit log with the password masked', async () => {
    const org = await createOrg(t);
    const off = await org.admin.post('/api/two-factor/regenerate-recovery-codes', { password: org.password });
    expect(off.status).toBe(400);
    expect(off.body.error).toBe('Two-factor sign-in is off');
    const { recoveryCodes: old } = await enrol(org.admin);
    const wrong = await org.admin.post('/api/two-factor/regenerate-recovery-codes', { password: 'wrong-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.issues).toEqual([{ path: 'password', message: 'Current password is incorrect' }]);
    // refused: the old codes still stand
    expect((await org.admin.get('/api/two-factor/get-status')).body.recoveryCodesLeft).toBe(10);

    const again = await org.admin.post('/api/two-factor/regenerate-recovery-codes', { password: org.password });
    expect(again.status).toBe(200);
    const fresh = again.body.recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => old.includes(code))).toEqual([]);
    const oldUse = await org.anonymous.post('/api/auth/verify-two-factor', { challenge: (await passwordStep(org)).challenge, recoveryCode: old[0] });
    expect(oldUse.status).toBe(401);
    const newUse = await org.anonymous.post('/api/auth/verify-two-factor', { challenge: (await passwordStep(org)).challenge, recoveryCode: fresh[0] });
    expect(newUse.status).toBe(200);
    expect((await org.admin.get('/api/two-factor/get-status')).body.recoveryCodesLeft).toBe(9);

    const rows = await orgRows(t.database.db, org.orgId, auditLog, eq(auditLog.route, '/api/two-factor/regenerate-recovery-codes'));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0])).not.toContain(org.password);
    expect(JSON.stringify(rows[0])).not.toContain(fresh[1]);
  });
});

describe('sign-in with a second factor', () => {
  it('answers a challenge instead of tokens, then signs in with a code; the same code twice is refused', async () => {
    const org = await createOrg(t);
    const { secret } = await enrol(org.admin);
    const first = await passwordStep(org);
    expect(first).toEqual({ twoFactor: 'verify', challenge: expect.any(String) });
    expect(first.accessToken).toBeUndefined();
    // the challenge is no access token
    expect((await client(t.app, org.host, first.challenge).get('/api/user/get-app-data')).status).toBe(401);

    const code = codeOf(secret);
    const ok = await org.anonymous.post('/api/auth/verify-two-factor', { challenge: first.challenge, code });
    expect(ok.status).toBe(200);
    expect(String(ok.headers['set-cookie'])).toMatch(/refresh_token=.*HttpOnly/i);
    expect((await client(t.app, org.host, ok.body.accessToken).get('/api/user/get-app-data')).status).toBe(200);

    const again = await passwordStep(org);
    const replay = await org.anonymous.post('/api/auth/verify-two-factor', { challenge: again.challenge, code });
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe('Invalid two-factor code');
    // a forged or foreign challenge is refused
    expect((await org.anonymous.post('/api/auth/verify-two-factor', { challenge: 'x.y.z', code })).body.error).toBe('Session expired, please sign in again');
  });

  it('signs in with a recovery code, each once', async () => {
    const org = await createOrg(t);
    const { recoveryCodes } = await enrol(org.admin);
    const { challenge } = await passwordStep(org);
    const ok = await org.anonymous.post('/api/auth/verify-two-factor', { challenge, recoveryCode: recoveryCodes[3].toUpperCase() });
    expect(ok.status).toBe(200);
    expect(typeof ok.body.accessToken).toBe('string');
    expect((await client(t.app, org.host, ok.body.accessToken).get('/api/two-factor/get-status')).body.recoveryCodesLeft).toBe(9);
    const twice = await org.anonymous.post('/api/auth/verify-two-factor', { challenge: (await passwordStep(org)).challenge, recoveryCode: recoveryCodes[3] });
    expect(twice.status).toBe(401);
    expect(twice.body.error).toBe('Invalid two-factor code');
  });

  it('throttles wrong codes like passwords', async () => {
    const org = await createOrg(t);
    const { secret } = await enrol(org.admin);
    const { challenge } = await passwordStep(org);
    const wrong = codeOf(secret) === '000000' ? '111111' : '000000';
    for (let i = 0; i < 3; i += 1) expect((await org.anonymous.post('/api/auth/verify-two-factor', { challenge, code: wrong })).status).toBe(401);
    const limited = await org.anonymous.post('/api/auth/verify-two-factor', { challenge, code: codeOf(secret) });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatch(/^Too many login attempts\. Please try again in \d+ minutes?\.$/);
  });

  it('keeps the spec’s answer for people without a second factor', async () => {
    const org = await createOrg(t);
    const res = await org.anonymous.post('/api/login', { email: org.email, password: org.password });
    expect(Object.keys(res.body)).toEqual(['accessToken']);
  });
});

describe('the organisation’s requirement', () => {
  it('sends a person who must and has not enrolled to enrolment, then signs them in with their recovery codes shown', async () => {
    const org = await createOrg(t);
    // the admin enrols before requiring it of anyone
    const refused = await org.admin.put('/api/two-factor/update-policy', { required: 'everyone' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('Turn on two-factor sign-in for yourself before requiring it');
    await enrol(org.admin);
    const worker = await org.as('worker');
    expect((await worker.put('/api/two-factor/update-policy', { required: 'off' })).status).toBe(403);
    expect((await org.admin.put('/api/two-factor/update-policy', { required: 'admins' })).body).toEqual({ required: 'admins' });
    const workerEmail = await emailOf(org.orgId, worker.userId);
    expect((await passwordStep(org, workerEmail)).accessToken).toBeTruthy();

    expect((await org.admin.put('/api/two-factor/update-policy', { required: 'everyone' })).status).toBe(200);
    expect((await org.admin.get('/api/two-factor/get-policy')).body).toEqual({ required: 'everyone' });
    const step = await passwordStep(org, workerEmail);
    expect(step).toEqual({ twoFactor: 'enrol', challenge: expect.any(String) });
    // the enrolment challenge does not stand for a code
    expect((await org.anonymous.post('/api/auth/verify-two-factor', { challenge: step.challenge, code: '123456' })).status).toBe(401);
    const start = await org.anonymous.post('/api/auth/start-two-factor-enrolment', { challenge: step.challenge });
    expect(start.status).toBe(200);
    const done = await org.anonymous.post('/api/auth/confirm-two-factor-enrolment', { challenge: step.challenge, code: codeOf(start.body.secret) });
    expect(done.status).toBe(200);
    expect(done.body.recoveryCodes).toHaveLength(10);
    const signedIn = client(t.app, org.host, done.body.accessToken);
    expect((await signedIn.get('/api/two-factor/get-status')).body).toEqual({ enabled: true, required: true, recoveryCodesLeft: 10 });
    // required: it cannot be turned off
    nextStep();
    expect((await signedIn.post('/api/two-factor/disable', { password: org.password, code: codeOf(start.body.secret) })).status).toBe(403);
    // the next sign-in asks for the code
    expect((await passwordStep(org, workerEmail)).twoFactor).toBe('verify');
  });

  it('lets an admin reset a person’s enrolment; another organisation gets 404 and changes nothing', async () => {
    const org = await createOrg(t);
    const other = await createOrg(t, 'Other');
    const manager = await org.as('manager');
    await enrol(manager);
    const managerEmail = await emailOf(org.orgId, manager.userId);
    expect((await passwordStep(org, managerEmail)).twoFactor).toBe('verify');

    expect((await manager.post(`/api/user/reset-two-factor/${manager.userId}`)).status).toBe(403);
    expect((await other.admin.post(`/api/user/reset-two-factor/${manager.userId}`)).status).toBe(404);
    expect((await other.admin.post('/api/user/reset-two-factor/999999')).status).toBe(404);
    expect((await passwordStep(org, managerEmail)).twoFactor).toBe('verify');

    const reset = await org.admin.post(`/api/user/reset-two-factor/${manager.userId}`);
    expect(reset.status).toBe(200);
    expect(reset.body.message).toBe('Two-factor sign-in has been reset');
    expect((await passwordStep(org, managerEmail)).accessToken).toBeTruthy();
    expect(userIdOf((await passwordStep(org, managerEmail)).accessToken!)).toBe(manager.userId);
  });
});
