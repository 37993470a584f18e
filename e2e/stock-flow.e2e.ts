/**
 * Stock that follows the work (issue 41, decisions 071 and 081), in the manager's screens: a PM plan with a part
 * generates an order that reserves it at the storeroom (the part's Stock tab shows reserved and available, the
 * order's Parts tab "Ready"); the order uses its parts (stock falls below the reorder point); "Draft reorders" on
 * the Storerooms screen drafts a purchase order; receiving it into the storeroom raises stock; a count posts the
 * difference as a move.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { call, launchBrowser, newPage, signIn, signUpOrg, startServer, toastTexts, type TestOrg, type TestServer } from './helpers';

let server: TestServer;
let browser: Browser;
let org: TestOrg;
let partId: number;
let storeId: number;
let orderId: number;
let api: (method: string, path: string, body?: unknown) => Promise<any>;

beforeAll(async () => {
  server = await startServer();
  org = await signUpOrg(server, 'Stores');
  const host = `${org.subdomain}.localhost`;
  const token = (await call(server.port, host, 'POST', '/api/login', { email: org.email, password: org.password })).body.accessToken as string;
  api = async (method: string, path: string, body?: unknown) => {
    const res = await call(server.port, host, method, path, body, token);
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  // Master data through the import (a unit and a part category made on the way), a vendor, a storeroom with 3 seals.
  await api('POST', '/api/data-transfer/import/uoms', { rows: [{ name: 'Units', category: 'Unit', type: 'reference' }], createMissing: true });
  await api('POST', '/api/data-transfer/import/parts', {
    rows: [{ name: 'Seal kit', type: 'stockable', category: 'Spares', salesPrice: '30', unitOfMeasure: 'Units' }],
    createMissing: true,
  });
  partId = (await api('GET', '/api/parts/get-parts?name=Seal%20kit')).parts[0].id;
  const vendor = (
    await api('POST', '/api/customer-vendors/add-customer-vendor', {
      name: 'Seal World',
      email: 'sales@seals.example.com',
      type: 'vendor',
      category: 'company',
    })
  ).customerVendor;
  // Purchase order lines need a purchase tax (the reorder draft takes the first).
  await api('POST', '/api/taxes/add-tax', {
    name: 'Purchase VAT 15%',
    scope: 'purchase',
    taxComputation: 'percentage_of_price',
    amount: 15,
    isPriceIncluded: false,
  });
  storeId = (await api('POST', '/api/stock/add-location', { name: 'Main store', kind: 'storeroom' })).location.id;
  await api('POST', '/api/stock/count-stock', { partId, locationId: storeId, countedQuantity: 3 });
  await api('PUT', '/api/stock/update-stock-level', { partId, locationId: storeId, reorderPoint: 2, reorderQuantity: 5 });
  await api('PUT', '/api/stock/update-part-stock-settings', { partId, preferredVendorId: vendor.id });
  // A daily plan from today with 2 seals on the pump: the generator makes today's order.
  const categoryId = (await api('POST', '/api/asset-categories/add-asset-category', { code: 'PMP', name: 'Pumps' })).assetCategory.id;
  const assetId = (await api('POST', '/api/assets/add-asset', { name: 'Feed pump', date: '2024-01-01', assetCategoryId: categoryId })).asset.id;
  await api('POST', '/api/pm-plans/add-plan', {
    name: 'Pump seals',
    title: 'Replace pump seals',
    trigger: 'calendar',
    frequency: 'daily',
    interval: 1,
    schedule: 'fixed',
    startDate: new Date().toISOString().slice(0, 10),
    leadDays: 0,
    parts: [{ partId, quantity: 2 }],
    assetIds: [assetId],
  });
  await api('POST', '/api/pm-plans/run-generator');
  const orders = (await api('GET', '/api/work-orders/get-work-orders?title=Replace%20pump%20seals')).workOrders as { id: number }[];
  if (orders.length !== 1) throw new Error(`expected one generated order, got ${orders.length}`);
  orderId = orders[0].id;
  browser = await launchBrowser();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000 });

/** The parts list, the seal kit's drawer, its Stock tab; the storeroom's level row as text. */
async function openPartStock(page: Page) {
  await page.goto(`${org.url}/dashboard/parts-inventory`);
  await page
    .getByRole('row', { name: /Seal kit/ })
    .getByText('Seal kit')
    .click();
  await page.getByTestId('tab-stock').click();
  await page.getByTestId('part-stock-levels').waitFor();
}
const levelRow = (page: Page) => page.getByTestId(`stock-level-${storeId}`).innerText();
/** "Main store 3 2 1": quantity, reserved, available (the cells are tab-separated in innerText). */
const level = async (page: Page) => (await levelRow(page)).split(/\s+/).slice(2, 5).join(' ');

async function toast(page: Page, text: string) {
  await poll(() => toastTexts(page)).toEqual(expect.arrayContaining([expect.stringContaining(text)]));
}

describe('stock follows the work', () => {
  it('reserved by a PM order, used, reordered, received and counted', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, org);

      // The generated order reserves 2 of the 3 seals: 1 available.
      await openPartStock(page);
      await poll(() => level(page)).toBe('3 2 1');
      await page.goto(`${org.url}/dashboard/work-orders?open=${orderId}`);
      await page.getByTestId('tab-parts').click();
      await poll(() => page.getByTestId('parts-readiness').textContent()).toBe('Ready');

      // The order uses its reserved parts: stock falls to 1, nothing reserved, below the reorder point of 2.
      await page.getByTestId('use-reserved-parts').click();
      await toast(page, 'Reserved parts used');
      await poll(() => page.getByTestId('part-row').count()).toBe(1);
      await openPartStock(page);
      await poll(() => level(page)).toBe('1 0 1');

      // Draft reorders: one draft purchase order to the preferred vendor.
      await page.goto(`${org.url}/dashboard/storerooms`);
      await page.getByTestId('draft-reorders').click();
      await toast(page, 'Drafted 1 purchase order: PO-0001');
      const po = ((await api('GET', '/api/purchase-orders/get-purchase-orders')).purchaseOrders as { id: number; status: string }[])[0];
      expect(po.status).toBe('draft');

      // Received into the storeroom: the 5 ordered come in.
      await page.goto(`${org.url}/dashboard/purchase-orders?open=${po.id}`);
      await poll(() => page.getByTestId('po-receiving-status').textContent()).toBe('Not received');
      await page.getByTestId('po-receive').click();
      const dialog = page.getByTestId('receive-dialog');
      await poll(() => dialog.getByTestId(`receive-quantity-${partId}`).inputValue()).toBe('5');
      await poll(() => dialog.getByTestId('receive-storeroom').inputValue()).toBe('Main store');
      await dialog.getByTestId('receive-submit').click();
      await toast(page, 'Received into stock successfully');
      await poll(() => page.getByTestId('po-receiving-status').textContent()).toBe('Fully received');
      await openPartStock(page);
      await poll(() => level(page)).toBe('6 0 6');

      // A count finds 5: the difference goes out as a count move.
      await page.getByTestId('open-count').click();
      const count = page.getByTestId('count-dialog');
      await count.getByTestId('count-location').click();
      await page.getByRole('option', { name: 'Main store' }).click();
      await count.getByTestId('count-quantity').fill('5');
      await count.getByTestId('count-note').fill('Shelf count');
      await count.getByTestId('count-submit').click();
      await toast(page, 'Count posted successfully');
      await poll(() => level(page)).toBe('5 0 5');
      const latest = page.getByTestId('stock-moves').getByRole('row').first();
      await poll(() => latest.getByTestId('move-direction').textContent()).toBe('Out');
      await poll(() => latest.innerText()).toContain('Shelf count');
      const moves = (await api('GET', `/api/stock/get-stock-moves?partId=${partId}`)).stockMoves as { reason: string; quantity: number }[];
      expect(moves.map((m) => `${m.reason} ${m.quantity}`)).toEqual(['count 1', 'receipt 5', 'consumption 2', 'count 3']);
    } finally {
      await context.close();
    }
  }, 240_000);
});
