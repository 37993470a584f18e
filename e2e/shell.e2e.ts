import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, signIn, signUpOrg, startServer, type TestServer } from './helpers';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the application shell', () => {
  it('collapses the menu and switches the theme; both survive a reload', async () => {
    const org = await signUpOrg(server);
    const { page, context } = await newPage(browser);
    await signIn(page, org);
    const shell = page.locator('.mantine-AppShell-root');
    await expect.poll(() => shell.getAttribute('data-collapsed')).toBe('false');
    // the menu of the spec
    for (const item of ['maintenanceRequest', 'maintenanceOrder', 'workOrders', 'workStations', 'services', 'quotations', 'purchaseOrders', 'customerVendors', 'partsInventory', 'assets', 'teams', 'settings']) {
      await expect.poll(() => page.getByTestId(`menu-${item}`).count()).toBe(1);
    }
    await page.getByTestId('collapse-menu').click();
    await expect.poll(() => shell.getAttribute('data-collapsed')).toBe('true');
    await page.getByTestId('theme-dark').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    await page.reload();
    await page.getByTestId('side-menu').waitFor();
    await expect.poll(() => page.locator('.mantine-AppShell-root').getAttribute('data-collapsed')).toBe('true');
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    await page.getByTestId('theme-light').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('light');
    // settings pinned at the bottom open the settings area with its own menu and a Dashboard link
    await page.getByTestId('collapse-menu').click();
    await page.getByTestId('menu-settings').click();
    await page.waitForURL(`${org.url}/settings/products-category`);
    await expect.poll(() => page.getByTestId('menu-workers').count()).toBe(1);
    await expect.poll(() => page.getByTestId('menu-dashboard').count()).toBe(1);
    await context.close();
  });

  it('redirects a signed-out visitor to /login and shows a not-found page for unknown routes', async () => {
    const org = await signUpOrg(server);
    const { page, context } = await newPage(browser);
    await page.goto(`${org.url}/dashboard/assets`);
    await page.waitForURL(`${org.url}/login`);
    await page.goto(`${org.url}/no-such-page`);
    await page.getByTestId('not-found').waitFor();
    await context.close();
  });

  it('becomes a drawer menu at phone width', async () => {
    const org = await signUpOrg(server);
    const { page, context } = await newPage(browser, { width: 390, height: 800 });
    await signIn(page, org);
    const box = await page.getByTestId('side-menu').boundingBox();
    expect(box && box.x + box.width <= 1).toBe(true); // off-canvas until the burger opens it
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByTestId('menu-assets').click();
    await page.waitForURL(`${org.url}/dashboard/assets`);
    await context.close();
  });
});
