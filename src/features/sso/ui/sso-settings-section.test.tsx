import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import { startTestProvider, type TestProvider } from '../oidc-test-provider';
import { orgWithSso, redirectUriOf, ssoRoundTrip } from '../sso-test-kit';
import { SsoSettingsSection } from './sso-settings-section';
import { LoginScreen } from '../../auth/ui/login-screen';

// The app, and a real OpenID provider it reaches over the network (decision 077's test provider).
const server = realServer();
let op: TestProvider;
beforeAll(async () => {
  op = await startTestProvider();
});
afterAll(() => op?.close());

const SECRET = 'the-client-secret';

describe('the single sign-on settings section', () => {
  it('shows the redirect URI, never a secret, and saves without one to keep the stored secret', async () => {
    const { org, clientId } = await orgWithSso(server.test, op, SECRET);
    const { calls } = await server.signIn('admin', { org });
    renderWithProviders(<SsoSettingsSection />);
    expect(await screen.findByTestId('sso-redirect-uri')).toHaveTextContent(redirectUriOf(server.test, org));
    expect(screen.getByTestId('sso-client-secret')).toHaveValue('');
    expect(screen.getByText(/A secret is kept/)).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(SECRET);
    await userEvent.click(screen.getByTestId('sso-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toEqual({
      enabled: true,
      displayName: 'Acme ID',
      issuer: op.issuer,
      clientId,
      defaultRole: 'worker',
      createUsers: false,
      ssoOnly: false,
    });
    expect(put.status).toBe(200);
    expect((await org.admin.get('/api/auth/get-sso-settings')).body.settings).toMatchObject({ clientSecretSet: true, displayName: 'Acme ID' });
    // the stored secret was kept: a sign-in through the provider (which checks it) still succeeds
    op.accounts.set('admin', { email: org.email, email_verified: true });
    const finished = await ssoRoundTrip(server.test, op, org, 'admin', {
      start: () => org.anonymous.post('/api/auth/start-sso'),
      finish: (search, cookie) => org.anonymous.post('/api/auth/finish-sso', { search }, { cookie }),
    });
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
  });
});

describe('the login screen button', () => {
  const screenProps = {
    t: (k: string) => ({ 'auth.sso.signInWith': 'Sign in with {{name}}' })[k] ?? k,
    language: 'en',
    onLanguage: () => {},
    themePreference: 'light' as const,
    onThemePreference: () => {},
    status: 'signedOut' as const,
    onSignedIn: () => {},
    onError: () => {},
    withSso: true,
  };

  it('offers "Sign in with <name>" when the organisation turned single sign-on on', async () => {
    const { org } = await orgWithSso(server.test, op, SECRET, { ssoOnly: true });
    server.anonymous(org);
    render(<LoginScreen {...screenProps} />);
    expect(await screen.findByTestId('login-sso')).toHaveTextContent('Sign in with Acme ID');
    expect(screen.getByText('auth.sso.passwordForAdmins')).toBeInTheDocument();
  });

  it('shows nothing when it is off', async () => {
    const org = await server.newOrg();
    const calls = server.anonymous(org);
    render(<LoginScreen {...screenProps} />);
    await waitFor(() => expect(calls.length).toBe(1));
    expect(calls[0]).toMatchObject({ method: 'GET', status: 200 });
    expect(calls[0].url.pathname).toBe('/api/auth/sso-options');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('login-sso')).toBeNull();
  });
});
