/**
 * The calendar in the browser (issue 23, decision 033): a manager sees a work order on its due day, drags it to
 * another day (the time of day stays), the move survives a reload and is in the order; a click opens the work
 * order drawer, a planned occurrence its details and its plan; at phone width (390 px) the list view shows. The browser runs in Asia/Riyadh (UTC+3, no
 * daylight saving), so the day the calendar shows is the reader's, not the server's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { call, launchBrowser, signIn, signUpOrg, startServer, toastTexts, type TestOrg, type TestServer } from './helpers';

let server: TestServer;
let browser: Browser;
let org: TestOrg;
let token: string;

const ZONE = 'Asia/Riyadh';
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000 });
const api = (method: string, path: string, body?: unknown) => call(server.port, `${org.subdomain}.localhost`, method, path, body, token);

// Two days of the current month (Riyadh): the order is due on the 10th at 13:00 there (10:00 UTC).
const now = new Date(Date.now() + 3 * 3_600_000);
const ym = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
const DUE_DAY = `${ym}-10`;
// A move goes no earlier than the order's creation day (decision 064): the 17th, or today when later in the month.
const TARGET_DAY = now.getUTCDate() > 17 ? now.toISOString().slice(0, 10) : `${ym}-17`;
const PLANNED_DAY = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 2)).toISOString().slice(0, 10);

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  org = await signUpOrg(server, 'Calendar Org');
  const login = await call(server.port, `${org.subdomain}.localhost`, 'POST', '/api/login', { email: org.email, password: org.password });
  token = login.body.accessToken;
  const added = await api('POST', '/api/work-orders/add-work-order', {
    title: 'Grease conveyor bearings',
    dueDate: `${DUE_DAY}T10:00:00.000Z`,
    priority: 'high',
  });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  // One due today, for the phone's list of this week.
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 9)).toISOString();
  expect((await api('POST', '/api/work-orders/add-work-order', { title: 'Check boiler pressure', dueDate: today })).status).toBe(201);
  // A weekly plan whose next occurrence (in two days) is not created yet: a planned entry.
  const category = await api('POST', '/api/asset-categories/add-asset-category', { name: 'Conveyors', code: 'CNV' });
  const asset = await api('POST', '/api/assets/add-asset', { name: 'Conveyor C-1', date: '2024-01-15', assetCategoryId: category.body.assetCategory.id });
  expect(asset.status, JSON.stringify(asset.body)).toBe(201);
  const plan = await api('POST', '/api/pm-plans/add-plan', {
    name: 'Weekly belt check',
    assetIds: [asset.body.asset.id],
    title: 'Check belt tension',
    trigger: 'calendar',
    frequency: 'weekly',
    interval: 1,
    weekdays: [['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'][new Date(Date.parse(PLANNED_DAY)).getUTCDay()]],
    schedule: 'fixed',
    startDate: PLANNED_DAY,
    leadDays: 0,
  });
  expect(plan.status, JSON.stringify(plan.body)).toBe(201);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(width: number, height: number) {
  const context = await browser.newContext({ viewport: { width, height }, timezoneId: ZONE });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  await signIn(page, org);
  return { context, page };
}

async function goToCalendar(page: Page) {
  await page.getByTestId('side-menu').getByText('Calendar', { exact: true }).click();
  await page.waitForURL(`${org.url}/dashboard/calendar`);
  await page.getByTestId('calendar-page').waitFor();
}

/** Drags with the mouse, in small steps (FullCalendar starts a drag after a few pixels). */
async function drag(page: Page, from: { x: number; y: number; width: number; height: number }, to: { x: number; y: number; width: number; height: number }) {
  const sx = from.x + from.width / 2;
  const sy = from.y + from.height / 2;
  await page.mouse.move(sx, sy);
  await page.mouse.down();
  await page.mouse.move(sx + 8, sy + 8, { steps: 4 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 20 });
  await page.mouse.up();
}

describe('calendar', () => {
  it('shows a work order on its due day; a manager drags it to another day and it stays there', async () => {
    const { context, page } = await open(1366, 900);
    try {
      await goToCalendar(page);
      await page.getByTestId('calendar-legend').waitFor();
      const entry = page.locator(`td[data-date="${DUE_DAY}"] [data-entry="work-order:1"]`);
      await entry.waitFor();
      expect(await entry.innerText()).toContain('WO-0001 · Grease conveyor bearings');

      await drag(page, (await entry.boundingBox())!, (await page.locator(`td[data-date="${TARGET_DAY}"]`).boundingBox())!);
      await poll(async () => (await toastTexts(page)).join(' ')).toContain('Rescheduled to');
      await page.locator(`td[data-date="${TARGET_DAY}"] [data-entry="work-order:1"]`).waitFor();

      // The day changed, the time of day (13:00 in Riyadh) did not.
      const saved = await api('GET', '/api/work-orders/get-work-order/1');
      expect(saved.body.workOrder.dueDate).toBe(`${TARGET_DAY}T10:00:00.000Z`);

      await page.reload();
      await page.getByTestId('calendar-page').waitFor();
      await page.locator(`td[data-date="${TARGET_DAY}"] [data-entry="work-order:1"]`).waitFor();
      expect(await page.locator(`td[data-date="${DUE_DAY}"] [data-entry="work-order:1"]`).count()).toBe(0);

      // Changed by someone else since the calendar loaded: the drag is refused (409), the entry goes back, a toast says why.
      const renamed = await api('PUT', '/api/work-orders/update-work-order/1', {
        title: 'Grease conveyor bearings (both sides)',
        dueDate: `${TARGET_DAY}T10:00:00.000Z`,
        priority: 'high',
      });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      const moved = page.locator(`td[data-date="${TARGET_DAY}"] [data-entry="work-order:1"]`);
      await drag(page, (await moved.boundingBox())!, (await page.locator(`td[data-date="${DUE_DAY}"]`).boundingBox())!);
      await poll(async () => (await toastTexts(page)).join(' ')).toContain('Someone else changed this order');
      await poll(async () => page.locator(`td[data-date="${TARGET_DAY}"] [data-entry="work-order:1"]`).innerText()).toContain('(both sides)');
      expect(await page.locator(`td[data-date="${DUE_DAY}"] [data-entry="work-order:1"]`).count()).toBe(0);
      expect((await api('GET', '/api/work-orders/get-work-order/1')).body.workOrder.dueDate).toBe(`${TARGET_DAY}T10:00:00.000Z`);

      // The plan's next occurrence is dashed, cannot be dragged, and a click shows what it will be.
      const planned = page.locator(`td[data-date="${PLANNED_DAY}"] [data-entry^="planned:"]`).first();
      await planned.waitFor();
      expect(await planned.getAttribute('class')).toContain('cmms-entry-planned');
      expect(await planned.getAttribute('class')).not.toContain('fc-event-draggable');
      expect(await page.locator('[data-entry="work-order:1"]').getAttribute('class')).toContain('fc-event-draggable');
      await planned.click();
      await poll(() => page.getByTestId('planned-details').innerText()).toContain('Weekly belt check');
      // The details' own Close button (the dialog's X and a toast's are named Close too: decision 066).
      await page.getByTestId('planned-details').locator('.mantine-Modal-body').getByRole('button', { name: 'Close', exact: true }).click();
      await page.getByTestId('planned-details').waitFor({ state: 'hidden' });

      // A click opens the work order's drawer in place.
      await page.locator('[data-entry="work-order:1"]').click();
      await poll(() => page.getByTestId('drawer-title').innerText()).toBe('WO-0001');

      // "Open plan" in a planned occurrence's details opens the plan on the plans screen.
      await page.keyboard.press('Escape');
      await page.getByTestId('drawer-title').waitFor({ state: 'hidden' });
      await planned.click();
      await page.getByTestId('planned-open-plan').click();
      await page.waitForURL(/\/dashboard\/pm-plans\?plan=\d+$/);
    } finally {
      await context.close();
    }
  });

  it('shows the list view at phone width', async () => {
    const { context, page } = await open(390, 844);
    try {
      await page.goto(`${org.url}/dashboard/calendar`);
      await page.getByTestId('calendar-page').waitFor();
      await page.locator('.cmms-calendar .fc-list').waitFor();
      expect(await page.locator('.cmms-calendar .fc-daygrid').count()).toBe(0);
      await poll(() => page.locator('.fc-list [data-entry="work-order:2"]').count()).toBe(1);
      expect(await page.locator('.fc-list [data-entry="work-order:2"]').innerText()).toContain('Check boiler pressure');
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    } finally {
      await context.close();
    }
  });
});
