/**
 * The accessibility sweep: axe-core (WCAG 2.0, 2.1 and 2.2, A and AA) on the login and register pages, every list
 * screen, an open work order drawer and an open quotation drawer, in English and Arabic, light and dark: no critical
 * and no serious finding. The demo organisation gives every list rows. And a phone (390 px): a quotation's drawer
 * fits the screen, its lines are stacked cards, and it prints (the PDF route).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { dashboardMenu, settingsMenu } from '../src/web/app/menu';
import { axeCriticalAndSerious, launchBrowser, newPage, signIn, startServer, type AxeFinding, type TestServer } from './helpers';

let server: TestServer;
let browser: Browser;
const demo = { email: 'admin@demo.com', password: 'Demo1234!', url: '' };

beforeAll(async () => {
  server = await startServer({ seedDemo: true });
  demo.url = server.orgUrl('demo');
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

// Not list screens. The insights, API keys, webhooks and import pages (merged after this sweep was written) are
// not swept yet: issue 29's note lists them.
const NOT_LISTS = new Set(['/dashboard/analytics', '/dashboard/calendar', '/dashboard/insights', '/settings/api-keys', '/settings/webhooks', '/settings/import-export']);
const LISTS = [...dashboardMenu.flatMap((g) => g.items), ...settingsMenu].map((i) => i.path).filter((p) => !NOT_LISTS.has(p));

/** A list screen with its rows (or its empty state) on screen, no spinner left. */
async function openList(page: Page, path: string) {
  await page.goto(`${demo.url}${path}`);
  await page.getByTestId('list-screen').waitFor({ timeout: 45_000 });
  await page.getByTestId('table-row').or(page.getByTestId('no-results')).first().waitFor({ timeout: 30_000 });
  await page.getByTestId('table-loading').waitFor({ state: 'detached' }).catch(() => undefined);
}

/** Opens the first row's drawer and waits for its title. */
async function openFirstRecord(page: Page) {
  await page.getByTestId('table-row').first().click();
  await page.getByTestId('drawer-title').waitFor();
  // Let the drawer's transition end: axe measures colours on the final frame.
  await page.waitForTimeout(400);
}

for (const language of ['en', 'ar'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    it.skipIf(process.env.A11Y_ONLY && process.env.A11Y_ONLY !== `${language}-${theme}`)(`has no critical or serious axe finding (${language}, ${theme})`, async () => {
      const { context, page } = await newPage(browser);
      await context.addInitScript(
        ([lang, scheme]) => {
          window.localStorage.setItem('cmms.language', lang);
          window.localStorage.setItem('cmms.theme', JSON.stringify(scheme));
        },
        [language, theme],
      );
      const findings: AxeFinding[] = [];
      const sweep = async (where: string) => findings.push(...(await axeCriticalAndSerious(page, `${language}/${theme} ${where}`)));
      try {
        await page.goto(`${server.baseUrl}/register`);
        await page.locator('form').first().waitFor();
        await sweep('register');
        await page.goto(`${demo.url}/login`);
        await page.getByTestId('login-email').waitFor();
        await sweep('login');
        await signIn(page, demo);
        for (const path of LISTS) {
          await openList(page, path);
          await sweep(path);
        }
        await openList(page, '/dashboard/work-orders');
        await openFirstRecord(page);
        await sweep('work order drawer');
        await openList(page, '/dashboard/quotations');
        await openFirstRecord(page);
        await sweep('quotation drawer');
        const report = findings.map((f) => `${f.impact} ${f.id} ${f.help}\n  ${f.nodes.slice(0, 4).join('\n  ')}`).join('\n');
        if (report) console.log(report);
        expect(findings.length, report).toBe(0);
      } finally {
        await context.close();
      }
    }, 600_000);
  }
}

it('a phone (390 px) opens a quotation that fits the screen, with its lines as cards, and prints it', async () => {
  const { context, page } = await newPage(browser, { width: 390, height: 844 });
  try {
    await signIn(page, demo);
    await openList(page, '/dashboard/quotations');
    await openFirstRecord(page);
    await page.getByTestId('q-services-cards').waitFor();
    await page.getByTestId('q-services-0-quantity').waitFor();
    // nothing wider than the screen: no sideways scrolling, and the buttons are on it
    const overflow = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="q-drawer"] *')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && el.getBoundingClientRect().width > 0).length,
    );
    expect(overflow).toBe(0);
    for (const id of ['q-save', 'q-print', 'q-delete']) {
      const box = (await page.getByTestId(id).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    const popupPromise = context.waitForEvent('page');
    const pdfResponse = page.waitForResponse((res) => res.url().includes('/api/quotations/get-quotation-pdf/'));
    await page.getByTestId('q-print').click();
    const response = await pdfResponse;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/pdf');
    const popup = await popupPromise;
    await expect.poll(() => popup.url(), { timeout: 15_000 }).toMatch(/^blob:/);
  } finally {
    await context.close();
  }
}, 180_000);
