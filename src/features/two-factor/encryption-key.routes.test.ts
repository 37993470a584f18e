import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { client, createOrg, createTestApp, type TestApp, type TestOrg } from '../../server/test/harness';
import { withTenant } from '../../server/db/client';
import { ssoSettings, twoFactorEnrolments } from '../../server/db/schema';
import { now, setClockOffset } from '../../server/clock';
import { createSecretBox, keyIdOf } from '../../server/secret-box';
import { resealSecrets } from '../../server/reseal-secrets';

/**
 * Decision 083: stored secrets are sealed under ENCRYPTION_KEY, named in the sealed text. Three servers on one
 * database: A (JWT secret 1, key 1), B (JWT secret 2, key 1: JWT_SECRET rotated), C (JWT secret 2, key 2 with key 1
 * kept as previous: the encryption key changed).
 */
const [K1, K2, K3] = [randomBytes(32), randomBytes(32), randomBytes(32)].map((b) => b.toString('base64url'));
const [J1, J2] = ['jwt-one-', 'jwt-two-'].map((p) => p + randomBytes(16).toString('hex'));
let a: TestApp, b: TestApp, c: TestApp;
beforeAll(async () => {
  a = await createTestApp({ jwtSecret: J1, encryptionKeys: { current: K1, previous: [] } });
  b = await createTestApp({ jwtSecret: J2, encryptionKeys: { current: K1, previous: [] } });
  c = await createTestApp({ jwtSecret: J2, encryptionKeys: { current: K2, previous: [K1] } });
});
afterAll(async () => {
  await Promise.all([a, b, c].map((t) => t?.close()));
});
afterEach(() => setClockOffset(0));

let offset = 0;
const codeOf = (secret: string) => {
  setClockOffset((offset += 30_000));
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: now().getTime() });
};
const sealedOf = async (t: TestApp, orgId: number) =>
  (await withTenant(t.database.db, orgId, (tx) => tx.select().from(twoFactorEnrolments).where(eq(twoFactorEnrolments.orgId, orgId))))[0].secretCipher;

/** Password, then a code, on the given server: the status of the second step. */
async function signIn(t: TestApp, org: TestOrg, secret: string) {
  const anonymous = client(t.app, org.host);
  const first = await anonymous.post('/api/login', { email: org.email, password: org.password });
  expect(first.body.twoFactor).toBe('verify');
  return (await anonymous.post('/api/auth/verify-two-factor', { challenge: first.body.challenge, code: codeOf(secret) })).status;
}

async function enrolOn(t: TestApp) {
  const org = await createOrg(t);
  const start = await org.admin.post('/api/two-factor/start-enrolment');
  expect((await org.admin.post('/api/two-factor/confirm-enrolment', { code: codeOf(start.body.secret) })).status).toBe(200);
  return { org, secret: start.body.secret as string };
}

describe('the encryption key of stored secrets (decision 083)', () => {
  it('keeps two-factor sign-in working when JWT_SECRET is rotated, and after a key change with the old key kept as previous', async () => {
    const { org, secret } = await enrolOn(a);
    expect(await sealedOf(a, org.orgId)).toMatch(new RegExp(`^v2\\.${keyIdOf(K1)}\\.`));
    // JWT_SECRET rotated: the secret still opens (it was never under JWT_SECRET).
    expect(await signIn(b, org, secret)).toBe(200);
    // The key changed, the old one kept as previous: it opens, and the code's use seals it again under the new key.
    expect(await signIn(c, org, secret)).toBe(200);
    expect(await sealedOf(c, org.orgId)).toMatch(new RegExp(`^v2\\.${keyIdOf(K2)}\\.`));
    // A server without key 2 cannot read it any more: refused plainly, not a wrong code.
    const refused = await signIn(b, org, secret);
    expect(refused).toBe(503);
  });

  it('opens a secret sealed under JWT_SECRET before the encryption key existed (legacy v1), and reseals it', async () => {
    const org = await createOrg(b);
    const secret = new Secret({ size: 20 }).base32;
    // The format two-factor.service.ts wrote until decision 083.
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(hkdfSync('sha256', J2, 'cmms', 'two-factor secret', 32)), iv);
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    const legacy = `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    await withTenant(b.database.db, org.orgId, (tx) =>
      tx.insert(twoFactorEnrolments).values({ orgId: org.orgId, userId: 1, secretCipher: legacy, confirmedAt: new Date(), recoveryHashes: [] }),
    );
    expect(await signIn(c, org, secret)).toBe(200);
    expect(await sealedOf(c, org.orgId)).toMatch(new RegExp(`^v2\\.${keyIdOf(K2)}\\.`));
  });

  it('npm run secrets:reseal moves every stored secret to the current key; then the previous key can go', async () => {
    const { org, secret } = await enrolOn(a);
    const box1 = createSecretBox({ current: K1, previous: [] }, J1);
    await withTenant(a.database.db, org.orgId, (tx) =>
      tx.insert(ssoSettings).values({
        orgId: org.orgId,
        displayName: 'IdP',
        issuer: 'https://idp.example.com',
        clientId: 'cmms',
        clientSecretEncrypted: box1.seal('sso-client-secret', 'the-client-secret'),
      }),
    );
    const box3 = createSecretBox({ current: K3, previous: [K1] }, J2);
    const first = await resealSecrets(a.database, box3);
    expect(first.resealed).toBeGreaterThanOrEqual(2);
    expect((await resealSecrets(a.database, box3)).resealed).toBe(0);
    const [sso] = await withTenant(a.database.db, org.orgId, (tx) => tx.select().from(ssoSettings).where(eq(ssoSettings.orgId, org.orgId)));
    const onlyK3 = createSecretBox({ current: K3, previous: [] }, J2);
    expect(onlyK3.open('sso-client-secret', sso.clientSecretEncrypted)).toBe('the-client-secret');
    expect(onlyK3.open('two-factor-secret', await sealedOf(a, org.orgId))).toBe(secret);
  });

  it('refuses an altered box, another purpose and an unknown key', () => {
    const box = createSecretBox({ current: K1, previous: [] }, J1);
    const sealed = box.seal('sso-client-secret', 'text');
    expect(box.open('sso-client-secret', sealed)).toBe('text');
    expect(box.open('two-factor-secret', sealed)).toBeNull();
    const parts = sealed.split('.');
    parts[4] = Buffer.from('tamper').toString('base64url');
    expect(box.open('sso-client-secret', parts.join('.'))).toBeNull();
    expect(createSecretBox({ current: K2, previous: [] }, J1).open('sso-client-secret', sealed)).toBeNull();
    expect(box.isCurrent(sealed)).toBe(true);
    expect(createSecretBox({ current: K2, previous: [K1] }, J1).isCurrent(sealed)).toBe(false);
  });
});
