/**
 * The accessibility sweep: axe-core (WCAG 2.0, 2.1 and 2.2, A and AA) on the login and register pages, every list
 * screen, an open work order drawer and an open quotation drawer, in English and Arabic, light and dark: no critical
 * and no serious finding. The demo organisation gives every list rows.
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

const NOT_LISTS = new Set(['/dashboard/analytics', '/dashboard/calendar']);
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
