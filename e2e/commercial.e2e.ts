/**
 * Sales and procurement in the browser, on the seeded demo organisation: a customer added with the spec's
 * messages; a quotation with a service line and a part line, a discount and a group tax, whose summary is
 * right while typing and after a reload, and whose PDF opens with the same total; the quick create of a
 * customer from the title box; a purchase order moved from draft to purchaseOrder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { computeTotals, type TaxRule } from '../src/shared/tax';
import { toMinor } from '../src/shared/money';
import { call, launchBrowser, newPage, onSignedInPage, signIn, startServer, type TestServer } from './helpers';

let server: TestServer;
let browser: Browser;
let token: string;
const demo = { email: 'admin@demo.com', password: 'Demo1234!', url: '' };
const host = 'demo.localhost';

beforeAll(async () => {
  server = await startServer({ seedDemo: true });
  demo.url = server.orgUrl('demo');
  token = (await call(server.port, host, 'POST', '/api/login', { email: demo.email, password: demo.password })).body.accessToken as string;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The raw bytes of a GET (the PDF), with the admin's token on the demo host. */
function download(path: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: server.port, path, headers: { host: `${host}:${server.port}`, authorization: `Bearer ${token}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks)));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
const api = async (path: string) => (await call(server.port, host, 'GET', path, undefined, token)).body;
const money = (minor: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(minor / 100);

/** Opens a list screen and waits for its add button (the page's chunk loads lazily; the machine may be busy). */
async function openList(page: Page, path: string, addLabel: string) {
  await page.goto(`${demo.url}${path}`);
  const add = page.getByRole('button', { name: addLabel });
  await add.waitFor({ timeout: 45_000 });
  await add.click();
}

/** Opens an async or plain select by its test id, types to search (when given) and picks the option. */
async function pick(page: Page, testId: string, option: string, search?: string) {
  const input = page.getByTestId(testId);
  await input.click();
  if (search !== undefined) await input.fill(search);
  await page.getByRole('option', { name: option, exact: true }).first().click();
}

/** Text of a generated PDF (uncompressed pdfkit streams: hex strings inside TJ arrays). */
function pdfText(bytes: Buffer) {
  const body = bytes.toString('latin1');
  return [...body.matchAll(/\[([^\]]*)\]\s*TJ/g)]
    .map((m) => [...m[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1], 'hex').toString('latin1')).join(''))
    .join('\n');
}

describe('customers, quotations and purchase orders', () => {
  it('adds a customer with the spec messages and filters the list by name and type', async () => {
    await onSignedInPage(browser, demo, null, async (page) => {
      await openList(page, '/dashboard/customer-vendors', 'Add Customer/Vendor');
      await page.getByTestId('cv-name').fill('Ab');
      await page.getByTestId('cv-email').fill('not-an-email');
      await page.getByTestId('cv-save').click();
      await page.getByText('Name must be at least 3 characters long', { exact: true }).waitFor();
      await page.getByText('Invalid email format', { exact: true }).waitFor();
      await page.getByTestId('tab-errors-overview').waitFor();
      await page.getByTestId('cv-name').fill('Northwind Bottling');
      await page.getByTestId('cv-email').fill('buyers@northwind.example.com');
      await pick(page, 'cv-country', 'Canada', 'Cana');
      await page.getByTestId('cv-save').click();
      await page.getByText('Customer added successfully').waitFor();
      await page.getByPlaceholder('Filter Customer/Vendors').fill('northwind');
      await page.waitForURL(/name=northwind/);
      await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
      expect(await page.locator('tbody tr').first().innerText()).toContain('buyers@northwind.example.com');
    });
  });

  it('a quotation with a service line and a part line, a discount and a group tax: live summary, reload, PDF', async () => {
    // what the lines will use, from the same API the drawer reads
    const taxes = (await api('/api/quotations/get-tax-options')) as (TaxRule & { value: number; label: string })[];
    const group = taxes.find((t) => t.taxComputation === 'group' && (t.children?.length ?? 0) >= 2)!;
    expect(group).toBeTruthy();
    const service = ((await api('/api/services/get-services-options?pageSize=10')) as { label: string; price: number }[])[0];
    const part = ((await api('/api/parts/get-parts-options?pageSize=10')) as { label: string; salesPrice: number }[])[0];
    const expected = computeTotals(
      [
        { quantity: 2, unitPrice: toMinor(service.price, 2), discount: 10, tax: group },
        { quantity: 3, unitPrice: toMinor(part.salesPrice, 2), discount: 0, tax: group },
      ],
      { digits: 2 },
    );

    const { context, page } = await newPage(browser);
    try {
      await signIn(page, demo);
      await openList(page, '/dashboard/quotations', 'Generate Quotation');
      await expect.poll(() => page.getByTestId('drawer-title').innerText()).toBe('New Quotation');
      await pick(page, 'q-customer', 'Riverside Hospital', 'Riverside');

      await page.getByTestId('q-services-add').click();
      await pick(page, 'q-services-0-item', service.label, service.label);
      await page.getByTestId('q-services-0-quantity').fill('2');
      await page.getByTestId('q-services-0-discount').fill('10');
      await pick(page, 'q-services-0-tax', group.label);

      await page.getByTestId('q-parts-add').click();
      await pick(page, 'q-parts-0-item', part.label, part.label);
      await page.getByTestId('q-parts-0-quantity').fill('3');
      await pick(page, 'q-parts-0-tax', group.label);

      // the summary follows the typing, from the shared engine
      await expect.poll(() => page.getByTestId('q-summary-total').innerText()).toBe(money(expected.total));
      expect(await page.getByTestId('q-summary-rawSubtotal').innerText()).toBe(money(expected.rawSubtotal));
      expect(await page.getByTestId('q-summary-totalDiscount').innerText()).toBe(money(expected.totalDiscount));
      expect(await page.getByTestId('q-summary-untaxed').innerText()).toBe(money(expected.untaxed));
      expect(await page.getByTestId('q-summary-totalTax').innerText()).toBe(money(expected.totalTax));

      await page.getByTestId('q-save').click();
      await page.getByText('Quotation added successfully').waitFor();
      await expect.poll(() => page.getByTestId('drawer-title').innerText()).toMatch(/^Q-\d{4}$/);
      const number = await page.getByTestId('drawer-title').innerText();

      // after a reload: the open drawer is in the URL and comes back; the list row and the drawer show the stored figures
      await page.reload();
      await expect.poll(() => page.getByTestId('drawer-title').innerText(), { timeout: 45_000 }).toBe(number);
      await page.goto(page.url().replace(/[?&]open=\d+$/, ''));
      const row = page.locator('tbody tr', { hasText: number });
      await row.waitFor({ timeout: 45_000 });
      expect(await row.innerText()).toContain(money(expected.total));
      await row.click();
      await expect.poll(() => page.getByTestId('q-summary-total').innerText()).toBe(money(expected.total));
      expect(await page.getByTestId('q-services-0-subtotal').innerText()).toBe(money(expected.lines[0].subtotal));

      // the PDF opens in a new tab and shows the same total
      const popupPromise = context.waitForEvent('page');
      const pdfResponse = page.waitForResponse((res) => res.url().includes('/api/quotations/get-quotation-pdf/'));
      await page.getByTestId('q-print').click();
      const popup = await popupPromise;
      const response = await pdfResponse;
      expect(response.status()).toBe(200);
      expect(response.headers()['content-type']).toBe('application/pdf');
      // the new tab shows the very bytes the call returned (a blob URL: the token never goes in a URL)
      await expect.poll(() => popup.url(), { timeout: 15_000 }).toMatch(/^blob:/);
      const text = pdfText(await download(`/api/quotations/get-quotation-pdf/${Number(number.slice(2))}`));
      expect(text).toContain(number);
      expect(text).toContain(money(expected.total));
      expect(text).toContain('Riverside Hospital');
    } finally {
      await context.close();
    }
  });

  it('quick-creates a customer from the title box; an invalid title shows the message for 3 seconds', async () => {
    await onSignedInPage(browser, demo, null, async (page) => {
      await openList(page, '/dashboard/quotations', 'Generate Quotation');
      const box = page.getByTestId('q-customer');
      await box.click();
      await box.fill('not a mail');
      await page.getByRole('option', { name: 'Create "not a mail"' }).click();
      const message = page.getByText('Title is not in a valid email format', { exact: true });
      await message.waitFor();
      await message.waitFor({ state: 'detached', timeout: 6_000 });
      await box.click();
      await box.fill('jane.doe@client.example.com');
      await page.getByRole('option', { name: 'Create "jane.doe@client.example.com"' }).click();
      await page.getByText('Customer added successfully').waitFor();
      await expect.poll(() => box.inputValue()).toBe('jane.doe@client.example.com');
      const created = (await api('/api/customer-vendors/get-customer-vendors?name=jane.doe')).customerVendors;
      expect(created[0]).toMatchObject({ name: 'jane.doe@client.example.com', email: 'jane.doe@client.example.com', category: 'individual', type: 'customer' });
    });
  });

  /**
   * Issue: the line table needed 820 px inside a 758 px drawer column at 1440x900 (Subtotal cut, the remove button
   * outside) and the drawers were 724 to 788 px wide on a 390 px phone in Arabic. Each line table, the drawer and
   * its Save button must lie inside the window, with no sideways scrolling, in both languages.
   */
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    for (const language of ['en', 'ar'] as const) {
      it(`the line tables and the drawer fit at ${width}x${height} in ${language}`, async () => {
        const { context, page } = await newPage(browser, { width, height });
        try {
          await signIn(page, demo);
          await page.evaluate((lang) => localStorage.setItem('cmms.language', lang), language);
          const listed = (await api('/api/quotations/get-quotations?page=1&pageSize=10')) as { quotations: { id: number }[] };
          for (const [path, prefix, id] of [
            ['quotations', 'q', listed.quotations[0].id],
            ['purchase-orders', 'po', null],
          ] as const) {
            await page.goto(`${demo.url}/dashboard/${path}?open=${id ?? 'new'}`);
            await page.getByTestId(`${prefix}-save`).waitFor({ timeout: 45_000 });
            for (const lines of [`${prefix}-services`, `${prefix}-parts`]) {
              if ((await page.getByTestId(`${lines}-0`).count()) === 0) await page.getByTestId(`${lines}-add`).click();
            }
            await page.getByTestId(`${prefix}-parts-0-subtotal`).waitFor();
            expect(await page.evaluate(() => document.documentElement.dir)).toBe(language === 'ar' ? 'rtl' : 'ltr');
            if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/${path}-${width}-${language}.png`, fullPage: true });
            const overflow = await page.evaluate((p) => {
              const inView = (el: Element | null) => {
                const r = el?.getBoundingClientRect();
                return !!r && r.width > 0 && r.left >= -1 && r.right <= window.innerWidth + 1;
              };
              const within = (el: Element | null, box: Element | null) => {
                const r = el?.getBoundingClientRect();
                const b = box?.getBoundingClientRect();
                return !!r && !!b && r.left >= b.left - 1 && r.right <= b.right + 1;
              };
              const problems: string[] = [];
              const dialog = document.querySelector('[role="dialog"]');
              if (!inView(dialog)) problems.push(`drawer ${dialog?.getBoundingClientRect().width}px`);
              if (!inView(document.querySelector(`[data-testid="${p}-save"]`))) problems.push('save');
              if (!inView(document.querySelector('.mantine-Drawer-close'))) problems.push('close');
              // nothing shown in the drawer reaches past the window's edges (Arabic overflows to the left)
              for (const el of dialog?.querySelectorAll('*') ?? []) {
                const r = el.getBoundingClientRect();
                if (r.width > 1 && r.height > 1 && (r.left < -1 || r.right > window.innerWidth + 1) && getComputedStyle(el).visibility !== 'hidden') {
                  problems.push(`${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} ${Math.round(r.left)}..${Math.round(r.right)}`);
                  break;
                }
              }
              for (const lines of [`${p}-services`, `${p}-parts`]) {
                const box = document.querySelector(`[data-testid="${lines}"]`);
                if (!inView(box)) problems.push(`${lines} ${box?.getBoundingClientRect().width}px`);
                for (const el of box?.querySelectorAll('*') ?? []) {
                  if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible' && el.tagName !== 'INPUT')
                    problems.push(`${lines} scrolls sideways`);
                }
                if (!within(box?.querySelector(`[data-testid="${lines}-0-subtotal"]`) ?? null, box)) problems.push(`${lines} subtotal`);
                if (!within(box?.querySelector('button[class*="ActionIcon"]') ?? null, box)) problems.push(`${lines} remove`);
              }
              return problems;
            }, prefix);
            expect(overflow, `${path} at ${width} px in ${language}`).toEqual([]);
          }
        } finally {
          await context.close();
        }
      });
    }
  }

  it('moves a purchase order from draft to purchaseOrder', async () => {
    const taxes = (await api('/api/purchase-orders/get-tax-options')) as { label: string; taxComputation: string }[];
    const tax = taxes.find((t) => t.taxComputation !== 'group')!;
    const part = ((await api('/api/parts/get-parts-options?pageSize=10')) as { label: string }[])[1];
    await onSignedInPage(browser, demo, null, async (page) => {
      await openList(page, '/dashboard/purchase-orders', 'Generate Purchase Order');
      await pick(page, 'po-vendor', 'Grainger Industrial Supply', 'Grainger');
      await page.getByTestId('po-parts-add').click();
      await pick(page, 'po-parts-0-item', part.label, part.label);
      await page.getByTestId('po-save').click();
      await page.getByText('Tax is required', { exact: true }).waitFor();
      await pick(page, 'po-parts-0-tax', tax.label);
      await page.getByTestId('po-save').click();
      await page.getByText('Purchase order added successfully').waitFor();
      await expect.poll(() => page.getByTestId('drawer-title').innerText()).toMatch(/^PO-\d{4}$/);
      const number = await page.getByTestId('drawer-title').innerText();
      expect(await page.getByTestId('po-status').inputValue()).toBe('Draft');
      for (const label of ['Send For Approval', 'Purchase Order Sent', 'Purchase Order']) {
        await pick(page, 'po-status', label);
        await page.getByText('Purchase order status updated successfully').first().waitFor();
        await expect.poll(() => page.getByTestId('po-status').inputValue()).toBe(label);
      }
      await page.reload();
      const row = page.locator('tbody tr', { hasText: number });
      await row.waitFor({ timeout: 45_000 });
      expect(await row.innerText()).toMatch(/purchase order(?! sent)/i);
      const id = Number(number.slice(3));
      expect((await api(`/api/purchase-orders/get-purchase-order/${id}`)).purchaseOrder.status).toBe('purchaseOrder');
    });
  });
});
