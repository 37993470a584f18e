/**
 * Assets, services, work stations and parts in the browser: an asset whose category is made through
 * 'Add New'; a service linked to two stations with operations and times; a station opened from a link
 * (`?selected-workstation=<id>&dialog=open`); a part that falls under its minimum shows in the low-stock list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeJourney, onSignedInPage, openOrgJourney, type Api, type TestOrg, type TestServer } from './helpers';
import { openNewRecord, rowText, saveRecord } from './drawer-steps';

let server: TestServer;
let browser: Browser;
let org: TestOrg;
let api: Api;
const ids: Record<string, number> = {};

beforeAll(async () => {
  ({ server, browser, org, api } = await openOrgJourney('Catalogue'));
  // master data and a team for the stations (the admin is user 1)
  ids.team = (
    await api('POST', '/api/teams/add-team', { name: 'Mechanical Maintenance', members: [{ workerId: 1, isTeamLead: true, isDefaultAssignee: true }] })
  ).team.id;
  for (const [code, name] of [
    ['ASM-01', 'Assembly Line 1'],
    ['PKG-01', 'Packaging Cell'],
    ['CNC-02', 'CNC Machining Center'],
  ]) {
    ids[code] = (await api('POST', '/api/workstations/add-workstation', { code, name, city: 'Dayton', teamId: ids.team })).workStation.id;
  }
  const uomCategory = await api('POST', '/api/uom-categories/add-uom-category', { name: 'Unit' });
  ids.uomCategory = uomCategory.addedUomCategory?.id ?? uomCategory.uomCategory?.id ?? uomCategory.category?.id;
  ids.units = (await api('POST', '/api/uoms/add-uom', { name: 'Units', categoryId: ids.uomCategory, type: 'reference' })).uom.id;
  ids.spares = (await api('POST', '/api/product-categories/add-product-category', { name: 'Bearings' })).productCategory.id;
}, 120_000);
afterAll(() => closeJourney({ server, browser }));

const text = (page: Page, s: string) => page.getByText(s, { exact: true });
const row = (page: Page, s: string) => page.locator('tbody tr').filter({ has: page.getByRole('cell', { name: s, exact: true }) });

async function pick(page: Page, testId: string, option: string, search?: string) {
  await page.getByTestId(testId).click();
  if (search) await page.getByTestId(testId).fill(search);
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('catalogue screens', () => {
  it("creates an asset with a new category made through 'Add New'", async () => {
    await onSignedInPage(browser, org, '/dashboard/assets', async (page) => {
      await openNewRecord(page, 'Add Asset', 'New Asset');

      // the spec's rules under the fields
      // the day box of every form (DayField): today, the month by name ("06 Dec 2026", decision 066), cleared by emptying it
      await expect.poll(() => page.getByTestId('field-date').inputValue()).toMatch(/^\d{2} [A-Z][a-z]{2} \d{4}$/);
      await page.getByTestId('field-date').fill('');
      await page.getByTestId('field-date').blur();
      await saveRecord(page, 'Name is required', 'Date is required', 'Category is required');
      await page.getByTestId('tab-errors-overview').waitFor();

      await page.getByTestId('field-name').fill('Boiler Feed Pump P-101');
      // day-first numbers are read as such (never month first) and shown with the month by name
      await page.getByTestId('field-date').fill('01/05/2024');
      await page.getByTestId('field-date').press('Tab');
      await expect.poll(() => page.getByTestId('field-date').inputValue()).toBe('01 May 2024');
      await page.getByTestId('field-serial').fill('GRF-3341');
      // 'Add New' in the category select opens the category dialog in place
      await pick(page, 'field-assetCategoryId', 'Add New');
      await page.getByTestId('new-category-code').waitFor();
      await page.getByTestId('new-category-code').fill('PMP');
      await page.getByTestId('new-category-name').fill('Pumps & Compressors');
      await page.getByTestId('picker-create-save').click();
      await text(page, 'Category added successfully').waitFor();
      await page.getByTestId('new-category-code').waitFor({ state: 'detached' });
      await expect.poll(() => page.getByTestId('field-assetCategoryId').inputValue()).toBe('PMP · Pumps & Compressors');
      await pick(page, 'field-status', 'Not Operational');

      await saveRecord(page, 'Asset added successfully');
      const cells = await rowText(page, 'AS-0001');
      expect(cells).toContain('Boiler Feed Pump P-101');
      expect(cells).toContain('Pumps & Compressors');
      expect(cells).toContain('Not Operational');

      // the row opens the drawer for update
      await row(page, 'AS-0001').click();
      await expect.poll(() => page.getByTestId('drawer-title').innerText()).toBe('AS-0001 · Boiler Feed Pump P-101');
      expect(await page.getByTestId('field-assetCategoryId').inputValue()).toBe('PMP · Pumps & Compressors');
    });
  });

  it('creates a service linked to two stations with operations and times', async () => {
    await onSignedInPage(browser, org, '/dashboard/services', async (page) => {
      await openNewRecord(page, 'Add Service', 'New Service');

      await saveRecord(page, 'Title is required', 'Price is required', 'Operation is required');

      // no station row at all: the spec's message
      await page.getByTestId('station-row-0').getByRole('button', { name: 'Remove' }).click();
      await saveRecord(page, 'At least one related workstation must be selected');

      await page.getByTestId('field-title').fill('Conveyor Belt Replacement');
      await page.getByTestId('field-price').fill('450');
      await page.getByTestId('rich-text').locator('[contenteditable="true"]').fill('Lock out, replace the belt, re-track it.');
      await page.getByTestId('add-station-row').click();
      await pick(page, 'field-station-0', 'Packaging Cell', 'Pack');
      await page.getByTestId('field-operation-0').fill('Fit the new belt');
      await page.getByTestId('field-time-0').fill('02:00');
      await page.getByTestId('add-station-row').click();
      await pick(page, 'field-station-1', 'Assembly Line 1', 'Assembly');
      await page.getByTestId('field-operation-1').fill('Align and tension');
      await page.getByTestId('field-time-1').fill('00:45');
      await saveRecord(page, 'Service added successfully');
      const cells = await rowText(page, 'SV-0001');
      expect(cells).toContain('Conveyor Belt Replacement');
      expect(cells).toContain('$450.00');
      expect(cells).toContain('Packaging Cell, Assembly Line 1');

      const saved = (await api('GET', '/api/services/get-service/1')).service;
      expect(saved.workStationDetails).toEqual([
        { id: ids['PKG-01'], operation: 'Fit the new belt', timeRequired: '02:00', order: 0 },
        { id: ids['ASM-01'], operation: 'Align and tension', timeRequired: '00:45', order: 1 },
      ]);
      expect(saved.operations).toContain('Lock out, replace the belt, re-track it.');
    });
  });

  it('opens a station from a link with dialog=open', async () => {
    await onSignedInPage(browser, org, null, async (page) => {
      await page.goto(`${org.url}/dashboard/work-stations?selected-workstation=${ids['CNC-02']}&dialog=open`);
      await expect.poll(() => page.getByTestId('drawer-title').innerText()).toBe('CNC-02 · CNC Machining Center');
      expect(await page.getByTestId('field-city').inputValue()).toBe('Dayton');
      await page.getByTestId('field-city').fill('Springfield');
      await saveRecord(page, 'Work station updated successfully');
      await page.keyboard.press('Escape');
      await page.getByTestId('work-station-drawer').waitFor({ state: 'detached' });
      expect(page.url()).not.toContain('dialog=open');
      await row(page, 'CNC-02').waitFor();
      expect(await row(page, 'CNC-02').innerText()).toContain('Springfield');
      // the list shows 25 a page by default
      expect(await page.getByTestId('page-size').inputValue()).toBe('25');
    });
  });

  it('a part falls under its minimum and shows in the low-stock list', async () => {
    await onSignedInPage(browser, org, null, async (page) => {
      const part = (
        await api('POST', '/api/parts/add-part', {
          name: 'Tapered Roller Bearing 30206',
          type: 'stockable',
          skuCode: 'BRG-30206',
          categoryId: ids.spares,
          salesPrice: 21.75,
          unitOfMeasureId: ids.units,
          purchaseUnitOfMeasureId: ids.units,
          quantityOnHand: 8,
          minimumQuantity: 6,
        })
      ).part;
      await page.goto(`${org.url}/dashboard/parts-inventory`);
      await row(page, 'Tapered Roller Bearing 30206').waitFor();
      await text(page, 'All stockable parts are at or above their minimum.').waitFor();

      await row(page, 'Tapered Roller Bearing 30206').click();
      await page.getByTestId('tab-stock').click();
      await expect.poll(() => page.getByTestId('part-quantity-on-hand').innerText()).toBe('8 Units');
      await page.getByTestId('adjust-submit').click();
      await text(page, 'Reason is required').waitFor();
      await page.getByTestId('adjust-quantity').fill('-5');
      await page.getByTestId('adjust-reason').fill('Used on WO-0001');
      await page.getByTestId('adjust-submit').click();
      await text(page, 'Stock adjusted successfully').waitFor();
      await expect.poll(() => page.getByTestId('part-quantity-on-hand').innerText()).toBe('3 Units');
      await page.getByTestId('part-low-stock-badge').waitFor();
      await expect.poll(() => page.getByTestId('stock-moves').innerText()).toContain('Used on WO-0001');

      // taking more than is on hand is refused
      await page.getByTestId('adjust-quantity').fill('-4');
      await page.getByTestId('adjust-reason').fill('Used on WO-0002');
      await page.getByTestId('adjust-submit').click();
      await text(page, 'Stock cannot go below zero').first().waitFor();

      await page.keyboard.press('Escape');
      await page.getByTestId('part-drawer').waitFor({ state: 'detached' });
      await page.getByTestId(`low-stock-${part.id}`).waitFor();
      expect(await page.getByTestId('low-stock-panel').innerText()).toContain('3 / 6');
      await page.getByText('Only parts under their minimum', { exact: true }).click();
      await page.waitForURL(/lowStock=true/);
      await row(page, 'Tapered Roller Bearing 30206').waitFor();
    });
  });
});
