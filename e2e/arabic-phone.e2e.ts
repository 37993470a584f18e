/**
 * Arabic on a phone (issue 46): at 390x844 in Arabic the calendar page was blank (10,362 px wide, the calendar
 * off-screen) and the technician app 410 px wide, while the same screens fit in English. Each screen a manager or
 * a technician opens on a phone must fit the window, in both languages, with its main content in view.
 * `E2E_SHOTS=<folder>` keeps a screenshot of each asset screen there (to look at them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { addWorkOrder, call, closeJourney, newPage, openJourney, signedInApi, signIn, userIdByEmail, type TestServer } from './helpers';

let server: TestServer;
let browser: Browser;
let url: string;
const HOST = 'demo.localhost';
const MANAGER = { email: 'admin@demo.com', password: 'Demo1234!' };
const TECH = { email: 'tech1@demo.com', password: 'Demo1234!' };

beforeAll(async () => {
  ({ server, browser } = await openJourney({ seedDemo: true }));
  url = server.orgUrl('demo');
});
afterAll(() => closeJourney({ server, browser }));

/** How wide the page is, and the first visible element reaching past the window's edges (none when it fits). */
function overflow(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const out = [...document.body.querySelectorAll('*')].find((el) => {
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1 || getComputedStyle(el).visibility === 'hidden') return false;
      // the side menu waits off-screen until the burger opens it
      if (el.closest('.mantine-AppShell-navbar')) return false;
      // what a scrolling box clips is not past the window
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (/(auto|scroll|hidden|clip)/.test(style.overflowX)) {
          const box = p.getBoundingClientRect();
          if (box.left >= -1 && box.right <= width + 1) return false;
        }
      }
      return r.left < -1 || r.right > width + 1;
    });
    const where = out?.closest('[data-testid]')?.getAttribute('data-testid') ?? '';
    const described = out
      ? `${out.tagName.toLowerCase()}.${String(out.className).split(' ')[0]} in ${where} ${Math.round(out.getBoundingClientRect().left)}..${Math.round(out.getBoundingClientRect().right)}`
      : null;
    return { scrollWidth: document.documentElement.scrollWidth, out: described };
  });
}

/** Fits the window (no element past its edges); with E2E_SHOTS set, a screenshot `<name>-<language>.png` is kept. */
async function fits(page: Page, name: string, language: string) {
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/${name}-${language}.png`, fullPage: true });
  expect({ screen: name, ...(await overflow(page)) }).toEqual({ screen: name, scrollWidth: 390, out: null });
}

async function inView(page: Page, selector: string) {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      // shown, at least in part (a wide table scrolls inside its box)
      return r.width > 0 && r.right > 0 && r.left < window.innerWidth;
    });
}

describe('Arabic on a 390 px phone', () => {
  for (const language of ['ar', 'en'] as const) {
    it(`a manager's screens fit and show their content (${language})`, async () => {
      const { context, page } = await newPage(browser, { width: 390, height: 844 });
      try {
        await page.goto(`${url}/login`);
        await page.evaluate((lang) => localStorage.setItem('cmms.language', lang), language);
        await signIn(page, { url, ...MANAGER });
        for (const [path, content] of [
          ['calendar', '.cmms-calendar .fc-list'],
          ['work-orders', 'table, [data-testid$="-card"]'],
          ['maintenance-request', 'table, [data-testid$="-card"]'],
          ['insights', '[data-testid="insights-range"]'],
          ['pm-plans', 'table, [data-testid$="-card"]'],
          ['assets', 'table, [data-testid$="-card"]'],
          ['quotations', 'table, [data-testid$="-card"]'],
        ] as const) {
          await page.goto(`${url}/dashboard/${path}`);
          await page.locator(content).first().waitFor({ timeout: 30_000 });
          expect(await page.evaluate(() => document.documentElement.dir)).toBe(language === 'ar' ? 'rtl' : 'ltr');
          expect({ path, ...(await overflow(page)) }).toEqual({ path, scrollWidth: 390, out: null });
          expect(await inView(page, content), `${path}: its content in view`).toBe(true);
        }
      } finally {
        await context.close();
      }
    });

    it(`the asset screens fit: the drawer's State tab and tree, locations, failure codes, the on-hold dialog (${language})`, async () => {
      const admin = (await call(server.port, HOST, 'POST', '/api/login', MANAGER)).body.accessToken as string;
      const api = async (method: string, path: string, body?: unknown) => {
        const res = await call(server.port, HOST, method, path, body, admin);
        if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body as any;
      };
      const site = (await api('POST', '/api/locations/add-location', { name: `Phone site ${language}` })).location.id;
      const line = (await api('POST', '/api/locations/add-location', { name: `Phone line ${language}`, parentId: site })).location.id;
      const categoryId = (await api('POST', '/api/asset-categories/add-asset-category', { code: `PH${language}`, name: `Phone presses ${language}` }))
        .assetCategory.id;
      const asset = (name: string, extra = {}) =>
        api('POST', '/api/assets/add-asset', { name, date: '2024-01-01', assetCategoryId: categoryId, locationId: line, ...extra }).then(
          (b) => b.asset.id as number,
        );
      const machine = await asset(`Phone machine ${language}`);
      await asset(`Phone motor ${language}`, { parentId: machine });
      await api('POST', `/api/assets/set-asset-state/${machine}`, { state: 'down', reason: 'Hydraulic leak on the main cylinder' });
      const order = (await api('POST', '/api/work-orders/add-work-order', { title: `Phone hold ${language}`, assetId: machine })).workOrder.id as number;
      // the codes' page with codes in it (the library goes in once: the second language's call is refused, and ignored)
      await call(server.port, HOST, 'POST', '/api/failure-codes/import-starter-library', { language }, admin);

      const { context, page } = await newPage(browser, { width: 390, height: 844 });
      try {
        await page.goto(`${url}/login`);
        await page.evaluate((lang) => localStorage.setItem('cmms.language', lang), language);
        await signIn(page, { url, ...MANAGER });
        await page.goto(`${url}/dashboard/assets`);
        await page.getByText(`Phone machine ${language}`, { exact: true }).first().click();
        await page.getByTestId('tab-state').click();
        await page.getByTestId('asset-state-list').waitFor({ timeout: 30_000 });
        await fits(page, 'asset-state', language);
        await page.keyboard.press('Escape');
        await page.getByTestId('asset-view').locator('label').nth(1).click();
        await page.getByTestId('asset-tree').waitFor();
        await fits(page, 'asset-tree', language);

        await page.goto(`${url}/dashboard/locations`);
        await page.getByTestId('location-tree').waitFor({ timeout: 30_000 });
        await fits(page, 'locations', language);
        // the tree opens folded: the site's node opens its drawer, the roll-up of everything under it
        await page.getByText(`Phone site ${language}`, { exact: true }).first().click();
        await page.getByTestId('location-rollup').waitFor();
        await fits(page, 'location-drawer', language);

        await page.goto(`${url}/settings/failure-codes`);
        await page.getByTestId('add-problem').waitFor({ timeout: 30_000 });
        await fits(page, 'failure-codes', language);

        await page.goto(`${url}/dashboard/work-orders?open=${order}`);
        await page.getByTestId('wo-hold').click();
        await page.getByTestId('hold-note').waitFor();
        await fits(page, 'on-hold', language);
      } finally {
        await context.close();
      }
    });

    it(`the technician app fits (${language})`, async () => {
      const { api } = await signedInApi(server, HOST, MANAGER);
      const marcus = await userIdByEmail(api, TECH.email);
      const dueDate = new Date(Date.now() + 3600_000).toISOString();
      const orderId = await addWorkOrder(api, { title: `Phone check ${language}`, assignees: [marcus], priority: 'high', dueDate });
      const { context, page } = await newPage(browser, { width: 390, height: 844 });
      try {
        await page.goto(`${url}/login`);
        await page.evaluate((lang) => localStorage.setItem('cmms.language', lang), language);
        await signIn(page, { url, ...TECH });
        await page.goto(`${url}/dashboard/my-work`);
        await page.getByTestId(`my-work-card-${orderId}`).waitFor({ timeout: 30_000 });
        expect({ screen: 'my work', ...(await overflow(page)) }).toEqual({ screen: 'my work', scrollWidth: 390, out: null });
        await page.getByTestId(`my-work-card-${orderId}`).click();
        await page.getByTestId('work-order-screen').waitFor();
        expect({ screen: 'work order', ...(await overflow(page)) }).toEqual({ screen: 'work order', scrollWidth: 390, out: null });
      } finally {
        await context.close();
      }
    });
  }
});
