/**
 * Import and export in the browser (decision 042): a manager opens the import wizard from the assets list,
 * uploads a CSV with some bad rows (parsed in a Web Worker), sees each problem by row and column, imports the
 * valid rows and downloads the rejected ones; then filters the assets list and exports it as CSV (filters and
 * visible columns). Another list (customers and vendors) exports filtered the same way, and the admin downloads
 * the whole organisation as a ZIP.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { call, launchBrowser, onSignedInPage, signUpOrg, startServer, type TestOrg, type TestServer } from './helpers';

let server: TestServer;
let browser: Browser;
let org: TestOrg;
let token: string;

beforeAll(async () => {
  server = await startServer();
  org = await signUpOrg(server, 'Transfer');
  const host = `${org.subdomain}.localhost`;
  token = (await call(server.port, host, 'POST', '/api/login', { email: org.email, password: org.password })).body.accessToken as string;
  const res = await call(server.port, host, 'POST', '/api/asset-categories/add-asset-category', { code: 'PMP', name: 'Pumps' }, token);
  if (res.status >= 400) throw new Error(JSON.stringify(res.body));
  // A team for the work stations the second journey imports.
  const me = (await call(server.port, host, 'GET', '/api/user/get-app-data', undefined, token)).body.loggedInUser as { id: number };
  const team = await call(
    server.port,
    host,
    'POST',
    '/api/teams/add-team',
    { name: 'Mechanics', members: [{ workerId: me.id, isTeamLead: true, isDefaultAssignee: true }] },
    token,
  );
  if (team.status >= 400) throw new Error(JSON.stringify(team.body));
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The lines of the CSV file a click downloads (its byte order mark dropped). */
async function downloadedLines(page: Page, click: () => Promise<void>): Promise<string[]> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const text = (await readFile((await download.path())!)).toString('utf8');
  return text
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
}

const csv = [
  'Asset Name,Category,Date,Code',
  'Feed Pump A,Pumps,2024-05-01,P-1',
  'Feed Pump B,Pumps,not a date,P-2',
  'Feed Pump C,Nowhere,2024-05-03,P-3',
  'Feed Pump D,Pumps,2024-05-04,P-1',
  'Cooling Pump,pmp,2024-05-05,P-5',
].join('\n');

describe('import and export', () => {
  it('imports a CSV with bad rows (problems shown, valid rows imported, rejected ones downloaded), then exports a filtered list', async () => {
    await onSignedInPage(browser, org, '/dashboard/assets', async (page) => {
      await page.getByTestId('import-list').click();
      await page.getByTestId('import-export-page').waitFor();

      await page.locator('input[type="file"][accept*=".csv"]').setInputFiles({ name: 'assets.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${csv}`) });
      await expect.poll(() => page.getByTestId('import-found').innerText()).toContain('5 rows, 4 columns');
      await expect.poll(() => page.getByTestId('map-Asset Name').inputValue()).toBe('Name *');
      await expect.poll(() => page.getByTestId('map-Code').inputValue()).toBe('Asset Code');

      // A dry run first: all or nothing, so nothing is written; the problems are listed by row and column.
      await page.getByTestId('import-dry-run').click();
      const rows = () => page.getByTestId('import-problems').locator('tbody tr').allInnerTexts();
      await expect
        .poll(rows)
        .toEqual([
          '3\tDate\tnot a date\tDate must be a valid date',
          '4\tCategory\tNowhere\tCategory does not exist in this organization',
          '5\tCode\tP-1\tDuplicate of row 2',
        ]);
      await expect.poll(() => page.getByTestId('import-summary').innerText()).toContain('5 rows: 2 valid, 3 with problems.');

      // Import the valid rows, then download the rejected ones with their problems.
      await page.getByTestId('mode-valid').click();
      await page.getByTestId('import-run').click();
      await expect.poll(() => page.getByTestId('import-summary').innerText()).toContain('2 rows imported.');
      expect(await downloadedLines(page, () => page.getByTestId('download-rejected').click())).toEqual([
        'Asset Name,Category,Date,Code,Problems',
        'Feed Pump B,Pumps,not a date,P-2,Date: Date must be a valid date',
        'Feed Pump C,Nowhere,2024-05-03,P-3,Category: Category does not exist in this organization',
        'Feed Pump D,Pumps,2024-05-04,P-1,Code: Duplicate of row 2',
      ]);

      // The list has the two, and exports what it shows: filtered by name, its visible columns.
      await page.goto(`${org.url}/dashboard/assets?name=feed`);
      await page.getByText('Feed Pump A', { exact: true }).first().waitFor();
      const lines = await downloadedLines(page, () => page.getByTestId('export-list').click());
      expect(lines[0]).toBe('Asset ID,Name,Category,Status,Owner,Date');
      expect(lines.slice(1)).toEqual(['AS-0001,Feed Pump A,Pumps,Operational,,2024-05-01']);

      // The export, edited, re-imports as an update of its record (by its Asset ID): counted, then saved.
      const edited = [lines[0], 'AS-0001,Feed Pump A1,Pumps,Operational,,2024-05-01'].join('\r\n');
      await page.getByTestId('import-list').click();
      await page.getByTestId('import-export-page').waitFor();
      await page
        .locator('input[type="file"][accept*=".csv"]')
        .setInputFiles({ name: 'assets-edited.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${edited}`) });
      await expect.poll(() => page.getByTestId('map-Asset ID').inputValue()).toBe('Asset ID');
      await page.getByTestId('mode-all').click();
      await page.getByTestId('import-dry-run').click();
      await expect.poll(() => page.getByTestId('import-changes').innerText()).toBe('0 new, 1 updated, 0 unchanged.');
      await page.getByTestId('import-run').click();
      await expect.poll(() => page.getByTestId('import-summary').innerText()).toContain('1 rows imported.');
      const host = `${org.subdomain}.localhost`;
      const after = await call(server.port, host, 'GET', '/api/assets/get-assets?pageSize=50', undefined, token);
      expect(after.body.assets.map((a: { name: string }) => a.name).sort()).toEqual(['Cooling Pump', 'Feed Pump A1']);
    });
  });

  it('exports a filtered customers and vendors list with its visible columns, and the whole organisation as a ZIP', async () => {
    const host = `${org.subdomain}.localhost`;
    token = (await call(server.port, host, 'POST', '/api/login', { email: org.email, password: org.password })).body.accessToken as string;
    for (const body of [
      { name: 'Acme Foods', email: 'buyer@acme.example.com', type: 'customer', category: 'company', mobile: '+966551234567' },
      { name: 'Bearing World', email: 'sales@bearings.example.com', type: 'vendor', category: 'company', city: 'Riyadh' },
      { name: '=Formula Vendor', email: 'f@vendor.example.com', type: 'vendor', category: 'company' },
    ]) {
      const res = await call(server.port, host, 'POST', '/api/customer-vendors/add-customer-vendor', body, token);
      if (res.status >= 400) throw new Error(JSON.stringify(res.body));
    }
    await onSignedInPage(browser, org, null, async (page) => {
      // Filtered to vendors: the customer is not exported; the city column is not shown, so not exported.
      await page.goto(`${org.url}/dashboard/customer-vendors?type=vendor`);
      await page.getByText('Bearing World', { exact: true }).first().waitFor();
      // The Mobile column (the mobile, else the phone) exports both, so that a re-import keeps each.
      expect(await downloadedLines(page, () => page.getByTestId('export-list').click())).toEqual([
        'Name,Email,Mobile,Phone,Type',
        "'=Formula Vendor,f@vendor.example.com,,,vendor",
        'Bearing World,sales@bearings.example.com,,,vendor',
      ]);

      await page.goto(`${org.url}/settings/import-export`);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-organisation').click()]);
      const zip = await readFile((await download.path())!);
      expect(zip.subarray(0, 2).toString()).toBe('PK');
      expect(zip.includes(Buffer.from('lists/customer-vendors.csv'))).toBe(true);
    });
  });

  it('imports work stations from the wizard: the kind chosen in Arabic, a row whose team is not found refused, the others saved', async () => {
    await onSignedInPage(browser, org, '/settings/import-export', async (page) => {
      await page.getByTestId('import-export-page').waitFor();
      // The new kinds are offered in the reader's language.
      await page.evaluate(() => localStorage.setItem('cmms.language', 'ar'));
      await page.reload();
      await page.getByTestId('import-kind').click();
      await page.getByRole('option', { name: 'محطات العمل' }).click();
      await expect.poll(() => page.getByTestId('import-kind').inputValue()).toBe('محطات العمل');

      const stations = [
        'Code,Name,City,Team',
        'WS-01,Machining bay,Riyadh,mechanics',
        'WS-02,Paint shop,Jeddah,Painters',
        'WS-03,Welding bay,Dammam,Mechanics',
      ].join('\n');
      await page.locator('input[type="file"][accept*=".csv"]').setInputFiles({ name: 'stations.csv', mimeType: 'text/csv', buffer: Buffer.from(stations) });
      await expect.poll(() => page.getByTestId('import-found').innerText()).toContain('3');
      await page.getByTestId('mode-valid').click();
      await page.getByTestId('import-run').click();
      await expect
        .poll(() => page.getByTestId('import-problems').locator('tbody tr').allInnerTexts())
        .toEqual(['3\tTeam\tPainters\tTeam does not exist in this organization']);

      const host = `${org.subdomain}.localhost`;
      const list = await call(server.port, host, 'GET', '/api/workstations/get-workstations', undefined, token);
      expect(list.body.workStations.map((w: { code: string; Team: { name: string } }) => `${w.code}/${w.Team.name}`).sort()).toEqual([
        'WS-01/Mechanics',
        'WS-03/Mechanics',
      ]);

      // The work stations list opens the wizard with its kind chosen (its Import entry).
      await page.goto(`${org.url}/dashboard/work-stations`);
      await page.getByTestId('import-list').click();
      await expect.poll(() => page.getByTestId('import-kind').inputValue()).toBe('محطات العمل');
    });
  });
});
