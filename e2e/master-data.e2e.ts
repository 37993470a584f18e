/**
 * Master data and teams in the browser: a tax group built from a fixed and a percentage tax; a UOM
 * category whose reference unit is then no longer offered; a team with a lead and a default assignee,
 * whose lead then moves to another member.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { call, launchBrowser, newPage, onSignedInPage, signIn, signUpOrg, startServer, type TestOrg, type TestServer } from './helpers';

let server: TestServer;
let browser: Browser;
let org: TestOrg;

beforeAll(async () => {
  server = await startServer();
  org = await signUpOrg(server, 'Master Data');
  // two workers to put in teams (invited through the API; they show by e-mail until they register)
  const host = `${org.subdomain}.localhost`;
  const token = (await call(server.port, host, 'POST', '/api/login', { email: org.email, password: org.password })).body.accessToken as string;
  for (const who of ['marcus', 'sofia']) {
    const email = `${who}@${org.subdomain}.example.com`;
    const res = await call(server.port, host, 'POST', '/api/auth/addUser', { email, confirmEmail: email, role: 'worker' }, token);
    if (res.status !== 201) throw new Error(`invite failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}
const text = (page: Page, s: string) => page.getByText(s, { exact: true });
const row = (page: Page, s: string) => page.locator('tbody tr').filter({ has: page.getByRole('cell', { name: s, exact: true }) });

async function closeDrawer(page: Page) {
  await page.keyboard.press('Escape');
  await page
    .getByTestId('master-data-drawer')
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
}

describe('master data and teams', () => {
  it('creates a tax group from a fixed and a percentage tax', async () => {
    await onSignedInPage(browser, org, '/settings/taxes', async (page) => {
      await page.getByRole('button', { name: 'Add Tax' }).click();
      await expect.poll(() => page.getByTestId('drawer-title').innerText()).toBe('New Tax');

      // the spec's messages under the fields
      await page.getByTestId('save-record').click();
      await text(page, 'Tax Name is required').waitFor();
      await text(page, 'Scope is required').waitFor();
      await text(page, 'Tax Computation type is required').waitFor();
      await text(page, 'Price Included selection is required').waitFor();
      await page.getByTestId('tab-errors-overview').waitFor();

      await page.getByTestId('field-name').fill('Eco Fee');
      await pick(page, 'field-scope', 'Sales');
      await pick(page, 'field-taxComputation', 'Fixed');
      await page.getByTestId('save-record').click();
      await text(page, 'Amount is required').waitFor();
      await page.getByTestId('field-amount').fill('2.5');
      await pick(page, 'field-isPriceIncluded', 'No');
      await page.getByTestId('save-record').click();
      await text(page, 'Tax added successfully').waitFor();
      await row(page, 'Eco Fee').waitFor();
      expect(await row(page, 'Eco Fee').innerText()).toContain('$2.50');

      await page.getByRole('button', { name: 'Add Tax' }).click();
      await page.getByTestId('field-name').fill('Sales Tax 7%');
      await pick(page, 'field-scope', 'Sales');
      await pick(page, 'field-taxComputation', 'Percentage of Price');
      await page.getByTestId('field-amount').fill('7');
      await pick(page, 'field-isPriceIncluded', 'No');
      // Odoo's order of application and "affects the base of subsequent taxes" (decision 036)
      await page.getByTestId('field-sequence').fill('5');
      await pick(page, 'field-includeBaseAmount', 'Yes');
      await page.getByTestId('save-record').click();
      await row(page, 'Sales Tax 7%').waitFor();
      expect(await row(page, 'Sales Tax 7%').innerText()).toContain('7%');

      await page.getByRole('button', { name: 'Add Tax' }).click();
      await page.getByTestId('field-name').fill('Sales + Eco');
      await pick(page, 'field-scope', 'Sales');
      await pick(page, 'field-taxComputation', 'Group');
      expect(await page.getByTestId('field-amount').count()).toBe(0);
      await page.getByTestId('save-record').click();
      await text(page, 'Child Taxes are required when Tax Computation is Group').waitFor();
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
      await page.getByRole('button', { name: 'Add Tax' }).click();
      await pick(page, 'field-scope', 'Sales');
      await pick(page, 'field-taxComputation', 'Group');
      await page.getByTestId('field-children').click();
      await page.getByRole('option', { name: 'Eco Fee ($2.50)' }).waitFor();
      expect(await page.getByRole('option', { name: /Sales \+ Eco/ }).count()).toBe(0);
    });
  });

  it('creates a UOM category with a reference unit, after which reference is no longer offered', async () => {
    await onSignedInPage(browser, org, '/settings/uom-categories', async (page) => {
      await page.getByRole('button', { name: 'Add UOM Category' }).click();
      await page.getByTestId('field-name').fill('We');
      await page.getByTestId('save-record').click();
      await text(page, 'Name must be at least 3 characters long').waitFor();
      await page.getByTestId('field-name').fill('Weight');
      await page.getByTestId('save-record').click();
      await text(page, 'UOM Category added successfully').waitFor();
      await row(page, 'Weight').waitFor();

      await page.goto(`${org.url}/settings/uom`);
      await page.getByRole('button', { name: 'Add UOM' }).click();
      await page.getByTestId('field-name').fill('Kilogram');
      await pick(page, 'field-categoryId', 'Weight');
      await pick(page, 'field-type', 'Reference');
      // a reference unit has ratio 1: the field is hidden
      expect(await page.getByTestId('field-ratio').count()).toBe(0);
      await page.getByTestId('save-record').click();
      await text(page, 'UOM added successfully').waitFor();
      const kg = await row(page, 'Kilogram').locator('td').allInnerTexts();
      expect(kg).toEqual(expect.arrayContaining(['Kilogram', '1', 'Reference', 'Weight']));

      await page.getByRole('button', { name: 'Add UOM' }).click();
      await page.getByTestId('field-name').fill('Gram');
      await pick(page, 'field-categoryId', 'Weight');
      await page.getByTestId('field-type').click();
      await page.getByRole('option', { name: 'Lesser', exact: true }).waitFor();
      expect(await page.getByRole('option', { name: 'Reference', exact: true }).count()).toBe(0);
      await page.getByRole('option', { name: 'Lesser', exact: true }).click();
      await page.getByTestId('save-record').click();
      await text(page, 'Ratio is required').waitFor();
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
    const { context, page } = await newPage(browser);
    const marcus = `marcus@${org.subdomain}.example.com`;
    const sofia = `sofia@${org.subdomain}.example.com`;
    try {
      await signIn(page, org);
      await page.goto(`${org.url}/dashboard/teams`);
      await page.getByRole('button', { name: 'Add Team' }).click();
      await expect.poll(() => page.getByTestId('drawer-title').innerText()).toBe('New Team');
      await page.getByTestId('member-remove-0').click();
      await page.getByTestId('save-record').click();
      await text(page, 'At least one member is required').waitFor();

      await page.getByTestId('field-name').fill('Electrical Maintenance');
      await page.getByTestId('add-member').click();
      await page.getByTestId('save-record').click();
      await text(page, 'Please select a worker').waitFor();
      await pick(page, 'member-worker-0', marcus);
      await page.getByTestId('add-member').click();
      await page.getByTestId('member-worker-1').click();
      // a worker only once
      expect(await page.getByRole('option', { name: marcus, exact: true }).count()).toBe(0);
      await page.getByRole('option', { name: sofia, exact: true }).click();

      await page.getByTestId('member-lead-0').check();
      await page.getByTestId('member-default-1').check();
      await page.getByTestId('save-record').click();
      await text(page, 'Team added successfully').waitFor();
      const cells = await row(page, 'Electrical Maintenance').locator('td').allInnerTexts();
      expect(cells).toEqual(expect.arrayContaining(['Electrical Maintenance', '2']));

      // move the lead: ticking it on Sofia clears it on Marcus
      await row(page, 'Electrical Maintenance').click();
      await expect.poll(() => page.getByTestId('member-lead-0').isChecked()).toBe(true);
      await page.getByTestId('member-lead-1').check();
      expect(await page.getByTestId('member-lead-0').isChecked()).toBe(false);
      expect(await page.getByTestId('member-default-1').isChecked()).toBe(true);
      await page.getByTestId('save-record').click();
      await text(page, 'Team updated successfully').waitFor();

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
    await onSignedInPage(browser, org, '/settings/products-category', async (page) => {
      await page.getByRole('button', { name: 'Add Category' }).click();
      await page.getByTestId('field-name').fill('Mechanical');
      await page.getByTestId('save-record').click();
      await text(page, 'Category added successfully').waitFor();
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
      await page.getByTestId('save-record').click();
      await text(page, 'Short code must be at least 3 characters long').waitFor();
      await page.getByTestId('field-shortCode').fill('PMP');
      await page.getByTestId('save-record').click();
      await row(page, 'PMP').waitFor();

      await page.goto(`${org.url}/settings/time-tracking-reason`);
      await page.getByRole('button', { name: 'Add Reason' }).click();
      await page.getByTestId('field-name').fill('Waiting for Parts');
      await page.getByTestId('save-record').click();
      await text(page, 'Type is required').first().waitFor();
      await pick(page, 'field-type', 'Availability');
      await pick(page, 'field-is_blocking_reason', 'Yes');
      await page.getByTestId('save-record').click();
      await text(page, 'Time tracking reason added successfully').waitFor();
      expect(await row(page, 'Waiting for Parts').locator('td').allInnerTexts()).toEqual(expect.arrayContaining(['Waiting for Parts', 'Availability', 'Yes']));
    });
  });
});
