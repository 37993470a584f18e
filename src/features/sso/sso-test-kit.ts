import { expect } from 'vitest';
import { createOrg, type Res, type TestApp, type TestOrg } from '../../server/test/harness';
import { driveProvider, type TestProvider } from './oidc-test-provider';

/**
 * What the single sign-on tests share (sso.routes.test.ts, sso-reauth.routes.test.ts): an organisation set up with a
 * client of the test provider, and one round trip (start, the provider's sign-in, finish) as a browser makes it.
 */
export type SsoSettingsChoice = Partial<{ createUsers: boolean; ssoOnly: boolean; defaultRole: 'worker' | 'manager' }>;

export const redirectUriOf = (t: TestApp, org: Pick<TestOrg, 'subdomain'>) =>
  `${t.config.publicScheme}://${org.subdomain}.${t.config.baseDomain}:${t.config.publicPort}/sso/callback`;

/** An organisation whose admin set up single sign-on with a client of the test provider; `seen` sees the answer. */
export async function orgWithSso(t: TestApp, op: TestProvider, secret: string, settings: SsoSettingsChoice = {}, seen: (res: Res) => Res = (r) => r) {
  const org = await createOrg(t, 'Sso');
  const clientId = `client-${org.subdomain}`;
  op.addClient({ client_id: clientId, client_secret: secret, redirect_uris: [redirectUriOf(t, org)] });
  const res = seen(
    await org.admin.put('/api/auth/update-sso-settings', {
      enabled: true,
      displayName: 'Acme ID',
      issuer: op.issuer,
      clientId,
      clientSecret: secret,
      defaultRole: settings.defaultRole ?? 'worker',
      createUsers: settings.createUsers ?? false,
      ssoOnly: settings.ssoOnly ?? false,
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { org, clientId };
}

/** The state cookie a start set, as the browser sends it back. */
export const stateCookie = (res: Res) => {
  const set = [res.headers['set-cookie']].flat().find((c) => String(c).startsWith('sso_state='));
  return String(set).split(';')[0];
};

/** Start, the provider's sign-in of `login`, then finish with the query string and the state cookie; the finish answer. */
export async function ssoRoundTrip(
  t: TestApp,
  op: TestProvider,
  org: Pick<TestOrg, 'subdomain'>,
  login: string,
  legs: { start(): Promise<Res>; finish(search: string, cookie: string): Promise<Res> },
) {
  op.nextLogin = login;
  const started = await legs.start();
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const search = await driveProvider(started.body.authorizationUrl, redirectUriOf(t, org));
  return legs.finish(search, stateCookie(started));
}
