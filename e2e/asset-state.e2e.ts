/**
 * Asset state in the manager's screens (decision 079): set an asset down by hand from the drawer's State tab (by
 * keyboard), see the list badge and the timeline; bring it up; a work order marked "Asset is down", completed,
 * brings it up again and the availability shows the down time; an order goes on hold and resumes from its drawer.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addAssetInCategory, addWorkOrder, onSignedInPage, pick } from './helpers';
import { useOrgJourney } from './use-journey';

// The press with an order to fix it and one that will wait for the vendor.
const journey = useOrgJourney('States', async ({ api }) => {
  const assetId = await addAssetInCategory(api, 'Press P-3', { code: 'PRS', name: 'Presses' });
  return { fixId: await addWorkOrder(api, { title: 'Press jammed', assetId }), waitId: await addWorkOrder(api, { title: 'New die set', assetId }) };
});

/** The asset's state badge in the assets list. */
const listBadge = (page: Page) =>
  page
    .getByRole('row', { name: /Press P-3/ })
    .getByTestId('asset-state-badge')
    .innerText();

/** The assets list, the press's row opened (the list has no ?open= link), its State tab. */
async function openStateTab(page: Page) {
  await page.goto(`${journey.org.url}/dashboard/assets`);
  await page
    .getByRole('row', { name: /Press P-3/ })
    .getByText('Press P-3')
    .click();
  await page.getByTestId('tab-state').click();
  await page.getByTestId('asset-state-timeline').waitFor();
}

/** The State tab: the state chosen, a reason typed, Tab to "Set state" and Enter (keyboard only). */
async function setStateByKeyboard(page: Page, state: string, reason: string) {
  const form = page.getByTestId('asset-set-state');
  await form.getByLabel('New state').focus();
  await form.getByLabel('New state').selectOption({ label: state });
  await page.keyboard.press('Tab');
  await page.keyboard.type(reason);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.getByText('Asset state updated successfully').first().waitFor();
}

describe('asset state', () => {
  it('down by hand from the State tab, list badge and timeline; a work order marked down and completed brings it up; hold and resume', async () => {
    const { browser, org, fixId, waitId } = journey;
    await onSignedInPage(browser, org, null, async (page) => {
      await openStateTab(page);
      await setStateByKeyboard(page, 'Down', 'Hydraulic leak');
      await expect.poll(() => page.getByTestId('asset-state-list').innerText()).toContain('Hydraulic leak');
      await expect.poll(() => page.getByTestId('asset-state-timeline').getByTestId('asset-state-badge').innerText()).toBe('Down');
      await expect.poll(() => page.getByTestId('asset-state-bar').locator('[data-state="down"]').count()).toBe(1);
      // Back up by hand; the list's badge follows.
      await setStateByKeyboard(page, 'Running', 'Leak fixed');
      await page.keyboard.press('Escape');
      await expect.poll(() => listBadge(page)).toBe('Running');

      // A work order marked "Asset is down": the asset goes down with the order as source.
      await page.goto(`${org.url}/dashboard/work-orders?open=${fixId}`);
      await page.getByTestId('wo-asset-down').focus();
      await page.keyboard.press('Space');
      await page.getByTestId('save-button').click();
      await page
        .getByText(/updated successfully/i)
        .first()
        .waitFor();
      await page.goto(`${org.url}/dashboard/assets`);
      await expect.poll(() => listBadge(page)).toBe('Down');

      // Completing it brings the asset up.
      await page.goto(`${org.url}/dashboard/work-orders?open=${fixId}`);
      await pick(page, 'wo-status', 'Closed');
      const without = page.getByTestId('close-without-codes');
      if (await without.isVisible().catch(() => false)) await without.click();
      await expect.poll(() => page.getByTestId('wo-status').inputValue()).toBe('Closed');
      await openStateTab(page);
      await expect.poll(() => page.getByTestId('asset-state-timeline').getByTestId('asset-state-badge').innerText()).toBe('Running');
      await expect.poll(() => page.getByTestId('asset-state-list').innerText()).toContain(`WO-${String(fixId).padStart(4, '0')}`);
      await expect.poll(() => page.getByTestId('asset-availability').innerText()).toMatch(/Availability: \d+\.\d\d%/);

      // Another order waits for the vendor, then resumes, from its drawer.
      await page.goto(`${org.url}/dashboard/work-orders?open=${waitId}`);
      await page.getByTestId('wo-hold').click();
      await page.getByTestId('hold-note').fill('Die set ordered');
      await page.getByTestId('hold-confirm').click();
      await page.getByTestId('wo-on-hold').waitFor();
      await page.getByTestId('wo-resume').focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('wo-on-hold').count()).toBe(0);
      await page.getByTestId('wo-hold').waitFor();
    });
  }, 240_000);
});
