/**
 * Procedures in the browser, on the demo organisation: a manager builds a procedure in Settings -> Procedures
 * (steps of three kinds, one moved up) and attaches it to a work order; the technician, on a 390 px phone, sees
 * "0 of 3", cannot close the order with required steps empty, fills the steps (a number out of range is
 * flagged and makes a follow-up work order in one click) and closes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { call, launchBrowser, newPage, pick, signIn, startServer, type TestServer } from './helpers';

let server: TestServer;
let browser: Browser;
let demo: { url: string; email: string; password: string };
const TITLE = 'Monthly check of feed pump P-101';

beforeAll(async () => {
  server = await startServer({ seedDemo: true });
  demo = { url: server.orgUrl('demo'), email: 'admin@demo.com', password: 'Demo1234!' };
  browser = await launchBrowser();
  // The work order, assigned to the technician Marcus Lee (tech1), made through the API.
  const host = 'demo.localhost';
  const login = await call(server.port, host, 'POST', '/api/login', { email: demo.email, password: demo.password });
  const workers = await call(server.port, host, 'GET', '/api/user/getCompanyUsers?pageSize=100', undefined, login.body.accessToken);
  const marcus = (workers.body.users as { id: number; email: string }[]).find((u) => u.email === 'tech1@demo.com')!;
  const added = await call(server.port, host, 'POST', '/api/work-orders/add-work-order', { title: TITLE, assignees: [marcus.id] }, login.body.accessToken);
  if (added.status !== 201) throw new Error(JSON.stringify(added.body));
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const text = (page: Page, s: string) => page.getByText(s, { exact: true });
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000 });

async function openOrder(page: Page) {
  await page.locator('tr', { hasText: TITLE }).first().click();
  await poll(() => page.getByTestId('drawer-title').innerText()).toMatch(/^WO-\d{4}$/);
  await page.getByTestId('tab-procedure').click();
}

describe('procedures', () => {
  it('a manager builds and attaches a procedure; a technician fills it at phone width and closes the order', async () => {
    const manager = await newPage(browser);
    try {
      const page = manager.page;
      await signIn(page, demo);
      await page.goto(`${demo.url}/settings/procedures`);
      await page.getByTestId('add-button').click();
      await poll(() => page.getByTestId('drawer-title').innerText()).toBe('New Procedure');
      // An empty label gets its message.
      await page.getByTestId('procedure-name').fill('Feed pump monthly check');
      await page.getByTestId('procedure-save').click();
      await text(page, 'Step label is required').waitFor();

      await page.getByTestId('step-0-label').fill('Seal leak test');
      await pick(page, 'step-0-kind', 'Pass / Fail / Flag');
      await page.getByTestId('step-0-required').click();
      await page.getByTestId('add-step').click();
      await pick(page, 'step-1-kind', 'Number');
      await page.getByTestId('step-1-label').fill('Discharge pressure');
      await page.getByTestId('step-1-unit').fill('bar');
      await page.getByTestId('step-1-min').fill('1');
      await page.getByTestId('step-1-max').fill('5');
      await page.getByTestId('step-1-required').click();
      await page.getByTestId('step-1-follow-up').click();
      await page.getByTestId('add-step').click();
      await page.getByTestId('step-2-label').fill('Isolate the pump');
      await page.getByTestId('step-2-required').click();
      // Isolation comes first: moved up twice.
      await page.getByTestId('step-2-up').click();
      await page.getByTestId('step-1-up').click();
      await poll(() => page.getByTestId('step-0-label').inputValue()).toBe('Isolate the pump');
      await page.getByTestId('procedure-save').click();
      await text(page, 'Procedure added successfully').waitFor();
      // The demo's two procedures and the new one.
      await poll(() => page.getByTestId('table-row').count()).toBe(3);
      await page.keyboard.press('Escape');

      // Attach it to the work order.
      await page.goto(`${demo.url}/dashboard/work-orders`);
      await openOrder(page);
      await text(page, 'No procedure attached').waitFor();
      await pick(page, 'procedure-pick', 'Feed pump monthly check');
      await page.getByTestId('procedure-attach').click();
      await text(page, 'Procedure attached successfully').waitFor();
      await poll(() => page.getByTestId('procedure-progress').innerText()).toBe('0 of 3');
    } finally {
      await manager.context.close();
    }

    const tech = await newPage(browser, { width: 390, height: 844 });
    try {
      const page = tech.page;
      await signIn(page, { url: demo.url, email: 'tech1@demo.com', password: 'Demo1234!' });
      await openOrder(page);
      await poll(() => page.getByTestId('procedure-progress').innerText()).toBe('0 of 3');
      await text(page, '3 required steps left').waitFor();

      // Closing with required steps empty is refused with the server's message.
      await pick(page, 'wo-status', 'Closed');
      await text(page, 'Fill the 3 required procedure steps before closing this work order').waitFor();

      await page.getByTestId('procedure-step-1-input').click();
      await poll(() => page.getByTestId('procedure-progress').innerText()).toBe('1 of 3');
      // Out of range: flagged, and the follow-up is one click.
      await page.getByTestId('procedure-step-3-input').fill('7.5');
      await page.getByTestId('procedure-step-3-input').press('Enter');
      await page.getByTestId('procedure-step-3-flag').waitFor();
      await poll(() => page.getByTestId('procedure-progress').innerText()).toBe('2 of 3');
      await page.getByTestId('procedure-step-3-follow-up').click();
      await poll(() => page.getByText(/^Follow-up work order WO-\d{4} created$/).count()).toBeGreaterThan(0);
      await page.getByTestId('procedure-step-3-follow-up-link').waitFor();
      await page.getByTestId('procedure-step-2').getByText('Pass', { exact: true }).click();
      await poll(() => page.getByTestId('procedure-progress').innerText()).toBe('3 of 3');
      await poll(() => page.getByTestId('procedure-required-left').count()).toBe(0);

      // Nothing wider than the phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      await pick(page, 'wo-status', 'Closed');
      await text(page, 'Work order status updated successfully').waitFor();
    } finally {
      await tech.context.close();
    }
  });
});
