/**
 * The accessibility sweep: axe-core (WCAG 2.0, 2.1 and 2.2, A and AA) on the login and register pages, every list
 * screen, the pages that are not lists (insights, dashboard, calendar, API keys, webhooks, import/export, storerooms,
 * locations, failure codes), the create and edit drawers of a work order (each tab), a quotation, a part (its Stock
 * tab with the Transfer and Count dialogs) and an asset (each tab, the State tab, its date picker's calendar open),
 * a purchase order's Receive dialog, the confirm-delete, discard and on-hold dialogs, the user menu and the column
 * chooser, validation errors, a toast, Add Time, the request drawer, the PM skip dialog (of a plan made through the
 * API), a meters chart, the scheduled-report form, the Security tab's new recovery codes, and the technician app
 * with its stock count (issue 46), in English and Arabic, light and dark: no critical and no serious finding.
 *
 * Each variant starts in the opposite language and theme (so the four variants' register and login pages cover
 * the four pairs), then chooses its own in place through the shell's language menu and theme switch, as a user
 * does, and sweeps the work orders and the assets it reaches without a reload: a screen that only breaks after an
 * in-place switch is caught. The rest is loaded with the choice remembered. The demo organisation gives every list
 * rows. And a phone (390 px): a quotation's drawer fits the screen, its lines are stacked cards, and it prints.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { dashboardMenu, settingsMenu } from '../src/web/app/menu';
import { axeCriticalAndSerious, call, launchBrowser, newPage, signIn, signUpOrg, startServer, type AxeFinding, type TestServer } from './helpers';
import {
  escapeFrom,
  go,
  listShown,
  openFirstRecord,
  openList,
  openPage,
  settle,
  sweepDialog,
  sweepFirstRecord,
  sweepOnceShown,
  sweepTab,
  sweepTabs,
  switchInPlace,
  type Sweep,
} from './a11y-kit';

let server: TestServer;
let browser: Browser;
const demo = { email: 'admin@demo.com', password: 'Demo1234!', url: '' };

beforeAll(async () => {
  server = await startServer({ seedDemo: true });
  demo.url = server.orgUrl('demo');
  browser = await launchBrowser();
  // The demo has no preventive maintenance plan: one on its first asset, so that the PM skip dialog is swept.
  const host = new URL(demo.url).host.replace(/:\d+$/, '');
  const login = await call(server.port, host, 'POST', '/api/login', { email: demo.email, password: demo.password });
  const token = login.body.accessToken as string;
  const assets = await call(server.port, host, 'GET', '/api/assets/get-assets?pageSize=10', undefined, token);
  if (assets.status !== 200) throw new Error(`get-assets: ${assets.status} ${JSON.stringify(assets.body)}`);
  const assetId = (assets.body.assets as { id: number }[])[0]!.id;
  const plan = await call(
    server.port,
    host,
    'POST',
    '/api/pm-plans/add-plan',
    { name: 'Axe weekly check', title: 'Weekly check', assetIds: [assetId], frequency: 'weekly', startDate: new Date().toISOString().slice(0, 10) },
    token,
  );
  if (plan.status !== 201) throw new Error(`add-plan: ${plan.status} ${JSON.stringify(plan.body)}`);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The menu's pages that are not list screens, and what each shows once loaded. */
const PAGES: Record<string, string> = {
  '/dashboard/analytics': 'main',
  '/dashboard/calendar': '.cmms-calendar .fc-daygrid-day, .cmms-calendar .fc-list, .cmms-calendar .fc-timegrid',
  '/dashboard/insights': '[data-testid="insights-throughput"]',
  '/settings/api-keys': '[data-testid="api-keys-table"], [data-testid="api-key-add"]:not([disabled])',
  '/settings/webhooks': '[data-testid="webhooks-table"], [data-testid="webhook-add"]:not([disabled])',
  '/settings/import-export': '[data-testid="import-export-page"]',
  '/dashboard/storerooms': '[data-testid="storeroom-list"]',
  '/dashboard/locations': '[data-testid="location-tree"], [data-testid="add-location"]',
  '/settings/single-sign-on': '[data-testid="sso-settings"]',
  '/settings/failure-codes': '[data-testid="add-problem"]',
};
const NOT_LISTS = new Set(Object.keys(PAGES));
const LISTS = [...dashboardMenu.flatMap((g) => g.items), ...settingsMenu].map((i) => i.path).filter((p) => !NOT_LISTS.has(p));

type Language = 'en' | 'ar';
const describe = (list: AxeFinding[]) => list.map((f) => `${f.impact} ${f.id} ${f.help}\n  ${f.nodes.slice(0, 4).join('\n  ')}`).join('\n');
type Theme = 'light' | 'dark';

/** On its first visit of each origin only, the page starts in the given language and theme; then what was chosen stays. */
async function startIn(context: BrowserContext, language: Language, theme: Theme) {
  await context.addInitScript(
    ([lang, scheme]) => {
      if (window.localStorage.getItem('cmms.a11y-started')) return;
      window.localStorage.setItem('cmms.a11y-started', 'true');
      window.localStorage.setItem('cmms.language', lang);
      window.localStorage.setItem('cmms.theme', JSON.stringify(scheme));
    },
    [language, theme],
  );
}

/**
 * From the work orders list, without a reload: the list, the user menu and the column chooser; the create drawer
 * (its tabs), the discard question, the edit drawer (its tabs), confirm delete; validation errors, a toast, the
 * on-hold dialog, Add Time with its messages.
 */
async function workOrderStates(page: Page, sweep: Sweep, title: string) {
  await listShown(page);
  await sweep('/dashboard/work-orders');
  await page.getByTestId('user-menu').click();
  await sweepDialog(page, sweep, 'menu-profile', 'user menu');
  await escapeFrom(page, 'menu-profile');
  await page.getByTestId('column-chooser').first().click();
  await sweepOnceShown(page, sweep, page.getByRole('menuitem').first(), 'column chooser');
  await page.keyboard.press('Escape');
  await page.getByRole('menuitem').first().waitFor({ state: 'detached' });

  await page.getByTestId('add-button').click();
  await page.getByTestId('drawer-title').waitFor();
  await settle(page);
  await sweepTabs(page, sweep, 'new work order');
  await page.getByRole('tab').first().click();
  await page.getByTestId('wo-title').fill('Unsaved');
  await page.keyboard.press('Escape');
  await sweepDialog(page, sweep, 'confirm-yes', 'discard dialog');
  await page.getByTestId('confirm-yes').click();
  await page.getByTestId('drawer-title').waitFor({ state: 'detached' });
  await openFirstRecord(page);
  await sweep('work order drawer');
  await sweepTabs(page, sweep, 'work order');
  await page.getByTestId('delete-button').click();
  await sweepDialog(page, sweep, 'confirm-cancel', 'confirm delete dialog');
  await page.getByTestId('confirm-cancel').click();
  await page.getByTestId('confirm-cancel').waitFor({ state: 'detached' });
  await page.keyboard.press('Escape');
  await page.getByTestId('drawer-title').waitFor({ state: 'detached' });

  // Issue 46: the states where problems hide.
  await page.getByTestId('add-button').click();
  await page.getByTestId('drawer-title').waitFor();
  await page.getByTestId('save-button').click();
  await sweepOnceShown(page, sweep, page.getByTestId('tab-errors-overview'), 'work order validation errors');
  await page.getByTestId('wo-title').fill(title);
  await page.getByTestId('save-button').click();
  await sweepOnceShown(page, sweep, page.locator('.mantine-Notification-root').first(), 'toast');
  await page.getByTestId('wo-hold').click();
  await sweepDialog(page, sweep, 'hold-reason', 'on-hold dialog');
  await escapeFrom(page, 'hold-reason');
  await page.getByTestId('add-time').click();
  await page.getByTestId('labor-save').click();
  await sweepOnceShown(page, sweep, page.getByTestId('add-time-form').locator('.mantine-InputWrapper-error').first(), 'add time with its messages');
  await escapeFrom(page, 'add-time-form');
  await escapeFrom(page, 'drawer-title');
}

/** The assets, reached through the side menu (in place): the list, the create drawer and its day field's calendar. */
async function assetStatesInPlace(page: Page, sweep: Sweep) {
  await page.getByTestId('menu-assets').click();
  await page.waitForURL(/\/dashboard\/assets$/);
  await listShown(page);
  await sweep('/dashboard/assets (in place)');
  // The create drawer from a loaded list, as before the in-place sweep: reached through the menu, Add left one
  // variant of each loaded run without its drawer (five clicks apart), which a load of the page never did.
  await openList(page, '/dashboard/assets');
  // The new asset's own field, not a drawer title (a drawer still closing from the work orders has one). On a
  // loaded machine a click on Add can land before the page reacts: clicked again until the drawer is there.
  const dateField = page.getByTestId('field-date');
  for (let attempt = 0; attempt < 5 && !(await dateField.isVisible()); attempt++) {
    await page
      .getByTestId('add-button')
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    await dateField.waitFor({ timeout: 8_000 }).catch(() => undefined);
  }
  await dateField.waitFor();
  await settle(page);
  await sweep('new asset');
  await page.getByTestId('field-date').click();
  await sweepOnceShown(
    page,
    sweep,
    page.locator('.mantine-DatePicker-day, .mantine-DateInput-day, [data-dates-day], table[class*="month"] button').first(),
    'date picker calendar',
  );
  await page.keyboard.press('Escape');
  await escapeFrom(page, 'drawer-title');
}

/** An asset's drawer: each tab, its State tab's timeline, its meters chart. */
async function assetRecordStates(page: Page, sweep: Sweep) {
  await sweepFirstRecord(page, sweep, '/dashboard/assets', 'asset');
  await sweepTab(page, sweep, 'tab-state', page.getByTestId('asset-state-timeline'), 'asset State tab');
  await page.getByTestId('tab-meters').click();
  await page.getByTestId('meter-toggle-chart').or(page.getByTestId('meters-add')).first().waitFor();
  if (await page.getByTestId('meter-toggle-chart').count()) {
    await page.getByTestId('meter-toggle-chart').first().click();
    await sweepOnceShown(page, sweep, page.getByTestId('meter-chart'), 'meters chart');
  }
  await escapeFrom(page, 'drawer-title');
}

/** Stock: a part's Stock tab with its Transfer and Count dialogs, a purchase order's Receive dialog. */
async function stockStates(page: Page, sweep: Sweep) {
  await sweepFirstRecord(page, sweep, '/dashboard/parts-inventory', 'part');
  await sweepTab(page, sweep, 'tab-stock', page.getByTestId('open-transfer'), 'part Stock tab');
  for (const [open, dialog, submit] of [
    ['open-transfer', 'transfer-dialog', 'transfer-submit'],
    ['open-count', 'count-dialog', 'count-submit'],
  ] as const) {
    await page.getByTestId(open).click();
    await sweepDialog(page, sweep, dialog, dialog);
    await page.getByTestId(submit).click();
    await sweepOnceShown(page, sweep, page.getByTestId(dialog).locator('.mantine-InputWrapper-error').first(), `${dialog} with its messages`);
    await escapeFrom(page, dialog);
  }
  await escapeFrom(page, 'drawer-title');

  await openList(page, '/dashboard/purchase-orders');
  await openFirstRecord(page);
  await page.getByTestId('po-receive').waitFor();
  await page.getByTestId('po-receive').click();
  await sweepDialog(page, sweep, 'receive-dialog', 'purchase order Receive dialog');
  await escapeFrom(page, 'receive-dialog');
  await escapeFrom(page, 'drawer-title');
}

/** The request drawer, the PM skip dialog with its message (the plan made in the set-up), the scheduled-report form. */
async function otherStates(page: Page, sweep: Sweep) {
  await openList(page, '/dashboard/requests');
  if (await page.getByTestId('table-row').count()) {
    await page.getByTestId('table-row').first().click();
    await sweepOnceShown(page, sweep, page.getByTestId('portal-request-status'), 'request drawer');
    await page.keyboard.press('Escape');
  }
  await openList(page, '/dashboard/pm-plans');
  await openFirstRecord(page);
  await page.getByTestId('pm-skip').click();
  await page.getByTestId('pm-skip-confirm').click();
  await sweepOnceShown(page, sweep, page.locator('.mantine-Modal-content .mantine-InputWrapper-error').first(), 'PM skip dialog with its message');
  await escapeFrom(page, 'pm-skip-reason');
  await page.keyboard.press('Escape');

  await openPage(page, '/dashboard/insights', PAGES['/dashboard/insights']!);
  await page.getByTestId('schedule-report').click();
  await sweepDialog(page, sweep, 'schedule-report-save', 'scheduled-report form');
  await escapeFrom(page, 'schedule-report-save');
}

/** The technician app: My work, an order's screen, the stock count with a storeroom chosen. */
async function technicianStates(page: Page, sweep: Sweep) {
  await go(page, '/dashboard/my-work');
  await page.locator('[data-testid^="my-work-card-"]').or(page.getByRole('heading').first()).first().waitFor({ timeout: 45_000 });
  await settle(page);
  await sweep('technician app');
  if (await page.locator('[data-testid^="my-work-card-"]').count()) {
    await page.locator('[data-testid^="my-work-card-"]').first().click();
    await sweepOnceShown(page, sweep, page.locator('#wo-screen-title'), 'technician work order');
    await go(page, '/dashboard/my-work');
  }
  await page.getByTestId('my-work-count').click();
  await sweepOnceShown(page, sweep, page.getByTestId('count-screen'), 'technician stock count');
  await page.getByTestId('count-storeroom').click();
  await page.getByRole('option').first().click();
  await sweepOnceShown(page, sweep, page.locator('[data-testid^="count-line-"], [data-testid="count-empty"]').first(), 'technician stock count of a storeroom');
}

/**
 * The Security tab's new recovery codes, in an organisation of its own (two-factor on the demo's admin would stop
 * the other variants' sign-in): two-factor enrolled, then the regeneration's form with its message and the codes.
 */
async function securityStates(page: Page, sweep: Sweep, language: Language, theme: Theme) {
  const org = await signUpOrg(server, 'Axe');
  await signIn(page, org);
  await switchInPlace(page, language, theme);
  await page.getByTestId('user-menu').click();
  await page.getByTestId('menu-profile').click();
  await page.getByTestId('tab-security').click();
  await page.getByTestId('two-factor-enable').click();
  const secret = (await page.getByTestId('two-factor-secret').innerText()).trim();
  await page.getByTestId('two-factor-code').fill(TOTP.generate({ secret: Secret.fromBase32(secret) }));
  await page.getByTestId('two-factor-confirm').click();
  await page.getByTestId('recovery-codes-done').click();
  await page.getByTestId('recovery-codes-regenerate').click();
  await page.getByTestId('recovery-codes-regenerate-confirm').click();
  await sweepOnceShown(
    page,
    sweep,
    page.getByTestId('two-factor-section').locator('.mantine-InputWrapper-error').first(),
    'new recovery codes with its message',
  );
  await page.getByTestId('recovery-codes-password').fill(org.password);
  await page.getByTestId('recovery-codes-regenerate-confirm').click();
  await sweepOnceShown(page, sweep, page.getByTestId('recovery-codes'), 'new recovery codes');
}

for (const language of ['en', 'ar'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    // The four variants run side by side, each in its own browser context, over the one demo organisation.
    // A11Y_ONLY=en-dark,ar-light runs those; A11Y_FAIL_FAST=1 stops at the first state with a finding.
    const only = process.env.A11Y_ONLY?.split(',');
    const variant = only && !only.includes(`${language}-${theme}`) ? it.skip : it.concurrent;
    variant(
      `has no critical or serious axe finding (${language}, ${theme}; chosen in place)`,
      async ({ expect }) => {
        const { context, page } = await newPage(browser);
        // Four variants side by side on a shared machine: a first load of the dashboard in the other language may
        // take longer than a journey's 15 s.
        context.setDefaultTimeout(45_000);
        const first = { language: language === 'en' ? 'ar' : 'en', theme: theme === 'light' ? 'dark' : 'light' } as const;
        await startIn(context, first.language, first.theme);
        const findings: AxeFinding[] = [];
        let now = `${first.language}/${first.theme}`;
        const sweep = async (where: string) => {
          findings.push(...(await axeCriticalAndSerious(page, `${now} ${where}`)));
          if (process.env.A11Y_FAIL_FAST && findings.length) expect.fail(describe(findings));
        };
        try {
          await page.goto(`${server.baseUrl}/register`);
          await page.locator('form').first().waitFor();
          await sweep('register');
          await page.goto(`${demo.url}/login`);
          await page.getByTestId('login-email').waitFor();
          await sweep('login');
          await signIn(page, demo);
          await switchInPlace(page, language, theme);
          now = `${language}/${theme}`;
          await workOrderStates(page, sweep, `Axe ${language} ${theme}`);
          await assetStatesInPlace(page, sweep);

          for (const path of LISTS) {
            await openList(page, path);
            await sweep(path);
          }
          for (const path of NOT_LISTS) {
            await openPage(page, path, PAGES[path]!);
            await sweep(path);
          }
          await openList(page, '/dashboard/quotations');
          await openFirstRecord(page);
          await sweep('quotation drawer');
          await sweepTabs(page, sweep, 'quotation');
          await assetRecordStates(page, sweep);
          await stockStates(page, sweep);
          await otherStates(page, sweep);
          await technicianStates(page, sweep);
          await securityStates(page, sweep, language, theme);

          const report = describe(findings);
          if (report) console.log(report);
          expect(findings.length, report).toBe(0);
        } finally {
          await context.close();
        }
      },
      900_000,
    );
  }
}

it('a phone (390 px) opens a quotation that fits the screen, with its lines as cards, and prints it', async () => {
  const { context, page } = await newPage(browser, { width: 390, height: 844 });
  try {
    await signIn(page, demo);
    await openList(page, '/dashboard/quotations');
    await openFirstRecord(page);
    await page.getByTestId('q-services-cards').waitFor();
    await page.getByTestId('q-services-0-quantity').waitFor();
    // nothing wider than the screen: no sideways scrolling, and the buttons are on it
    const overflow = await page.evaluate(
      () =>
        [...document.querySelectorAll('[data-testid="q-drawer"] *')].filter(
          (el) => el.getBoundingClientRect().right > window.innerWidth + 1 && el.getBoundingClientRect().width > 0,
        ).length,
    );
    expect(overflow).toBe(0);
    for (const id of ['q-save', 'q-print', 'q-delete']) {
      const box = (await page.getByTestId(id).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    const popupPromise = context.waitForEvent('page');
    const pdfResponse = page.waitForResponse((res) => res.url().includes('/api/quotations/get-quotation-pdf/'));
    await page.getByTestId('q-print').click();
    const response = await pdfResponse;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/pdf');
    const popup = await popupPromise;
    await expect.poll(() => popup.url(), { timeout: 15_000 }).toMatch(/^blob:/);
  } finally {
    await context.close();
  }
}, 180_000);
