import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { closeJourney, newPage, openJourney, signIn, signUpOrg, type TestServer } from './helpers';

let server: TestServer;
let browser: Browser;

beforeAll(async () => ({ server, browser } = await openJourney()));
afterAll(() => closeJourney({ server, browser }));

/** The code an authenticator app would show `ahead` steps from now (the server accepts one step either side). */
const codeOf = (secret: string, ahead = 0) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + ahead * 30_000 });

describe('two-factor sign-in and signed-in devices (decision 076)', () => {
  it('enrols with the QR code’s key, signs out, signs in with a code, and ends the other device’s session', async () => {
    const org = await signUpOrg(server);
    // another device, signed in first
    const other = await newPage(browser);
    await signIn(other.page, org);

    const { page, context } = await newPage(browser);
    await signIn(page, org);
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-profile').click();
    await page.getByTestId('tab-security').click();
    await page.getByTestId('two-factor-enable').click();
    const secret = (await page.getByTestId('two-factor-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByTestId('two-factor-code').fill(codeOf(secret));
    await page.getByTestId('two-factor-confirm').click();
    const codes = (await page.getByTestId('recovery-codes').innerText()).trim().split(/\s+/);
    expect(codes).toHaveLength(10);
    await page.getByTestId('recovery-codes-done').click();
    await expect.poll(() => page.getByTestId('two-factor-status').textContent()).toBe('On');
    await page.keyboard.press('Escape');

    // sign out, then sign in: the password, then the code (the next step's: the enrolment spent this one)
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-sign-out').click();
    await page.waitForURL(`${org.url}/login`);
    await page.getByTestId('login-email').fill(org.email);
    await page.getByTestId('login-password').fill(org.password);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('two-factor-code').fill(codeOf(secret, 1));
    await page.getByTestId('two-factor-submit').click();
    await page.waitForURL(/\/dashboard\/work-orders$/);
    await page.getByTestId('side-menu').waitFor();

    // the devices: this one and the other; end the other
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-profile').click();
    await page.getByTestId('tab-security').click();
    await expect.poll(() => page.getByTestId('session-row').count()).toBe(2);
    expect(await page.getByTestId('session-current').count()).toBe(1);
    await page.getByTestId('session-end').click();
    await page.getByTestId('confirm-yes').click();
    await expect.poll(() => page.getByTestId('session-row').count()).toBe(1);

    // the other device's refresh token is refused
    const refreshed = await other.page.evaluate(() => fetch('/api/refresh', { method: 'POST' }).then((r) => r.status));
    expect(refreshed).toBe(401);
    await other.context.close();
    await context.close();
  });
});
