/**
 * The accessibility sweep's moves (`accessibility.e2e.ts`): open a screen, wait for it at rest, sweep each tab of a
 * drawer or a dialog, and choose the language and the theme in place through the shell's own controls.
 */
import type { Locator, Page } from 'playwright-core';

/** Runs axe on the page as it is and keeps what it found, with where. */
export type Sweep = (where: string) => Promise<unknown>;

/**
 * Goes to a screen of the signed-in app by loading it. (Following the history in place was faster, but a wait then
 * could find the leaving page's list, hidden while the next page's code loaded, and click nothing.)
 */
export async function go(page: Page, path: string) {
  await page.goto(new URL(path, page.url()).href);
}

/**
 * The page at rest: no loader left and no finite animation running (a drawer's or a dialog's transition): axe
 * measures colours on the final frame. Waits only as long as needed, never a fixed time.
 */
export async function settle(page: Page) {
  await page
    .locator('.mantine-Loader-root, [data-testid="calendar-loading"]:visible, [data-testid="table-loading"]')
    .first()
    .waitFor({ state: 'detached', timeout: 15_000 })
    .catch(() => undefined);
  await page.waitForFunction(
    () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
    undefined,
    { polling: 50, timeout: 10_000 },
  );
}

/** The list screen on the page, its rows (or its empty state) shown (a leaving page's hidden list does not count), at rest. */
export async function listShown(page: Page) {
  await page.locator('[data-testid="list-screen"]:visible').first().waitFor({ timeout: 45_000 });
  await page.locator('[data-testid="table-row"]:visible, [data-testid="no-results"]:visible').first().waitFor({ timeout: 30_000 });
  await settle(page);
}

/** A list screen loaded, with its rows (or its empty state) on screen, no spinner left. */
export async function openList(page: Page, path: string) {
  await go(page, path);
  await listShown(page);
}

/** A page that is not a list loaded, with `shown` on screen and no loader left. */
export async function openPage(page: Page, path: string, shown: string) {
  await go(page, path);
  await page.locator(shown).first().waitFor({ timeout: 45_000 });
  await settle(page);
}

/** Each tab of the open drawer, swept once shown. */
export async function sweepTabs(page: Page, sweep: Sweep, what: string) {
  const tabs = page.getByRole('dialog').getByRole('tab');
  const count = await tabs.count();
  for (let i = 0; i < count; i++) {
    const tab = tabs.nth(i);
    const name = (await tab.getAttribute('data-testid')) ?? String(i);
    await tab.click();
    await settle(page);
    await sweep(`${what} ${name}`);
  }
}

/** A Mantine dialog over the page: waits for it (one of its test ids), its transition's end, and sweeps. */
export async function sweepDialog(page: Page, sweep: Sweep, testId: string, where: string) {
  await sweepOnceShown(page, sweep, page.getByTestId(testId), where);
}

/** The list at `path` loaded, its first record opened and each tab of its drawer swept (`what` names them). */
export async function sweepFirstRecord(page: Page, sweep: Sweep, path: string, what: string) {
  await openList(page, path);
  await openFirstRecord(page);
  await sweepTabs(page, sweep, what);
}

/** The open drawer's tab `tab` (its test id) chosen, and swept as `where` once `shown`. */
export async function sweepTab(page: Page, sweep: Sweep, tab: string, shown: Locator, where: string) {
  await page.getByTestId(tab).click();
  await sweepOnceShown(page, sweep, shown, where);
}

/** Waits for `shown` (what the state puts on screen), lets the page come to rest, and sweeps it as `where`. */
export async function sweepOnceShown(page: Page, sweep: Sweep, shown: Locator, where: string) {
  await shown.waitFor();
  await settle(page);
  await sweep(where);
}

/** Closes the topmost dialog by Escape and waits for `testId` (something inside it) to leave. */
export async function escapeFrom(page: Page, testId: string) {
  await page.keyboard.press('Escape');
  await page.getByTestId(testId).waitFor({ state: 'detached' });
}

/** Opens the first row's drawer and waits for its title and the end of its transition. */
export async function openFirstRecord(page: Page) {
  await page.getByTestId('table-row').first().click();
  await page.getByTestId('drawer-title').waitFor();
  await settle(page);
}

/**
 * The language and the theme chosen in place, as a user does: the shell's language menu and theme switch, no
 * reload. Waits for the document's language, direction and colour scheme to follow, and for the page at rest.
 */
export async function switchInPlace(page: Page, language: 'en' | 'ar', theme: 'light' | 'dark') {
  await page.getByTestId('language-menu').click();
  await page.getByRole('menuitem', { name: language === 'ar' ? 'العربية' : 'English', exact: true }).click();
  await page.waitForFunction((l) => document.documentElement.lang === l && document.documentElement.dir === (l === 'ar' ? 'rtl' : 'ltr'), language, {
    timeout: 15_000,
  });
  await page.getByTestId(`theme-${theme}`).click();
  await page.waitForFunction((s) => document.documentElement.getAttribute('data-mantine-color-scheme') === s, theme, { timeout: 15_000 });
  await page.getByRole('menuitem').first().waitFor({ state: 'detached' });
  await settle(page);
}
