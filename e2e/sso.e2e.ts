import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { call, launchBrowser, newPage, signIn, signUpOrg, startServer, toastTexts, type TestServer } from './helpers';
import { startTestProvider, type TestProvider } from '../src/features/sso/oidc-test-provider';

/**
 * Single sign-on (decision 077) in the browser: the admin sets it up against a real OpenID provider run here
 * (oidc-provider, programmatic sign-in), signs out, chooses "Sign in with …" and lands signed in. A person created by
 * their first single sign-on signs a procedure's sign-off step with a fresh sign-in at the provider (decision 078's
 * addendum): no password asked, the browser goes to the provider and back, and the step shows the signature.
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

  it('a person who signs in only with it signs a sign-off step with a fresh sign-in at the provider', async () => {
    const org = await signUpOrg(server);
    const host = `${org.subdomain}.localhost`;
    const clientId = `e2e-${org.subdomain}`;
    const secret = `secret-${org.subdomain}`;
    op.addClient({ client_id: clientId, client_secret: secret, redirect_uris: [`${org.url}/sso/callback`] });
    const admin = (await call(server.port, host, 'POST', '/api/login', { email: org.email, password: org.password })).body.accessToken as string;
    const settings = {
      enabled: true,
      displayName: 'Acme ID',
      issuer: op.issuer,
      clientId,
      clientSecret: secret,
      defaultRole: 'worker',
      createUsers: true,
      ssoOnly: false,
    };
    expect((await call(server.port, host, 'PUT', '/api/auth/update-sso-settings', settings, admin)).status).toBe(200);
    const login = `sara-${org.subdomain}`;
    op.accounts.set(login, { email: `${login}@example.com`, email_verified: true, given_name: 'Sara', family_name: 'Haddad' });
    op.nextLogin = login;

    const { page } = await newPage(browser);
    await page.goto(`${org.url}/login`);
    await page.getByTestId('login-sso').click();
    await page.waitForURL(new RegExp(`^${org.url.replace(/[.]/g, '\\.')}/dashboard/`));
    const token = await page.evaluate(() => sessionStorage.getItem('accessToken'));
    const saraId = Number(JSON.parse(Buffer.from(String(token).split('.')[1], 'base64url').toString()).sub);

    const procedure = await call(
      server.port,
      host,
      'POST',
      '/api/procedures/add-procedure',
      { name: 'Release', steps: [{ kind: 'sign-off', label: 'Release signature', required: true }] },
      admin,
    );
    const order = await call(server.port, host, 'POST', '/api/work-orders/add-work-order', { title: 'Release batch 7', assignees: [saraId] }, admin);
    const orderId = order.body.workOrder.id as number;
    expect(
      (await call(server.port, host, 'POST', `/api/work-orders/attach-procedure/${orderId}`, { procedureId: procedure.body.procedure.id }, admin)).status,
    ).toBe(200);

    await page.goto(`${org.url}/dashboard/work-orders?open=${orderId}`);
    await page.getByTestId('tab-procedure').click();
    await page.locator('[data-testid$="-sign-off"]').first().click();
    await page.getByTestId('sign-off-meaning').getByText('Approved').click();
    const go = page.getByTestId('sign-off-sso');
    await expect.poll(() => go.innerText()).toBe('Sign in again with Acme ID and sign');
    expect(await page.getByTestId('sign-off-password').count()).toBe(0);
    // What shows first once back: the Procedure tab (where the signer left) or the signature (focus returning to the
    // step after the signing would bring the tab forward too, but only then).
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      const note = (what: string, selector: string) => !seen.includes(what) && document.querySelector(selector) && seen.push(what);
      new MutationObserver(() => {
        note('procedure tab', '[data-testid="tab-procedure"][aria-selected="true"]');
        note('signature', '[data-testid$="-signature"]');
      }).observe(document, { subtree: true, childList: true, attributes: true });
    });
    await go.click();
    // To the provider (prompt=login) and back through /sso/callback to the order, which signs with the proof.
    await page.waitForURL(new RegExp(`/dashboard/work-orders\\?open=${orderId}`));
    const signature = page.locator('[data-testid$="-signature"]').first();
    await expect.poll(() => signature.innerText()).toMatch(/^Approved by Sara Haddad, /);
    // Back on the order, its Procedure tab was shown before the signing ended (the signer sees the step signed).
    expect(await page.evaluate(() => (window as unknown as { seen: string[] }).seen)).toEqual(['procedure tab', 'signature']);
  });
});
