/**
 * Maintenance requests and orders in the browser: the conditional fields of a request by type, approval,
 * the real 'Create Order', and a maintenance order that becomes read-only once validated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { call, launchBrowser, onSignedInPage, pick, signUpOrg, startServer, type TestOrg, type TestServer } from './helpers';
import { clickAndSee } from './drawer-steps';

let server: TestServer;
let browser: Browser;
let org: TestOrg;

/** Catalogue rows through the other areas' APIs: an asset and a service (with its work station and team). */
async function seedCatalogue() {
  const host = `${org.subdomain}.localhost`;
  const login = await call(server.port, host, 'POST', '/api/login', { email: org.email, password: org.password });
  const token = login.body.accessToken as string;
  const post = async (path: string, body: unknown) => {
    const res = await call(server.port, host, 'POST', path, body, token);
    if (res.status !== 201 && res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const category = await post('/api/asset-categories/add-asset-category', { name: 'Pumps', code: 'PMP' });
  const categoryId = category.assetCategory.id;
  await post('/api/assets/add-asset', { name: 'Boiler Feed Pump', date: '2024-01-15', assetCategoryId: categoryId });
  const team = await post('/api/teams/add-team', { name: 'Mechanics', members: [{ workerId: 1, isTeamLead: true, isDefaultAssignee: true }] });
  const station = await post('/api/workstations/add-workstation', { code: 'L1', name: 'Line 1', city: 'Dayton', teamId: team.team.id });
  const stationId = station.workStation.id;
  await post('/api/services/add-service', {
    title: 'Bearing replacement',
    price: 120,
    workStations: [{ workStationId: stationId, operation: 'Replace bearings', timeRequired: '01:00' }],
  });
}

beforeAll(async () => {
  server = await startServer();
  org = await signUpOrg(server, 'Maintenance');
  await seedCatalogue();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const text = (page: Page, s: string) => page.getByText(s, { exact: true });
/** expect.poll with the page's patience (vitest's default is one second). */
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000 });

/** The request drawer's maintenance type `type`: its `fields` shown, `hidden` not, and Save gives `messages`. */
async function typeAsksFor(page: Page, type: string, fields: string[], hidden: string, messages: string[]) {
  await pick(page, 'mr-type', type);
  for (const field of fields) await page.getByTestId(field).waitFor();
  expect(await page.getByTestId(hidden).count()).toBe(0);
  await clickAndSee(page, 'save-button', ...messages);
}

describe('maintenance requests and orders', () => {
  it('asks for the fields of each type, approves a request, creates its order and locks it once validated', async () => {
    await onSignedInPage(browser, org, '/dashboard/maintenance-request', async (page) => {
      await page.getByTestId('add-button').click();
      await poll(() => page.getByTestId('drawer-title').innerText()).toBe('New Maintenance Request');

      // Corrective: failure reason and urgency level, no schedule date.
      await typeAsksFor(page, 'Corrective', ['mr-failure', 'mr-urgency'], 'mr-schedule', [
        'Failure Reason is required for corrective and emergency maintenance',
        'Urgency Level is required for corrective and emergency maintenance',
        'Title is required',
      ]);
      await page.getByTestId('tab-errors-overview').waitFor();

      // Preventive: schedule date and frequency instead.
      await typeAsksFor(page, 'Preventive', ['mr-schedule', 'mr-frequency'], 'mr-failure', [
        'Schedule Date is required for preventive, predictive, and proactive maintenance',
        'Frequency is required for preventive maintenance',
      ]);

      // An employee's request needs an asset.
      await pick(page, 'mr-requester', 'Employee');
      await clickAndSee(page, 'save-button', 'Asset Id is required when requester is an employee');

      await page.getByTestId('mr-title').fill('Quarterly pump service');
      await page.getByTestId('mr-description').fill('Planned service of the boiler feed pump');
      await pick(page, 'mr-asset', 'Boiler Feed Pump', 'Boiler');
      await pick(page, 'mr-priority', 'High');
      await pick(page, 'mr-assignee', 'admin');
      await pick(page, 'mr-risk', 'Medium');
      await page.getByTestId('mr-schedule').fill('15/12/2030');
      await page.getByTestId('mr-schedule').blur();
      await pick(page, 'mr-frequency', 'Monthly');
      await clickAndSee(page, 'save-button', 'Maintenance request added successfully');
      await poll(() => page.getByTestId('drawer-title').innerText()).toBe('MR-0001');

      // Attachments tab: a PDF upload with its own Save Changes.
      await page.getByRole('tab', { name: 'Attachments' }).click();
      await page
        .getByTestId('mr-attachments')
        .locator('input[type=file]')
        .setInputFiles({
          name: 'pump-manual.pdf',
          mimeType: 'application/pdf',
          buffer: Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n'),
        });
      await page.getByTestId('attachments-save').click();
      await text(page, 'Attachments uploaded successfully').waitFor();
      await page.getByRole('link', { name: 'pump-manual.pdf' }).waitFor();

      // The list shows the request with its date, the month by name ("06 Dec 2026", decision 066), and the counters.
      const row = page.locator('tr', { hasText: 'MR-0001' });
      await row.waitFor();
      const [y, m, d] = new Date().toISOString().slice(0, 10).split('-');
      const today = `${d} ${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][Number(m) - 1]} ${y}`;
      expect(await row.innerText()).toContain(today);
      await poll(() => page.getByTestId('stat-new').innerText()).toBe('1');

      // Approve it: 'Create Order' appears, and the status filter finds it under Approved.
      await pick(page, 'mr-state', 'Approved');
      await text(page, 'Maintenance request state updated successfully').waitFor();
      await poll(() => page.getByTestId('stat-approved').innerText()).toBe('1');
      // Yes opens the order form pre-filled from the request; nothing exists before Save (decision 037).
      await page.getByTestId('create-order').click();
      await text(page, 'Are you sure? Do you really want to generate a maintenance order?').waitFor();
      await page.getByRole('button', { name: 'Yes' }).click();
      await page.waitForURL(/\/dashboard\/maintenance-order\?order=new&fromRequest=1$/);
      await poll(() => page.getByTestId('mo-type').inputValue()).toBe('Preventive');
      await poll(() => page.getByTestId('mo-asset').inputValue()).toBe('Boiler Feed Pump');
      await poll(() => page.getByTestId('mo-request').inputValue()).toContain('MR-0001');
      expect(await page.locator('tbody tr', { hasText: 'PM-0001' }).count()).toBe(0);

      // The order's own rules: a service is required; a new one is made in place with 'Add New'.
      await clickAndSee(page, 'save-button', 'Select at least one service');
      await pick(page, 'mo-services', 'Bearing replacement', 'Bearing');
      await page.keyboard.press('Escape');
      await page.getByTestId('mo-services').click();
      await page.getByRole('option', { name: 'Add New' }).click();
      const serviceDialog = page.getByTestId('service-create-modal');
      await serviceDialog.getByTestId('field-title').fill('Seal inspection');
      await serviceDialog.getByTestId('field-price').fill('35');
      await serviceDialog.getByTestId('field-station-0').click();
      await page.getByRole('option', { name: 'Line 1' }).click();
      await serviceDialog.getByTestId('field-operation-0').fill('Inspect seals');
      await serviceDialog.getByTestId('field-time-0').fill('00:30');
      await serviceDialog.getByRole('button', { name: 'Save Changes' }).click();
      await serviceDialog.waitFor({ state: 'detached' });
      await poll(() => page.locator('.mantine-Pill-label', { hasText: 'Seal inspection' }).count()).toBe(1);
      await page.getByTestId('mo-due').fill('20/12/2030');
      await page.getByTestId('mo-due').blur();
      await page.getByTestId('mo-completion').fill('21/12/2030');
      await page.getByTestId('mo-completion').blur();
      await page.getByTestId('mo-rca').fill('Bearing wear');
      await page.getByTestId('save-button').click();
      await page.waitForURL(/\/dashboard\/maintenance-order\?order=1$/);
      await poll(() => page.getByTestId('drawer-title').innerText()).toBe('PM-0001');

      // Validate: read-only.
      await pick(page, 'mo-status', 'Validate');
      await text(page, 'Maintenance order status updated successfully').waitFor();
      await page.getByTestId('mo-locked').waitFor();
      expect(await page.getByTestId('save-button').count()).toBe(0);
      expect(await page.getByTestId('mo-rca').isDisabled()).toBe(true);
      expect(await page.getByTestId('mo-status').isDisabled()).toBe(true);
      await page.locator('tr', { hasText: 'PM-0001' }).waitFor();

      // The request links back to its order.
      await page.goto(`${org.url}/dashboard/maintenance-request`);
      // The title filter (300 ms, in the query string) and the state filter.
      await page.getByTestId('filter-title').fill('pump service');
      await page.waitForURL(/title=pump/);
      await page.locator('tr', { hasText: 'MR-0001' }).waitFor();
      await page.getByTestId('filter-title').fill('nothing like this');
      await page.getByText('No results').first().waitFor();
      await page.getByTestId('reset-filters').click();
      await page.locator('tr', { hasText: 'MR-0001' }).waitFor();
      await page.getByTestId('filter-status').click();
      await page.getByRole('option', { name: 'Approved' }).click();
      await page.waitForURL(/status=approved/);
      await page.locator('tr', { hasText: 'MR-0001' }).waitFor();
      await page.keyboard.press('Escape');

      await page.locator('tr', { hasText: 'MR-0001' }).click();
      await poll(() => page.getByTestId('open-order').innerText()).toContain('PM-0001');
    });
  });
});
