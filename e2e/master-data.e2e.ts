/**
 * Master data and teams in the browser: a tax group built from a fixed and a percentage tax; a UOM
 * category whose reference unit is then no longer offered; a team with a lead and a default assignee,
 * whose lead then moves to another member.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { call, newPage, onSignedInPage, signIn } from './helpers';
import { openNewRecord, saveRecord } from './drawer-steps';
import { useOrgJourney } from './use-journey';

const journey = useOrgJourney('Master Data', async ({ api, org }) => {
  // two workers to put in teams (invited through the API; they show by e-mail until they register)
  for (const who of ['marcus', 'sofia']) {
    const email = `${who}@${org.subdomain}.example.com`;
    await api('POST', '/api/auth/addUser', { email, confirmEmail: email, role: 'worker' });
  }
});

async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}
const text = (page: Page, s: string) => page.getByText(s, { exact: true });
const row = (page: Page, s: string) => page.locator('tbody tr').filter({ has: page.getByRole('cell', { name: s, exact: true }) });

/** A settings list's add button `add`, then the new record's name typed and saved; waits for `messages` as `saveRecord` does. */
async function saveNamed(page: Page, add: string, name: string, ...messages: string[]) {
  await page.getByRole('button', { name: add }).click();
  await page.getByTestId('field-name').fill(name);
  await saveRecord(page, ...messages);
}

/** The taxes page's Add Tax: the new tax's name (none: left empty), scope Sales and its `computation`. */
async function newSalesTax(page: Page, name: string | null, computation: string) {
  await page.getByRole('button', { name: 'Add Tax' }).click();
  if (name !== null) await page.getByTestId('field-name').fill(name);
  await pick(page, 'field-scope', 'Sales');
  await pick(page, 'field-taxComputation', computation);
}

async function closeDrawer(page: Page) {
  await page.keyboard.press('Escape');
  await page
    .getByTestId('master-data-drawer')
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
}

describe('master data and teams', () => {
  it('creates a tax group from a fixed and a percentage tax', async () => {
    const { browser, org } = journey;
    await onSignedInPage(browser, org, '/settings/taxes', async (page) => {
      await openNewRecord(page, 'Add Tax', 'New Tax');

      // the spec's messages under the fields
      await saveRecord(page, 'Tax Name is required', 'Scope is required', 'Tax Computation type is required', 'Price Included selection is required');
      await page.getByTestId('tab-errors-overview').waitFor();

      await page.getByTestId('field-name').fill('Eco Fee');
      await pick(page, 'field-scope', 'Sales');
      await pick(page, 'field-taxComputation', 'Fixed');
      await saveRecord(page, 'Amount is required');
      await page.getByTestId('field-amount').fill('2.5');
      await pick(page, 'field-isPriceIncluded', 'No');
      await saveRecord(page, 'Tax added successfully');
      await row(page, 'Eco Fee').waitFor();
      expect(await row(page, 'Eco Fee').innerText()).toContain('$2.50');

      await newSalesTax(page, 'Sales Tax 7%', 'Percentage of Price');
      await page.getByTestId('field-amount').fill('7');
      await pick(page, 'field-isPriceIncluded', 'No');
      // Odoo's order of application and "affects the base of subsequent taxes" (decision 036)
      await page.getByTestId('field-sequence').fill('5');
      await pick(page, 'field-includeBaseAmount', 'Yes');
      await page.getByTestId('save-record').click();
      await row(page, 'Sales Tax 7%').waitFor();
      expect(await row(page, 'Sales Tax 7%').innerText()).toContain('7%');

      await newSalesTax(page, 'Sales + Eco', 'Group');
      expect(await page.getByTestId('field-amount').count()).toBe(0);
      await saveRecord(page, 'Child Taxes are required when Tax Computation is Group');
      await page.getByTestId('field-children').click();
      await page.getByRole('option', { name: 'Eco Fee ($2.50)' }).click();
      await page.getByRole('option', { name: 'Sales Tax 7% (7%)' }).click();
      await page.getByTestId('drawer-title').click();
      await pick(page, 'field-isPriceIncluded', 'No');
      await page.getByTestId('save-record').click();
      await row(page, 'Sales + Eco').waitFor();
      const cells = await row(page, 'Sales + Eco').locator('td').allInnerTexts();
      expect(cells).toEqual(expect.arrayContaining(['Sales + Eco', 'Sales', 'Group', '-']));

      // a group is never offered as a child, and a child in use cannot be deleted
      await row(page, 'Eco Fee').click();
      await page.getByTestId('delete-record').click();
      await text(page, 'Are you sure you want to delete this tax?').waitFor();
      await page.waitForTimeout(300); // the modal's opening transition
      await page.getByTestId('confirm-yes').click();
      await text(page, 'This tax is used by other records and cannot be deleted').waitFor();
      await closeDrawer(page);
      await newSalesTax(page, null, 'Group');
      await page.getByTestId('field-children').click();
      await page.getByRole('option', { name: 'Eco Fee ($2.50)' }).waitFor();
      expect(await page.getByRole('option', { name: /Sales \+ Eco/ }).count()).toBe(0);
    });
  });

  it('creates a UOM category with a reference unit, after which reference is no longer offered', async () => {
    const { browser, org } = journey;
    await onSignedInPage(browser, org, '/settings/uom-categories', async (page) => {
      await saveNamed(page, 'Add UOM Category', 'We', 'Name must be at least 3 characters long');
      await page.getByTestId('field-name').fill('Weight');
      await saveRecord(page, 'UOM Category added successfully');
      await row(page, 'Weight').waitFor();

      await page.goto(`${org.url}/settings/uom`);
      await page.getByRole('button', { name: 'Add UOM' }).click();
      await page.getByTestId('field-name').fill('Kilogram');
      await pick(page, 'field-categoryId', 'Weight');
      await pick(page, 'field-type', 'Reference');
      // a reference unit has ratio 1: the field is hidden
      expect(await page.getByTestId('field-ratio').count()).toBe(0);
      await saveRecord(page, 'UOM added successfully');
      const kg = await row(page, 'Kilogram').locator('td').allInnerTexts();
      expect(kg).toEqual(expect.arrayContaining(['Kilogram', '1', 'Reference', 'Weight']));

      await page.getByRole('button', { name: 'Add UOM' }).click();
      await page.getByTestId('field-name').fill('Gram');
      await pick(page, 'field-categoryId', 'Weight');
      await page.getByTestId('field-type').click();
      await page.getByRole('option', { name: 'Lesser', exact: true }).waitFor();
      expect(await page.getByRole('option', { name: 'Reference', exact: true }).count()).toBe(0);
      await page.getByRole('option', { name: 'Lesser', exact: true }).click();
      await saveRecord(page, 'Ratio is required');
      await page.getByTestId('field-ratio').fill('1000');
      await page.getByTestId('save-record').click();
      await row(page, 'Gram').waitFor();
      expect(await row(page, 'Gram').locator('td').allInnerTexts()).toEqual(expect.arrayContaining(['Gram', '1000', 'Lesser', 'Weight']));

      // the filter lives in the query string
      await page.getByPlaceholder('Filter UOM').fill('kilo');
      await page.waitForURL(/name=kilo/);
      await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    });
  });

  it('builds a team with a lead and a default assignee, then moves the lead', async () => {
    const { server, browser, org } = journey;
    const { context, page } = await newPage(browser);
    const marcus = `marcus@${org.subdomain}.example.com`;
    const sofia = `sofia@${org.subdomain}.example.com`;
    try {
      await signIn(page, org);
      await page.goto(`${org.url}/dashboard/teams`);
      await openNewRecord(page, 'Add Team', 'New Team');
      await page.getByTestId('member-remove-0').click();
      await saveRecord(page, 'At least one member is required');

      await page.getByTestId('field-name').fill('Electrical Maintenance');
      await page.getByTestId('add-member').click();
      await saveRecord(page, 'Please select a worker');
      await pick(page, 'member-worker-0', marcus);
      await page.getByTestId('add-member').click();
      await page.getByTestId('member-worker-1').click();
      // a worker only once
      expect(await page.getByRole('option', { name: marcus, exact: true }).count()).toBe(0);
      await page.getByRole('option', { name: sofia, exact: true }).click();

      await page.getByTestId('member-lead-0').check();
      await page.getByTestId('member-default-1').check();
      await saveRecord(page, 'Team added successfully');
      const cells = await row(page, 'Electrical Maintenance').locator('td').allInnerTexts();
      expect(cells).toEqual(expect.arrayContaining(['Electrical Maintenance', '2']));

      // move the lead: ticking it on Sofia clears it on Marcus
      await row(page, 'Electrical Maintenance').click();
      await expect.poll(() => page.getByTestId('member-lead-0').isChecked()).toBe(true);
      await page.getByTestId('member-lead-1').check();
      expect(await page.getByTestId('member-lead-0').isChecked()).toBe(false);
      expect(await page.getByTestId('member-default-1').isChecked()).toBe(true);
      await saveRecord(page, 'Team updated successfully');

      const host = `${org.subdomain}.localhost`;
      const token = (await call(server.port, host, 'POST', '/api/login', { email: org.email, password: org.password })).body.accessToken as string;
      const teams = (await call(server.port, host, 'GET', '/api/teams/get-teams', undefined, token)).body.teams;
      const team = teams.find((x: { name: string }) => x.name === 'Electrical Maintenance');
      const ids = team.members.map((m: { workerId: number; Worker: { email: string } }) => [m.Worker.email, m.workerId]);
      const idOf = (email: string) => ids.find(([e]: [string]) => e === email)[1];
      expect(team.teamLeadId).toBe(idOf(sofia));
      expect(team.defaultAssigneeId).toBe(idOf(sofia));

      // client-side search
      await page.getByPlaceholder('Find Team').fill('mech');
      await text(page, 'No results').waitFor();
    } catch (err) {
      if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/${Date.now()}.png`, fullPage: true });
      throw err;
    } finally {
      await context.close();
    }
  });

  it('adds product categories (with a parent), an asset category and a time tracking reason', async () => {
    const { browser, org } = journey;
    await onSignedInPage(browser, org, '/settings/products-category', async (page) => {
      await saveNamed(page, 'Add Category', 'Mechanical', 'Category added successfully');
      await page.getByRole('button', { name: 'Add Category' }).click();
      await page.getByTestId('field-name').fill('Bearings');
      await pick(page, 'field-parentId', 'Mechanical');
      await page.getByTestId('save-record').click();
      await row(page, 'Bearings').waitFor();
      await page.getByPlaceholder('Find Category').fill('bear');
      await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
      await text(page, 'Page 1 of 1').waitFor();

      await page.goto(`${org.url}/settings/assets-category`);
      await page.getByRole('button', { name: 'Add Category' }).click();
      await page.getByTestId('field-shortCode').fill('PM');
      await page.getByTestId('field-name').fill('Pumps');
      await saveRecord(page, 'Short code must be at least 3 characters long');
      await page.getByTestId('field-shortCode').fill('PMP');
      await page.getByTestId('save-record').click();
      await row(page, 'PMP').waitFor();

      await page.goto(`${org.url}/settings/time-tracking-reason`);
      await saveNamed(page, 'Add Reason', 'Waiting for Parts');
      await text(page, 'Type is required').first().waitFor();
      await pick(page, 'field-type', 'Availability');
      await pick(page, 'field-is_blocking_reason', 'Yes');
      await saveRecord(page, 'Time tracking reason added successfully');
      expect(await row(page, 'Waiting for Parts').locator('td').allInnerTexts()).toEqual(expect.arrayContaining(['Waiting for Parts', 'Availability', 'Yes']));
    });
  });
});
