import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeJourney, newPage, openJourney, signIn, signUpOrg, toastTexts, type TestServer } from './helpers';

let server: TestServer;
let browser: Browser;

beforeAll(async () => ({ server, browser } = await openJourney()));
afterAll(() => closeJourney({ server, browser }));

/** Text of the field errors shown under the inputs. */
const fieldErrors = (page: Page) => page.locator('.mantine-InputWrapper-error, .mantine-Checkbox-error').allInnerTexts();

async function fill(page: Page, v: { organization: string; email: string; password: string; subdomain: string; workers: string }) {
  await page.getByTestId('register-organization').fill(v.organization);
  await page.getByTestId('register-email').fill(v.email);
  await page.getByTestId('register-password').fill(v.password);
  await page.getByTestId('register-subdomain').fill(v.subdomain);
  await page.getByTestId('register-workers').fill(v.workers);
}

describe('registering an organisation', () => {
  it('shows every registration message, then signs up and lands on the new organisation’s login', async () => {
    const { page, context } = await newPage(browser);
    await page.goto(`${server.baseUrl}/register`);
    await page.getByTestId('register-submit').click();
    await expect.poll(() => fieldErrors(page)).toEqual(expect.arrayContaining(['This field is required', 'Email is required', 'Password is required']));
    expect((await fieldErrors(page)).filter((e) => e === 'This field is required')).toHaveLength(4); // organisation, subdomain, technicians, consent

    await fill(page, { organization: 'ab', email: 'not-an-email', password: 'short', subdomain: 'ab', workers: 'abc' });
    await page.getByTestId('register-submit').click();
    await expect
      .poll(() => fieldErrors(page))
      .toEqual(
        expect.arrayContaining([
          'Must be at least 3 characters',
          'Invalid email address',
          'Password must be at least 8 characters',
          'Only numbers are allowed',
        ]),
      );
    expect((await fieldErrors(page)).filter((e) => e === 'Must be at least 3 characters')).toHaveLength(2);
    await page.getByTestId('register-workers').fill('0');
    await expect.poll(() => fieldErrors(page)).toContain('The number must be greater than 0');

    // show/hide password
    const password = page.getByTestId('register-password');
    expect(await password.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Show or hide password' }).click();
    expect(await password.getAttribute('type')).toBe('text');

    // a subdomain that is already taken: the server's message as a toast
    const taken = await signUpOrg(server);
    await fill(page, { organization: 'Acme Plant', email: 'boss@acme.example.com', password: 'Passw0rd!long', subdomain: taken.subdomain, workers: '12' });
    await page.getByTestId('register-consent').check();
    await page.getByTestId('register-submit').click();
    await expect.poll(() => toastTexts(page)).toEqual(expect.arrayContaining([expect.stringContaining('This subdomain is already taken')]));

    const sub = `acme${Date.now().toString(36)}`;
    await page.getByTestId('register-subdomain').fill(sub);
    await page.getByTestId('register-submit').click();
    await page.waitForURL(`${server.orgUrl(sub)}/login`);
    await page.getByTestId('login-email').fill('boss@acme.example.com');
    await page.getByTestId('login-password').fill('Passw0rd!long');
    await page.getByTestId('login-submit').click();
    await page.waitForURL(`${server.orgUrl(sub)}/dashboard/work-orders`);
    await context.close();
  });

  it('asks for no session refresh on the public pages (no console error), and sends the logout once', async () => {
    const org = await signUpOrg(server);
    const { page, context } = await newPage(browser);
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
    const sent: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path === '/api/refresh' || path === '/api/logout') sent.push(path);
    });
    for (const url of [
      server.baseUrl,
      `${server.baseUrl}/features`,
      `${server.baseUrl}/pricing`,
      `${server.baseUrl}/demo-request`,
      `${server.baseUrl}/register`,
      org.url,
      `${org.url}/login`,
    ]) {
      await page.goto(url);
      await page.waitForLoadState('networkidle');
    }
    expect(sent).toEqual([]);
    expect(errors).toEqual([]);

    await signIn(page, org);
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-sign-out').click();
    await page.waitForURL(`${org.url}/login`);
    await page.getByTestId('login-email').waitFor();
    await page.waitForLoadState('networkidle');
    expect(sent.filter((p) => p === '/api/logout')).toHaveLength(1);
    // signed out: the login page opened again asks nothing
    await page.goto(`${org.url}/login`);
    await page.waitForLoadState('networkidle');
    expect(sent.filter((p) => p === '/api/refresh')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the server’s sign-in failure as a toast, and going to /login while signed in goes home', async () => {
    const org = await signUpOrg(server);
    const { page, context } = await newPage(browser);
    await page.goto(`${org.url}/login`);
    await page.getByTestId('login-email').fill(org.email);
    await page.getByTestId('login-password').fill('wrong-password');
    await page.getByTestId('login-submit').click();
    await expect.poll(() => toastTexts(page)).toEqual(expect.arrayContaining([expect.stringContaining('Invalid email or password')]));
    await page.getByTestId('login-password').fill(org.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(`${org.url}/dashboard/work-orders`);
    // a new tab of the same browser: no token in its sessionStorage, the refresh cookie signs it in and goes home
    const second = await context.newPage();
    await second.goto(`${org.url}/login`);
    await second.waitForURL(`${org.url}/dashboard/work-orders`);
    await context.close();
  });
});
