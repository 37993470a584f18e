import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Route } from 'playwright-core';
import { call, closeJourney, newPage, openJourney, signUpOrg, type TestServer } from './helpers';

// Decision 050 (issue 29): an organisation's /login carries the sign-in form in its first HTML, so the form
// paints before any script of the app has run; React then takes it over without losing what was typed.
let server: TestServer;
let browser: Browser;

beforeAll(async () => ({ server, browser } = await openJourney()));
afterAll(() => closeJourney({ server, browser }));

/** Holds back every script of the page: their requests wait until `release()`; `waiting()` counts them meanwhile. */
async function holdScripts(page: Page) {
  const held: Route[] = [];
  let released = false;
  await page.route(/\/assets\/.*\.js$/, (route) => (released ? route.continue() : held.push(route)));
  return {
    waiting: () => held.length,
    release: async () => {
      released = true;
      for (const route of held.splice(0)) await route.continue();
    },
  };
}

describe("the login page's first HTML", () => {
  it('holds the form in #root on an organisation host; the bare domain and other pages get the empty page', async () => {
    const org = await signUpOrg(server);
    const html = async (host: string, path: string) => String((await call(server.port, host, 'GET', path)).body);
    const login = await html(`${org.subdomain}.localhost`, '/login');
    const root = login.slice(login.indexOf('<div id="root"'), login.indexOf('</body>'));
    for (const id of ['login-email', 'login-password', 'login-submit']) expect(root).toContain(`data-testid="${id}"`);
    // painted in the right theme and language first: the theme script is in the head, inline, and the login CSS too
    expect(login).toMatch(/<head>[\s\S]*<script>[^]*?data-mantine-color-scheme[^]*?<\/script>[\s\S]*<style data-href="\/assets\/[^"]+\.css">[\s\S]*<\/head>/);
    for (const other of [await html(`${org.subdomain}.localhost`, '/dashboard/work-orders'), await html('localhost', '/login')])
      expect(other).toContain('<div id="root"></div>');
  });

  it('is painted and typed into before the scripts arrive; React takes it over keeping the text and the focus, and signs in', async () => {
    const org = await signUpOrg(server);
    const { page, context } = await newPage(browser);
    // hold back every script of the page until the user has typed (and the CSP let the inline theme script run)
    const refused: string[] = [];
    page.on('console', (m) => m.type() === 'error' && refused.push(m.text()));
    const scripts = await holdScripts(page);
    // (DOMContentLoaded waits for the held module scripts: the page is used as soon as its HTML is there)
    await page.goto(`${org.url}/login`, { waitUntil: 'commit' });
    await page.getByTestId('login-email').waitFor();
    await page.getByTestId('login-email').fill(org.email);
    await page.getByTestId('login-password').fill(org.password);
    expect(scripts.waiting()).toBeGreaterThan(0);
    expect(await page.locator('#root[data-prerendered]').count()).toBe(1);
    // a mark on the static field: hydration keeps the element (a client render after a mismatch would replace it)
    await page.getByTestId('login-email').evaluate((el) => el.setAttribute('data-static-mark', '1'));
    await scripts.release();
    // React's: the static marker goes once the lean boot has hydrated the form
    await expect.poll(() => page.locator('#root[data-prerendered]').count(), { timeout: 15_000 }).toBe(0);
    expect(await page.getByTestId('login-email').getAttribute('data-static-mark')).toBe('1');
    expect(await page.getByTestId('login-email').inputValue()).toBe(org.email);
    expect(await page.getByTestId('login-password').inputValue()).toBe(org.password);
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.dataset.testid)).toBe('login-password');
    await page.getByTestId('login-submit').click();
    await page.waitForURL(`${org.url}/dashboard/work-orders`);
    expect(refused.filter((t) => /Content Security Policy|React error|hydrat/i.test(t))).toEqual([]);
    await context.close();
  });

  it('a sign-in submitted before the scripts arrive is held back (the password never in the address) and sent once they have', async () => {
    const org = await signUpOrg(server);
    const { page, context } = await newPage(browser);
    const scripts = await holdScripts(page);
    await page.goto(`${org.url}/login`, { waitUntil: 'commit' });
    await page.getByTestId('login-email').waitFor();
    await page.getByTestId('login-email').fill(org.email);
    await page.getByTestId('login-password').fill(org.password);
    await page.getByTestId('login-submit').click({ noWaitAfter: true });
    expect(scripts.waiting()).toBeGreaterThan(0);
    // no native submit: still the static page, nothing in the address
    expect(page.url()).toBe(`${org.url}/login`);
    expect(await page.locator('#root[data-prerendered]').count()).toBe(1);
    await scripts.release();
    await page.waitForURL(`${org.url}/dashboard/work-orders`);
    await context.close();
  });

  it('in Arabic and a stored dark theme: no English form is shown, the page is dark and right to left from the first paint', async () => {
    const org = await signUpOrg(server);
    const { page, context } = await newPage(browser);
    await context.addInitScript(() => {
      localStorage.setItem('cmms.language', 'ar');
      localStorage.setItem('cmms.theme', JSON.stringify('dark'));
    });
    const scripts = await holdScripts(page);
    await page.goto(`${org.url}/login`, { waitUntil: 'commit' });
    await page.locator('#root[data-prerendered] .login-root').waitFor({ state: 'attached' });
    // before the app's scripts: the head script has chosen the theme and the direction; the English form is hidden
    expect(await page.evaluate(() => [document.documentElement.dataset.mantineColorScheme, document.documentElement.dir])).toEqual(['dark', 'rtl']);
    expect(await page.getByTestId('login-email').isVisible()).toBe(false);
    await scripts.release();
    await expect.poll(() => page.getByTestId('login-email').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.locator('.login-title').textContent()).not.toBe('Sign in');
    expect(await page.getByTestId('theme-dark').getAttribute('aria-checked')).toBe('true');
    await context.close();
  });
});
