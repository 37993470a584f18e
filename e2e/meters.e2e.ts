/**
 * Meters in the browser at phone width (390 px): a manager adds a running-hours meter to an asset from the
 * asset drawer's Meters tab, enters a reading, imports two more from a CSV file (a bad file first: nothing is
 * imported and each refused cell is listed), and the chart shows the readings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { addAssetInCategory, closeJourney, newPage, openOrgJourney, signIn, type Api, type TestOrg, type TestServer } from './helpers';

let server: TestServer;
let browser: Browser;
let org: TestOrg;
let api: Api;

beforeAll(async () => {
  ({ server, browser, org, api } = await openOrgJourney('Meters'));
  await addAssetInCategory(api, 'Air Compressor C-12', { code: 'CMP', name: 'Compressors' });
}, 120_000);
afterAll(() => closeJourney({ server, browser }));

describe('meters', () => {
  it('a manager adds a meter to an asset, a reading is entered and imported, and the chart shows them', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    try {
      await signIn(page, org);
      await page.goto(`${org.url}/dashboard/assets`);
      await page.getByText('Air Compressor C-12', { exact: true }).first().click();
      await page.getByRole('tab', { name: 'Meters' }).click();
      await page.getByText('No meters yet').waitFor();

      // Add a meter: the form's messages first, then a counter in hours.
      await page.getByTestId('meters-add').click();
      await page.getByTestId('meter-save').click();
      await page.getByText('Name is required').waitFor();
      await page.getByTestId('meter-name').fill('Running hours');
      await page.getByTestId('meter-unit').fill('h');
      await page.getByTestId('meter-save').click();
      await page.getByText('Meter added successfully').waitFor();
      await expect.poll(() => page.getByTestId('meter-card-name').allInnerTexts()).toEqual(['Running hours']);
      await expect.poll(() => page.getByTestId('meter-latest').innerText()).toBe('No readings yet');

      // Enter a reading (read an hour ago).
      await page.getByTestId('meter-enter-reading').click();
      await page.getByTestId('reading-value').fill('abc');
      await page.getByTestId('reading-save').click();
      await page.getByText('Value must be a number').waitFor();
      await page.getByTestId('reading-value').fill('1250.5');
      const anHourAgo = new Date(Date.now() - 3_600_000);
      anHourAgo.setMinutes(anHourAgo.getMinutes() - anHourAgo.getTimezoneOffset());
      // The read-at box is the app's date box (one format, typed day first) and a time box, not a native date-time input.
      expect(await page.getByTestId('reading-readAt').getAttribute('type')).not.toBe('datetime-local');
      await page.getByTestId('reading-readAt').fill(anHourAgo.toISOString().slice(0, 10).split('-').reverse().join('/'));
      await page.getByTestId('reading-readAt').press('Tab');
      await page.getByTestId('reading-readAt-time').fill(anHourAgo.toISOString().slice(11, 16));
      await page.getByTestId('reading-save').click();
      await page.getByText('Reading added successfully').waitFor();
      await expect.poll(() => page.getByTestId('meter-latest').innerText()).toMatch(/^Latest reading: 1,250\.5 h/);

      // The chart shows it.
      await page.getByTestId('meter-toggle-chart').click();
      await page.getByTestId('meter-chart').waitFor();
      await expect.poll(() => page.getByTestId('meter-reading-row').count()).toBe(1);
      await expect.poll(() => page.locator('[data-testid="meter-chart"] .recharts-line').count()).toBe(1);

      // A CSV file: a bad one is refused whole, with the line and column of each bad cell.
      await page.getByTestId('meters-import').click();
      const csv = (rows: string[]) => ({ name: 'readings.csv', mimeType: 'text/csv', buffer: Buffer.from(['meter,value,read at', ...rows].join('\n')) });
      await page.locator('input[type="file"]').setInputFiles(csv(['Running hours,1000,2026-01-01', 'Running hours,=HYPERLINK(1),2026-01-02']));
      await page.getByTestId('import-run').click();
      await page.getByTestId('import-result').getByText('Nothing was imported', { exact: false }).waitFor();
      await expect.poll(() => page.getByTestId('import-result').innerText()).toContain('Line 3, value');
      await page.locator('input[type="file"]').setInputFiles(csv(['Running hours,1100,2026-01-01', 'Running hours,1200,2026-01-02 08:00']));
      await page.getByTestId('import-run').click();
      await expect.poll(() => page.getByTestId('import-result').innerText()).toBe('Imported 2 readings');
      await page.getByTestId('import-close').click();
      await expect.poll(() => page.getByTestId('meter-reading-row').count()).toBe(3);
      await expect.poll(() => page.locator('[data-testid="meter-chart"] .recharts-line-dot').count()).toBe(3);
      // Nothing is wider than the phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const meters = (await api('GET', `/api/meters/list-meters?assetId=1`)).meters;
      expect(meters[0].latestReading.value).toBe(1250.5);
    } finally {
      await context.close();
    }
  }, 120_000);
});
