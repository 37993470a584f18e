/**
 * Work orders in the browser, on the demo organisation (its seed has parts, reasons and orders): the
 * empty-title message, create, filter and reset, status, Add Time, a part, reload, delete with confirmation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeJourney, onSignedInPage, openJourney, pick, type TestServer } from './helpers';

let server: TestServer;
let browser: Browser;
let demo: { url: string; email: string; password: string };

beforeAll(async () => {
  ({ server, browser } = await openJourney({ seedDemo: true }));
  demo = { url: server.orgUrl('demo'), email: 'admin@demo.com', password: 'Demo1234!' };
});
afterAll(() => closeJourney({ server, browser }));

const text = (page: Page, s: string) => page.getByText(s, { exact: true });
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000 });

/** Types the day `daysAgo` days before today into a date-time field's day box (day first, as every box reads; time ends by now: issue 45), as a technician would. */
async function pickDay(page: Page, testId: string, daysAgo: number) {
  const day = new Date(Date.now() - daysAgo * 86_400_000);
  const box = page.getByTestId(testId);
  await box.fill(`${String(day.getDate()).padStart(2, '0')}/${String(day.getMonth() + 1).padStart(2, '0')}/${day.getFullYear()}`);
  await box.press('Tab');
}

describe('work orders', () => {
  it('creates, filters, changes status, logs time, adds a part, survives a reload and deletes', async () => {
    await onSignedInPage(browser, demo, null, async (page) => {
      await page.getByTestId('work-order-statistics').waitFor();
      await poll(() => page.getByTestId('stat-total-pending').innerText()).toMatch(/^\d+$/);
      const pendingBefore = Number(await page.getByTestId('stat-total-pending').innerText());

      // Create: the empty title shows the spec's message, then the order is added.
      await page.getByTestId('add-button').click();
      await poll(() => page.getByTestId('drawer-title').innerText()).toBe('New Work Order');
      await page.getByTestId('save-button').click();
      await text(page, 'Work Order Title is required').waitFor();
      await page.getByTestId('tab-errors-overview').waitFor();
      await page.getByTestId('wo-title').fill('Replace gearbox oil on mixer M-7');
      await page.getByTestId('wo-duration').fill('01:30');
      await pick(page, 'wo-priority', 'High');
      await page.getByTestId('save-button').click();
      await text(page, 'Work order added successfully').waitFor();
      await poll(() => page.getByTestId('drawer-title').innerText()).toMatch(/^WO-\d{4}$/);
      const woId = await page.getByTestId('drawer-title').innerText();
      await poll(() => page.getByTestId('stat-total-pending').innerText()).toBe(String(pendingBefore + 1));

      // Status from the drawer: server call, then the drawer and the row follow.
      await pick(page, 'wo-status', 'In Progress');
      await text(page, 'Work order status updated successfully').waitFor();
      const row = page.locator('tr', { hasText: woId });
      await poll(async () => (await row.innerText()).toLowerCase()).toContain('in progress');

      // Add Time: the spec's messages, then a valid entry.
      await page.getByTestId('add-time').click();
      await page.getByTestId('labor-save').click();
      await text(page, 'Reason is required').waitFor();
      await pickDay(page, 'labor-startTime', 3);
      await pickDay(page, 'labor-endTime', 4);
      await pick(page, 'labor-reason', 'Repair Work');
      await page.getByTestId('labor-save').click();
      await text(page, 'startTime must be before endTime').waitFor();
      await pickDay(page, 'labor-endTime', 2);
      await page.getByTestId('labor-save').click();
      await text(page, 'Work order labor added successfully').waitFor();
      await page.getByTestId('tab-labor').click();
      await page.getByTestId('labor-row').first().waitFor();
      expect(await page.getByTestId('labor-row').first().innerText()).toContain('Repair Work');
      await poll(() => page.getByTestId('labor-total').innerText()).toContain('24h 0m');

      // A part from the parts options.
      await page.getByTestId('tab-parts').click();
      await pick(page, 'part-select', 'V-Belt A42', 'V-Belt');
      await page.getByTestId('add-part').click();
      await text(page, 'Work order part added successfully').waitFor();
      await page.getByTestId('part-row').first().waitFor();
      await poll(() => page.getByTestId('parts-total').innerText()).toContain('12.40');

      // Filter by title and status (in the query string), then reset.
      await page.keyboard.press('Escape');
      // (the demo's history has gearbox orders of its own: the mixer's is this journey's)
      await page.getByTestId('filter-title').fill('oil on mixer M-7');
      await page.waitForURL(/title=oil/);
      await poll(() => page.getByTestId('table-row').count()).toBe(1);
      await page.getByTestId('filter-title').fill('nothing like this at all');
      await page.getByTestId('no-results').waitFor();
      await page.getByTestId('reset-filters').click();
      await poll(() => page.getByTestId('table-row').count()).toBe(10);

      // Reload: the order, its status, labour and part are all there.
      await page.reload();
      await page.locator('tr', { hasText: woId }).click();
      await poll(() => page.getByTestId('drawer-title').innerText()).toBe(woId);
      await poll(() => page.getByTestId('wo-status').inputValue()).toBe('In Progress');
      expect(await page.getByTestId('wo-title').inputValue()).toBe('Replace gearbox oil on mixer M-7');
      await page.getByTestId('tab-labor').click();
      await page.getByTestId('labor-row').first().waitFor();
      await page.getByTestId('tab-parts').click();
      await poll(() => page.getByTestId('part-row').first().innerText()).toContain('V-Belt A42');

      // Delete with confirmation.
      await page.getByTestId('delete-button').click();
      await text(page, 'Are you sure you want to delete this work order?').waitFor();
      await page.getByTestId('confirm-yes').click();
      await text(page, 'Work order deleted successfully').waitFor();
      await poll(() => page.locator('tr', { hasText: woId }).count()).toBe(0);
    });
  });
});
