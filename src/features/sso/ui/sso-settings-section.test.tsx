import { afterEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import { SsoSettingsSection } from './sso-settings-section';
import { LoginScreen } from '../../auth/ui/login-screen';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

const settings = {
  configured: true,
  enabled: true,
  displayName: 'Acme ID',
  issuer: 'https://id.acme.test',
  clientId: 'cmms',
  clientSecretSet: true,
  defaultRole: 'worker',
  createUsers: false,
  ssoOnly: false,
  redirectUri: 'http://acme.localhost:3000/sso/callback',
};

describe('the single sign-on settings section', () => {
  it('shows the redirect URI, never a secret, and saves without one to keep the stored secret', async () => {
    const calls = stubFetch({
      'GET /api/auth/get-sso-settings': () => ({ body: { settings } }),
      'PUT /api/auth/update-sso-settings': () => ({ body: { message: 'Single sign-on settings saved', settings } }),
    });
    renderWithProviders(<SsoSettingsSection />);
    expect(await screen.findByTestId('sso-redirect-uri')).toHaveTextContent(settings.redirectUri);
    expect(screen.getByTestId('sso-client-secret')).toHaveValue('');
    expect(screen.getByText(/A secret is kept/)).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('sso-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const body = JSON.parse(String(calls.find((c) => c.method === 'PUT')!.init.body));
    expect(body).toEqual({
      enabled: true,
      displayName: 'Acme ID',
      issuer: 'https://id.acme.test',
      clientId: 'cmms',
      defaultRole: 'worker',
      createUsers: false,
      ssoOnly: false,
    });
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
    stubFetch({ 'GET /api/auth/sso-options': () => ({ body: { enabled: true, displayName: 'Acme ID', ssoOnly: true } }) });
    render(<LoginScreen {...screenProps} />);
    expect(await screen.findByTestId('login-sso')).toHaveTextContent('Sign in with Acme ID');
    expect(screen.getByText('auth.sso.passwordForAdmins')).toBeInTheDocument();
  });

  it('shows nothing when it is off', async () => {
    const calls = stubFetch({ 'GET /api/auth/sso-options': () => ({ body: { enabled: false, displayName: null, ssoOnly: false } }) });
    render(<LoginScreen {...screenProps} />);
    await waitFor(() => expect(calls.length).toBe(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('login-sso')).toBeNull();
  });
});
