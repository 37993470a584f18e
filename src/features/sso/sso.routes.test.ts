import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { withTenant } from '../../server/db/client';
import { sessions, ssoSettings, users } from '../../server/db/schema';
import { client, createOrg, createTestApp, type Res, type TestApp, type TestOrg } from '../../server/test/harness';
import { orgRows } from '../../server/test/sql';
import { startTestProvider, type TestProvider } from './oidc-test-provider';
import { orgWithSso as kitOrgWithSso, redirectUriOf as kitRedirectUri, ssoRoundTrip, stateCookie, type SsoSettingsChoice } from './sso-test-kit';
import { SSO_MESSAGES } from './sso.schema';

/**
 * Single sign-on against a real OpenID provider run here (oidc-provider, decision 077): the round trip, and what is
 * refused: an ID token for another client, an expired one, one signed by another key, a bad state, a person not
 * invited, password sign-in when only single sign-on is allowed; another organisation reads nothing; the client
 * secret never leaves in an answer or the log.
 */
let t: TestApp;
let op: TestProvider;
const logLines: string[] = [];
const answers: string[] = [];
const SECRET = `s3cret-${Math.random().toString(36).slice(2)}-do-not-show`;

beforeAll(async () => {
  op = await startTestProvider();
  const stream = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  t = await createTestApp({}, { logger: { level: 'trace', stream } });
});
afterAll(async () => {
  await t?.close();
  await op?.close();
});

/** Keeps every answer's text, to look for the secret afterwards. */
const kept = (res: Res) => {
  answers.push(JSON.stringify(res.body), JSON.stringify(res.headers));
  return res;
};

const redirectUriOf = (org: TestOrg) => kitRedirectUri(t, org);

/** An organisation whose admin set up single sign-on with a client of the test provider. */
const orgWithSso = (settings: SsoSettingsChoice = {}) => kitOrgWithSso(t, op, SECRET, settings, kept);

/** Start, the provider's sign-in of `login`, then finish; the finish answer. */
const signInWithSso = (org: TestOrg, login: string, change: { search?: (s: string) => string; cookie?: (c: string) => string } = {}) =>
  ssoRoundTrip(t, op, org, login, {
    start: async () => kept(await org.anonymous.post('/api/auth/start-sso')),
    finish: async (search, cookie) =>
      kept(
        await org.anonymous.post(
          '/api/auth/finish-sso',
          { search: change.search ? change.search(search) : search },
          { cookie: change.cookie ? change.cookie(cookie) : cookie },
        ),
      ),
  });

const sessionCount = async (orgId: number) =>
  (
    await withTenant(t.database.db, orgId, (tx) =>
      tx
        .select({ n: sql<number>`count(*)::int` })
        .from(sessions)
        .where(eq(sessions.orgId, orgId)),
    )
  )[0].n;

describe('single sign-on settings', () => {
  it('are saved after the provider answered, read back without the secret, and refused for a provider out of reach', async () => {
    const { org, clientId } = await orgWithSso();
    const read = kept(await org.admin.get('/api/auth/get-sso-settings'));
    expect(read.status).toBe(200);
    expect(read.body.settings).toEqual({
      configured: true,
      enabled: true,
      displayName: 'Acme ID',
      issuer: op.issuer,
      clientId,
      clientSecretSet: true,
      defaultRole: 'worker',
      createUsers: false,
      ssoOnly: false,
      redirectUri: redirectUriOf(org),
    });
    // Stored sealed, not as it was given.
    const [row] = await withTenant(t.database.db, org.orgId, (tx) => tx.select().from(ssoSettings).where(eq(ssoSettings.orgId, org.orgId)));
    expect(row.clientSecretEncrypted).not.toContain(SECRET);
    expect(row.clientSecretEncrypted).toMatch(/^v2\.[0-9a-f]{8}\./);

    // A save without the secret keeps it.
    const again = kept(
      await org.admin.put('/api/auth/update-sso-settings', {
        ...read.body.settings,
        displayName: 'Acme',
        configured: undefined,
        clientSecretSet: undefined,
        redirectUri: undefined,
      }),
    );
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.settings).toMatchObject({ displayName: 'Acme', clientSecretSet: true });

    const unreachable = kept(
      await org.admin.put('/api/auth/update-sso-settings', {
        enabled: true,
        displayName: 'Nowhere',
        issuer: 'http://127.0.0.1:9/nowhere',
        clientId: 'x',
        clientSecret: 'y',
        defaultRole: 'worker',
        createUsers: false,
        ssoOnly: false,
      }),
    );
    expect(unreachable.status).toBe(400);
    expect(unreachable.body).toEqual({ error: SSO_MESSAGES.unreachable, issues: [{ path: 'issuer', message: SSO_MESSAGES.unreachable }] });
    expect((await org.admin.get('/api/auth/get-sso-settings')).body.settings.displayName).toBe('Acme');
  });

  it('need the secret the first time, and only an admin reads or changes them', async () => {
    const org = await createOrg(t);
    const body = { enabled: true, displayName: 'X', issuer: op.issuer, clientId: 'c', defaultRole: 'worker', createUsers: false, ssoOnly: false };
    const res = await org.admin.put('/api/auth/update-sso-settings', body);
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ path: 'clientSecret', message: SSO_MESSAGES.secretRequired }]);
    const manager = await org.as('manager');
    expect((await manager.get('/api/auth/get-sso-settings')).status).toBe(403);
    expect((await manager.put('/api/auth/update-sso-settings', { ...body, clientSecret: 's' })).status).toBe(403);
    expect((await org.anonymous.get('/api/auth/get-sso-settings')).status).toBe(401);
  });

  it('another organisation reads nothing of them and changes nothing', async () => {
    const { org } = await orgWithSso();
    const other = await createOrg(t);
    // The other admin's token is refused on this organisation's host; on their own host they read their own (none).
    expect((await client(t.app, org.host, other.admin.token).get('/api/auth/get-sso-settings')).status).toBe(401);
    const theirs = kept(await other.admin.get('/api/auth/get-sso-settings'));
    expect(theirs.body.settings).toMatchObject({ configured: false, issuer: '', clientId: '', clientSecretSet: false });
    expect((await other.anonymous.get('/api/auth/sso-options')).body).toEqual({ enabled: false, displayName: null, ssoOnly: false });
    expect((await other.anonymous.post('/api/auth/start-sso')).status).toBe(404);
    const changed = await other.admin.put('/api/auth/update-sso-settings', {
      enabled: false,
      displayName: 'Theirs',
      issuer: op.issuer,
      clientId: 'theirs',
      clientSecret: 'theirs',
      defaultRole: 'manager',
      createUsers: true,
      ssoOnly: false,
    });
    expect(changed.status).toBe(200);
    expect((await org.admin.get('/api/auth/get-sso-settings')).body.settings).toMatchObject({
      displayName: 'Acme ID',
      defaultRole: 'worker',
      createUsers: false,
    });
  });
});

describe('signing in with single sign-on', () => {
  it('round trip: start, the provider, finish; the session works and refreshes like a password one', async () => {
    const { org } = await orgWithSso();
    expect((await org.anonymous.get('/api/auth/sso-options')).body).toEqual({ enabled: true, displayName: 'Acme ID', ssoOnly: false });
    const worker = await org.as('worker');
    const email = (await worker.get('/api/user/get-app-data')).body.loggedInUser.email as string;
    op.accounts.set('alice', { email: email.toUpperCase(), email_verified: true, given_name: 'Alice' });
    const started = await org.anonymous.post('/api/auth/start-sso');
    const url = new URL(started.body.authorizationUrl);
    expect(url.origin).toBe(op.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      redirect_uri: redirectUriOf(org),
      code_challenge_method: 'S256',
      scope: 'openid email profile',
    });
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(String([started.headers['set-cookie']].flat()[0])).toMatch(/^sso_state=.+; Max-Age=600; Path=\/api\/auth; HttpOnly; SameSite=Strict$/);

    const finished = await signInWithSso(org, 'alice');
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
    const me = client(t.app, org.host, finished.body.accessToken);
    const appData = await me.get('/api/user/get-app-data');
    expect(appData.status).toBe(200);
    expect(appData.body.loggedInUser.email).toBe(email);
    // The refresh cookie of a password login: rotated by /api/refresh.
    const refresh = [finished.headers['set-cookie']]
      .flat()
      .map(String)
      .find((c) => c.startsWith('refresh_token='))!;
    expect(refresh).toMatch(/Path=\/api; HttpOnly; SameSite=Strict/);
    const refreshed = await org.anonymous.post('/api/refresh', {}, { cookie: refresh.split(';')[0] });
    expect(refreshed.status).toBe(200);
  });

  it('creates a person at their first sign-in with the default role when allowed, and activates an invited one', async () => {
    const { org } = await orgWithSso({ createUsers: true, defaultRole: 'manager' });
    const email = `new.person@${org.subdomain}.example.com`;
    op.accounts.set(`new-${org.subdomain}`, { email, email_verified: true, given_name: 'New', family_name: 'Person' });
    const res = await signInWithSso(org, `new-${org.subdomain}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [user] = await orgRows(t.database.db, org.orgId, users, eq(users.email, email));
    expect(user).toMatchObject({ role: 'manager', inviteStatus: 'ACTIVE', firstName: 'New', lastName: 'Person', passwordHash: null });

    const invitedEmail = `invited@${org.subdomain}.example.com`;
    expect((await org.admin.post('/api/auth/addUser', { email: invitedEmail, confirmEmail: invitedEmail, role: 'worker' })).status).toBe(201);
    op.accounts.set(`inv-${org.subdomain}`, { email: invitedEmail, email_verified: true, given_name: 'Ivy' });
    expect((await signInWithSso(org, `inv-${org.subdomain}`)).status).toBe(200);
    const [invited] = await orgRows(t.database.db, org.orgId, users, eq(users.email, invitedEmail));
    expect(invited).toMatchObject({ role: 'worker', inviteStatus: 'ACTIVE', firstName: 'Ivy' });
  });

  it('refuses a person who is not in the organisation when creating users is off (nothing made)', async () => {
    const { org } = await orgWithSso({ createUsers: false });
    op.accounts.set(`stranger-${org.subdomain}`, { email: `stranger@${org.subdomain}.example.com`, email_verified: true });
    const before = await sessionCount(org.orgId);
    const res = await signInWithSso(org, `stranger-${org.subdomain}`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: SSO_MESSAGES.notInvited });
    const found = await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .select()
        .from(users)
        .where(eq(users.email, `stranger@${org.subdomain}.example.com`)),
    );
    expect(found).toEqual([]);
    expect(await sessionCount(org.orgId)).toBe(before);
  });

  it('refuses an address the provider has not verified', async () => {
    const { org } = await orgWithSso({ createUsers: true });
    op.accounts.set(`unverified-${org.subdomain}`, { email: `admin@${org.subdomain}.example.com`, email_verified: false });
    const res = await signInWithSso(org, `unverified-${org.subdomain}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: SSO_MESSAGES.noEmail });
  });

  describe('refuses an ID token that is not for us, or no longer valid (no session made)', () => {
    let org: TestOrg;
    beforeAll(async () => {
      ({ org } = await orgWithSso({ createUsers: true }));
      op.accounts.set(`bob-${org.subdomain}`, { email: `bob@${org.subdomain}.example.com`, email_verified: true });
    });
    const refused = async (tamper: TestProvider['tamper'], key: TestProvider['tamperKey'] = 'provider') => {
      const before = await sessionCount(org.orgId);
      op.tamper = tamper;
      op.tamperKey = key;
      try {
        const res = await signInWithSso(org, `bob-${org.subdomain}`);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: SSO_MESSAGES.notVerified });
        expect(
          [res.headers['set-cookie']]
            .flat()
            .map(String)
            .some((c) => c.startsWith('refresh_token=') && !c.startsWith('refresh_token=;')),
        ).toBe(false);
      } finally {
        op.tamper = null;
        op.tamperKey = 'provider';
      }
      expect(await sessionCount(org.orgId)).toBe(before);
    };

    it('the untouched token passes (the tampering below changes only what it says)', async () => {
      op.tamper = (claims) => claims;
      try {
        expect((await signInWithSso(org, `bob-${org.subdomain}`)).status).toBe(200);
      } finally {
        op.tamper = null;
      }
    });
    it('a token for another client (wrong audience)', () => refused((c) => ({ ...c, aud: 'another-client', azp: undefined })));
    it('an expired token', () => refused((c) => ({ ...c, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 })));
    it('a token of another issuer', () => refused((c) => ({ ...c, iss: 'http://127.0.0.1:1' })));
    it('a token with another nonce (replayed from another sign-in)', () => refused((c) => ({ ...c, nonce: 'another-nonce' })));
    it('a token signed by a key the provider never published', () => refused((c) => c, 'other'));
  });

  it('refuses a bad state, no state cookie, a cookie altered or of another organisation', async () => {
    const { org } = await orgWithSso({ createUsers: true });
    const { org: other } = await orgWithSso({ createUsers: true });
    op.accounts.set(`carol-${org.subdomain}`, { email: `carol@${org.subdomain}.example.com`, email_verified: true });
    const before = await sessionCount(org.orgId);
    const badState = await signInWithSso(org, `carol-${org.subdomain}`, { search: (s) => s.replace(/state=[^&]+/, 'state=forged') });
    expect(badState.status).toBe(401);
    expect(badState.body).toEqual({ error: SSO_MESSAGES.notCompleted });
    const noCookie = await signInWithSso(org, `carol-${org.subdomain}`, { cookie: () => '' });
    expect(noCookie.status).toBe(400);
    expect(noCookie.body).toEqual({ error: SSO_MESSAGES.notCompleted });
    const altered = await signInWithSso(org, `carol-${org.subdomain}`, { cookie: (c) => c.slice(0, -4) + 'AAAA' });
    expect(altered.status).toBe(400);
    // A state cookie made on another organisation's host.
    const theirs = stateCookie(await other.anonymous.post('/api/auth/start-sso'));
    const foreign = await signInWithSso(org, `carol-${org.subdomain}`, { cookie: () => theirs });
    expect(foreign.status).toBe(400);
    // A provider's answer with an error.
    const started = await org.anonymous.post('/api/auth/start-sso');
    const state = new URL(started.body.authorizationUrl).searchParams.get('state');
    const denied = await org.anonymous.post(
      '/api/auth/finish-sso',
      { search: `?error=access_denied&state=${state}&iss=${encodeURIComponent(op.issuer)}` },
      { cookie: stateCookie(started) },
    );
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({ error: SSO_MESSAGES.notCompleted });
    expect(await sessionCount(org.orgId)).toBe(before);
  });

  it('"allow only single sign-on" refuses password sign-in to everyone but admins (the break-glass)', async () => {
    const { org, clientId } = await orgWithSso();
    const worker = await org.as('worker');
    const email = (await worker.get('/api/user/get-app-data')).body.loggedInUser.email as string;
    const only = { enabled: true, displayName: 'Acme ID', issuer: op.issuer, clientId, defaultRole: 'worker', createUsers: false, ssoOnly: true };
    expect((await org.admin.put('/api/auth/update-sso-settings', only)).status).toBe(200);
    const refused = await org.anonymous.post('/api/login', { email, password: org.password });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: SSO_MESSAGES.ssoOnly });
    // A wrong password still gets the generic failure: the refusal tells nothing to someone without the password.
    expect((await org.anonymous.post('/api/login', { email, password: 'wrong-password-1' })).status).toBe(401);
    expect((await org.anonymous.post('/api/login', { email: org.email, password: org.password })).status).toBe(200);
    expect((await org.anonymous.get('/api/auth/sso-options')).body).toEqual({ enabled: true, displayName: 'Acme ID', ssoOnly: true });
  });
});

describe('outbound calls to the provider (decision 083)', () => {
  it('refuse private and loopback addresses unless SSO_ALLOW_PRIVATE_ADDRESSES allows them', async () => {
    const strict = await createTestApp({ ssoAllowPrivate: false, encryptionKeys: t.config.encryptionKeys });
    try {
      const org = await createOrg(strict, 'Strict');
      const put = (issuer: string) =>
        org.admin.put('/api/auth/update-sso-settings', {
          enabled: true,
          displayName: 'Acme ID',
          issuer,
          clientId: 'cmms',
          clientSecret: SECRET,
          defaultRole: 'worker',
          createUsers: false,
          ssoOnly: false,
        });
      // The test provider on 127.0.0.1, by address and by a name resolving to it, and a private address literal.
      for (const issuer of [op.issuer, op.issuer.replace('127.0.0.1', 'localhost'), 'http://10.1.2.3/realms/x']) {
        const refused = await put(issuer);
        expect(refused.status, issuer).toBe(400);
        expect(refused.body.issues, issuer).toEqual([{ path: 'issuer', message: SSO_MESSAGES.privateAddress }]);
      }
      expect((await org.admin.get('/api/auth/get-sso-settings')).body.settings.configured).toBe(false);

      // Settings saved by a server that allows it: this one still calls nothing there at sign-in.
      const { org: other } = await orgWithSso();
      const started = await client(strict.app, other.host).post('/api/auth/start-sso');
      expect(started.status).toBe(502);
      // The allowing server (the suite's) reaches the same provider.
      expect((await other.anonymous.post('/api/auth/start-sso')).status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe('the client secret', () => {
  it('is in no answer and no log line', () => {
    expect(answers.length).toBeGreaterThan(10);
    expect(logLines.length).toBeGreaterThan(10);
    for (const text of [...answers, ...logLines]) expect(text).not.toContain(SECRET);
  });
});
