/**
 * Notifications reach people (issue 43, decision 074), on the demo organisation: a manager assigns a new work
 * order to Marcus (a technician); Marcus finds it in his bell, opens the order from it (the entry is then read),
 * and turns e-mail off for assignments in his notification settings, which are kept after a reload.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { closeJourney, newPage, openJourney, openNotificationSettings, signIn, type TestServer, toastTexts } from './helpers';

let server: TestServer;
let browser: Browser;
let url: string;

beforeAll(async () => {
  ({ server, browser } = await openJourney({ seedDemo: true }));
  url = server.orgUrl('demo');
});
afterAll(() => closeJourney({ server, browser }));

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000 });

describe('notifications', () => {
  it('a manager assigns a work order; the technician sees it in the bell, opens it and changes a setting', async () => {
    const manager = await newPage(browser);
    await signIn(manager.page, { url, email: 'manager@demo.com', password: 'Demo1234!' });
    await manager.page.goto(`${url}/dashboard/work-orders`);
    await manager.page.getByTestId('add-button').click();
    await manager.page.getByTestId('wo-title').fill('Check the conveyor motor');
    await manager.page.getByTestId('wo-assignees').click();
    await manager.page.getByRole('option', { name: 'Marcus Lee' }).first().click();
    await manager.page.keyboard.press('Escape');
    await manager.page.getByTestId('save-button').click();
    await poll(() => manager.page.getByTestId('drawer-title').innerText()).toMatch(/^WO-\d{4}$/);
    const woId = await manager.page.getByTestId('drawer-title').innerText();
    await manager.context.close();

    const tech = await newPage(browser);
    const { page } = tech;
    await signIn(page, { url, email: 'tech1@demo.com', password: 'Demo1234!' });
    await page.getByTestId('notifications').click();
    const item = page.getByTestId('notification-item').filter({ hasText: `You were assigned ${woId} Check the conveyor motor` });
    await item.waitFor();
    expect(await item.getAttribute('data-unread')).toBe('true');
    await item.click();
    await page.waitForURL(/\/dashboard\/work-orders\?open=\d+/);
    await poll(() => page.getByTestId('drawer-title').innerText()).toBe(woId);
    await page.keyboard.press('Escape');

    // Read now: the bell counts nothing for it.
    await page.getByTestId('notifications').click();
    await poll(() => item.getAttribute('data-unread')).toBe(null);
    await page.keyboard.press('Escape');

    // Profile / Notification settings: no e-mail for assignments.
    await openNotificationSettings(page);
    const email = page.getByTestId('notify-assigned-email');
    expect(await email.isChecked()).toBe(true);
    await email.click();
    await page.getByTestId('notification-settings-save').click();
    await poll(() => toastTexts(page)).toEqual(expect.arrayContaining([expect.stringContaining('Notification settings updated successfully')]));
    await page.reload();
    await openNotificationSettings(page);
    expect(await page.getByTestId('notify-assigned-email').isChecked()).toBe(false);
    expect(await page.getByTestId('notify-assigned-inApp').isChecked()).toBe(true);
    // A worker is not offered the managers' kinds.
    expect(await page.getByTestId('notify-low-stock-email').count()).toBe(0);
    await tech.context.close();
  });
});
