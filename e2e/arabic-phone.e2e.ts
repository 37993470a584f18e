/**
 * Arabic on a phone (issue 46): at 390x844 in Arabic the calendar page was blank (10,362 px wide, the calendar
 * off-screen) and the technician app 410 px wide, while the same screens fit in English. Each screen a manager or
 * a technician opens on a phone must fit the window, in both languages, with its main content in view.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { call, closeJourney, newPage, openJourney, signIn, type TestServer } from './helpers';

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

    it(`the technician app fits (${language})`, async () => {
      const admin = (await call(server.port, HOST, 'POST', '/api/login', MANAGER)).body.accessToken as string;
      const { users } = (await call(server.port, HOST, 'GET', '/api/user/getCompanyUsers?pageSize=100', undefined, admin)).body as {
        users: { id: number; email: string }[];
      };
      const marcus = users.find((u) => u.email === TECH.email)!.id;
      const added = await call(
        server.port,
        HOST,
        'POST',
        '/api/work-orders/add-work-order',
        { title: `Phone check ${language}`, assignees: [marcus], priority: 'high', dueDate: new Date(Date.now() + 3600_000).toISOString() },
        admin,
      );
      const orderId = (added.body as { workOrder: { id: number } }).workOrder.id;
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
