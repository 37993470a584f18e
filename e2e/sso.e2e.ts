import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, signIn, signUpOrg, startServer, toastTexts, type TestServer } from './helpers';
import { startTestProvider, type TestProvider } from '../src/features/sso/oidc-test-provider';

/**
 * Single sign-on (decision 077) in the browser: the admin sets it up against a real OpenID provider run here
 * (oidc-provider, programmatic sign-in), signs out, chooses "Sign in with …" and lands signed in.
 */
let server: TestServer;
let browser: Browser;
let op: TestProvider;

beforeAll(async () => {
  op = await startTestProvider();
  server = await startServer({ env: { SSO_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await op?.close();
});

describe('single sign-on', () => {
  it('the admin sets it up, signs out, signs in with the company account and lands signed in', async () => {
    const org = await signUpOrg(server);
    const clientId = `e2e-${org.subdomain}`;
    const secret = `secret-${org.subdomain}`;
    op.addClient({ client_id: clientId, client_secret: secret, redirect_uris: [`${org.url}/sso/callback`] });
    op.accounts.set('the-admin', { email: org.email, email_verified: true, given_name: 'Ada' });
    op.nextLogin = 'the-admin';

    const { page } = await newPage(browser);
    await signIn(page, org);
    await page.goto(`${org.url}/settings/single-sign-on`);
    await expect.poll(() => page.getByTestId('sso-redirect-uri').innerText()).toBe(`${org.url}/sso/callback`);
    await page.getByTestId('sso-enabled').check();
    await page.getByTestId('sso-display-name').fill('Acme ID');
    await page.getByTestId('sso-issuer').fill(op.issuer);
    await page.getByTestId('sso-client-id').fill(clientId);
    await page.getByTestId('sso-client-secret').fill(secret);
    await page.getByTestId('sso-save').click();
    await expect.poll(() => toastTexts(page)).toEqual(expect.arrayContaining([expect.stringContaining('Single sign-on settings saved')]));
    // the secret is not given back: the field is empty and says one is kept
    await expect.poll(() => page.getByTestId('sso-client-secret').inputValue()).toBe('');
    await page.getByText('A secret is kept').waitFor();

    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-sign-out').click();
    await page.waitForURL(`${org.url}/login`);

    const button = page.getByTestId('login-sso');
    await expect.poll(() => button.innerText()).toBe('Sign in with Acme ID');
    await button.click();
    await page.waitForURL(new RegExp(`^${org.url.replace(/[.]/g, '\\.')}/dashboard/work-orders$`));
    await page.getByTestId('side-menu').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('accessToken'))).toBeTruthy();
  });
});
