/**
 * Arabic all the way (decision 065): the main screens of the demo organisation in Arabic show no English UI text
 * (user data, ids, units and product names aside); a validation message under a field and a server toast are Arabic.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeJourney, newPage, openJourney, signIn, toastTexts, type TestServer } from './helpers';

let server: TestServer;
let browser: Browser;
const demo = { email: 'admin@demo.com', password: 'Demo1234!', url: '' };

beforeAll(async () => {
  ({ server, browser } = await openJourney({ seedDemo: true }));
  demo.url = server.orgUrl('demo');
});
afterAll(() => closeJourney({ server, browser }));

/** Latin words allowed on an Arabic screen: product names, units, formats, the spec's codes. */
const ALLOWED = new Set(['CMMS', 'MaintainIQ', 'PDF', 'CSV', 'API', 'QR', 'UOM', 'ID', 'USD', 'SAR', 'AM', 'PM', 'HH', 'MM', 'DD', 'YYYY', 'kW', 'kg', 'km']);
const ARABIC = /[\u0600-\u06FF]/;

/** The screen's own words: the menu, the header, the page's titles, buttons, table headers and pager; not the rows (user data). */
async function uiText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts: string[] = [];
    const skip = (el: Element) => !!el.closest('tbody, [data-testid="brand"], .mantine-Notification-root, bdi, [data-user-data]');
    for (const el of document.querySelectorAll(
      'nav a, nav button, header button, main h1, main h2, main h3, main button, thead th, main label, [data-testid="total-records"]',
    )) {
      if (skip(el)) continue;
      // user data inside the element (isolated in <bdi>, the rows) is not the screen's own words
      const copy = el.cloneNode(true) as HTMLElement;
      copy.querySelectorAll('bdi, tbody, [data-user-data]').forEach((n) => n.remove());
      const text = copy.textContent?.trim();
      if (text) parts.push(text);
    }
    return parts.join('\n');
  });
}

function englishWords(text: string): string[] {
  return [...new Set((text.match(/[A-Za-z][A-Za-z'’-]{2,}/g) ?? []).filter((w) => !ALLOWED.has(w) && !/^[A-Z]{1,3}-?\d*$/.test(w)))];
}

describe('Arabic all the way', () => {
  it('the main screens have no English UI text; a field message and a server toast are Arabic', async () => {
    const { context, page } = await newPage(browser);
    await context.addInitScript(() => window.localStorage.setItem('cmms.language', 'ar'));
    try {
      await signIn(page, demo);
      const found: Record<string, string[]> = {};
      for (const path of [
        '/dashboard/work-orders',
        '/dashboard/maintenance-request',
        '/dashboard/assets',
        '/dashboard/services',
        '/dashboard/work-stations',
        '/dashboard/parts-inventory',
        '/dashboard/customer-vendors',
        '/dashboard/quotations',
        '/dashboard/purchase-orders',
        '/dashboard/teams',
        '/settings/taxes',
      ]) {
        await page.goto(`${demo.url}${path}`);
        await page.getByTestId('table-row').first().waitFor({ timeout: 30_000 });
        expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
        const words = englishWords(await uiText(page));
        if (words.length) found[path] = words;
      }
      expect(found).toEqual({});

      // a validation message under a field (the contract's English, translated)
      await page.goto(`${demo.url}/settings/assets-category`);
      await page.getByTestId('table-row').first().waitFor({ timeout: 30_000 });
      await page.locator('main').getByRole('button', { name: 'إضافة' }).first().click();
      await page.getByTestId('drawer-title').waitFor();
      await page.getByTestId('save-record').click();
      const error = page.locator('.mantine-InputWrapper-error').first();
      await error.waitFor();
      const message = await error.innerText();
      expect(message).toMatch(ARABIC);
      expect(englishWords(message)).toEqual([]);

      // a server toast: the API answers the spec's English, the reader sees Arabic
      const inputs = page.getByTestId('master-data-drawer').locator('input[type="text"], input:not([type])');
      await inputs.nth(0).fill(`فئة ${Date.now()}`);
      if ((await inputs.count()) > 1) await inputs.nth(1).fill(`C${String(Date.now()).slice(-5)}`);
      await page.getByTestId('save-record').click();
      await expect.poll(async () => (await toastTexts(page)).join(' | '), { timeout: 20_000 }).toMatch(ARABIC);
      const toasts = (await toastTexts(page)).join(' ');
      expect(toasts).toContain('بنجاح');
      expect(englishWords(toasts)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
