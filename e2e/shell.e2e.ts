import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { closeJourney, newPage, onSignedInPage, openJourney, openNotificationSettings, signIn, signUpOrg, type TestServer, toastTexts } from './helpers';

let server: TestServer;
let browser: Browser;

beforeAll(async () => ({ server, browser } = await openJourney()));
afterAll(() => closeJourney({ server, browser }));

describe('the application shell', () => {
  it('collapses the menu and switches the theme; both survive a reload', async () => {
    const org = await signUpOrg(server);
    await onSignedInPage(browser, org, null, async (page) => {
      const shell = page.locator('.mantine-AppShell-root');
      await expect.poll(() => shell.getAttribute('data-collapsed')).toBe('false');
      // the menu of the spec
      for (const item of [
        'maintenanceRequest',
        'maintenanceOrder',
        'workOrders',
        'workStations',
        'services',
        'quotations',
        'purchaseOrders',
        'customerVendors',
        'partsInventory',
        'assets',
        'teams',
        'settings',
      ]) {
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
    });
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
    // Keyboard: the first Tab stop skips to the content; the closed menu is out of the Tab order (issue 29).
    await page.locator('body').focus();
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('skip-link');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main-content');
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const inMenu = await page.evaluate(() => !!document.activeElement?.closest('[data-testid="side-menu"]'));
      expect(inMenu).toBe(false);
    }
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByTestId('menu-assets').click();
    await page.waitForURL(`${org.url}/dashboard/assets`);
    await context.close();
  });
});

describe('the list-screen kit on the users screen', () => {
  it('keeps filters in the query string, resets them, remembers the column choice, and writes notes', async () => {
    const org = await signUpOrg(server);
    await onSignedInPage(browser, org, '/settings/users', async (page) => {
      await page.getByText(org.email).waitFor();
      await page.getByTestId('filter-name').fill('nobody-matches');
      await page.waitForURL(/name=nobody-matches/);
      await page.getByTestId('no-results').waitFor();
      await page.getByTestId('reset-filters').click();
      await page.getByText(org.email).waitFor();
      expect(page.url()).toBe(`${org.url}/settings/users`);
      await page.goto(`${org.url}/settings/users?pageSize=50`);
      expect(await page.getByTestId('page-size').inputValue()).toBe('50');

      await page.getByTestId('column-chooser').click();
      await page.getByRole('menuitem', { name: 'Email' }).click();
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('columnheader', { name: 'Email' }).count()).toBe(0);
      await page.reload();
      await page.getByTestId('table-row').first().waitFor();
      expect(await page.getByRole('columnheader', { name: 'Email' }).count()).toBe(0);

      // the drawer's Note Logs are real
      await page.getByTestId('table-row').first().click();
      await page.getByTestId('note-input').fill('Met at the plant');
      await page.getByTestId('note-add').click();
      await page.getByText('Met at the plant').waitFor();
    });
  });
  it('keeps notification settings on the server, and forgets stored preferences when cookies are refused', async () => {
    const org = await signUpOrg(server);
    await onSignedInPage(browser, org, null, async (page) => {
      // The bell holds my notifications (decision 074): none yet for a new organisation's admin.
      await page.getByTestId('notifications').click();
      await page.getByText('Nothing new yet.').waitFor();
      await page.getByTestId('bell-notification-settings').click();
      await page.getByTestId('notification-settings-form').waitFor();
      await page.getByTestId('notify-mention-push').click();
      await page.getByTestId('notification-settings-save').click();
      await expect.poll(() => toastTexts(page)).toEqual(expect.arrayContaining([expect.stringContaining('Notification settings updated successfully')]));
      // The choice is kept on the server: it is there after a reload, from the user menu.
      await page.reload();
      await openNotificationSettings(page);
      expect(await page.getByTestId('notify-mention-push').isChecked()).toBe(false);
      expect(await page.getByTestId('notify-mention-email').isChecked()).toBe(true);
      await page.getByRole('button', { name: 'Cancel' }).click();

      // Cookies and storage: refusing preferences forgets the stored ones (the collapsed menu here).
      await page.getByTestId('collapse-menu').click();
      await expect.poll(() => page.evaluate(() => localStorage.getItem('cmms.sidebarCollapsed'))).toBe('true');
      await page.getByTestId('user-menu').click();
      await page.getByTestId('menu-cookie-settings').click();
      await page.getByTestId('cookie-preferences').locator('..').click();
      await page.getByTestId('cookie-settings-save').click();
      await expect.poll(() => toastTexts(page)).toEqual(expect.arrayContaining([expect.stringContaining('Cookie settings updated successfully')]));
      const kept = await page.evaluate(() =>
        Object.keys(localStorage)
          .filter((k) => k.startsWith('cmms.'))
          .sort(),
      );
      expect(kept.filter((k) => k !== 'cmms.storage-consent' && k !== 'cmms.auth-event' && k !== 'cmms.language')).toEqual([]);
      await page.reload();
      await page.getByTestId('side-menu').waitFor();
      await expect.poll(() => page.locator('.mantine-AppShell-root').getAttribute('data-collapsed')).toBe('false');
    });
  });
});
