/**
 * Preventive maintenance plans in the browser (issue 23): a manager creates a plan, sees the preview of its next
 * due dates, and when the server's clock (CLOCK_FILE, decision 032) passes the first due day the generator's
 * scheduled job (every minute here) creates the work order by itself: it appears in the work orders list.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { formatDay } from '../src/shared/format';
import { call, launchBrowser, newPage, pick, signIn, signUpOrg, startServer, type TestOrg, type TestServer } from './helpers';

let server: TestServer;
let browser: Browser;
let org: TestOrg;
const clockDir = mkdtempSync(join(tmpdir(), 'cmms-clock-'));
const clockFile = join(clockDir, 'offset');
const DAY = 86_400_000;

beforeAll(async () => {
  writeFileSync(clockFile, '0');
  server = await startServer({ env: { CLOCK_FILE: clockFile, PM_GENERATOR_CRON: '* * * * *' } });
  org = await signUpOrg(server, 'Plans');
  const host = `${org.subdomain}.localhost`;
  const login = await call(server.port, host, 'POST', '/api/login', { email: org.email, password: org.password });
  const token = login.body.accessToken as string;
  const category = await call(server.port, host, 'POST', '/api/asset-categories/add-asset-category', { name: 'Pumps', code: 'PMP' }, token);
  const asset = await call(
    server.port,
    host,
    'POST',
    '/api/assets/add-asset',
    { name: 'Boiler Feed Pump', date: '2024-01-15', assetCategoryId: category.body.assetCategory.id },
    token,
  );
  if (asset.status !== 201) throw new Error(JSON.stringify(asset.body));
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(clockDir, { recursive: true, force: true });
});

const poll = <T>(fn: () => Promise<T> | T, timeout = 15_000) => expect.poll(fn, { timeout, interval: timeout > 15_000 ? 5000 : 250 });
const dayPlus = (n: number) => new Date(Date.now() + n * DAY).toISOString().slice(0, 10);
/** A day as the screens show it in English ("08 Dec 2026", decision 066): the app's own formatter. */
const shown = (day: string) => formatDay(day, 'en');

describe('preventive maintenance plans', () => {
  it('a manager creates a plan, sees its preview, and its work order appears by itself when it falls due', { timeout: 300_000 }, async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, org);
      // Preventive maintenance -> Plans in the side menu.
      await page.getByTestId('side-menu').getByText('Plans', { exact: true }).click();
      await poll(() => page.url()).toBe(`${org.url}/dashboard/pm-plans`);
      // The plans page itself, not the work orders list it replaces (its Add button would open a work order).
      await page.getByTestId('pm-filter-trigger').waitFor();
      await page.getByTestId('add-button').click();
      await poll(() => page.getByTestId('drawer-title').innerText()).toBe('New Plan');

      // Save with nothing: the schema's field messages.
      await page.getByTestId('save-button').click();
      await page.getByText('Plan name is required', { exact: true }).waitFor();
      await page.getByText('Choose at least one asset or a work station', { exact: true }).waitFor();

      await page.getByTestId('pm-name').fill('Daily lubrication');
      await pick(page, 'pm-assets', 'Boiler Feed Pump', 'Boiler');
      await page.keyboard.press('Escape');
      await pick(page, 'pm-frequency', 'Days');
      const start = dayPlus(2);
      await page.getByTestId('pm-start').fill(start);
      // An end before the start: a field message, and no preview.
      await page.getByTestId('pm-end').fill(dayPlus(1));
      await page.getByTestId('pm-preview-error').waitFor();
      await page.getByTestId('pm-end').fill('');
      // The live preview: 12 days from the start.
      await poll(() => page.getByTestId('pm-preview-date').count()).toBe(12);
      expect(await page.getByTestId('pm-preview-date').first().innerText()).toContain(shown(start));
      expect(await page.getByTestId('pm-preview-date').nth(1).innerText()).toContain(shown(dayPlus(3)));

      await page.getByRole('tab', { name: 'Work' }).click();
      await page.getByTestId('pm-title').fill('Lubricate the feed pump');
      await page.getByTestId('save-button').click();
      await page.getByText('Plan added successfully').first().waitFor();
      await poll(() => page.getByTestId('drawer-title').innerText()).toBe('Daily lubrication');
      await page.keyboard.press('Escape');
      // The list: the plan and its next due day.
      await page.getByText('Daily lubrication', { exact: true }).first().waitFor();
      await page.getByText(shown(start), { exact: true }).first().waitFor();

      // Nothing is due yet.
      await page.goto(`${org.url}/dashboard/work-orders`);
      await page.getByTestId('list-screen').waitFor();
      expect(await page.getByText('Lubricate the feed pump').count()).toBe(0);

      // Noon (UTC) of the start day on the server's clock: the scheduled generator creates it, nobody clicks
      // anything. Noon, not "now + 2 days": near midnight that would reach the next day too and create two.
      writeFileSync(clockFile, String(Date.parse(`${start}T12:00:00Z`) - Date.now()));
      await poll(async () => {
        await page.reload();
        await page.getByTestId('list-screen').waitFor();
        await page.waitForLoadState('networkidle');
        return page.getByText('Lubricate the feed pump', { exact: true }).count();
      }, 180_000).toBe(1);
    } finally {
      await context.close();
    }
  });
});
