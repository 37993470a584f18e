/**
 * Shared work orders in the browser (issue 26, decision 040): a manager shares a work order from its drawer; the
 * contractor opens the e-mailed link in a browser of their own at phone width, comments, uploads a photo, logs
 * time and marks the work done; the manager accepts it (the work order closes). A revoked link stops at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { call, launchBrowser, newPage, signIn, signUpOrg, startMailbox, startServer, type TestOrg, type TestServer } from './helpers';

let server: TestServer;
let browser: Browser;
let mailbox: Awaited<ReturnType<typeof startMailbox>>;
let org: TestOrg;
let token: string;
let orderId: number;
const TITLE = 'Rooftop chiller service';
const CONTRACTOR = 'contractor@coolair.example.com';

beforeAll(async () => {
  mailbox = await startMailbox();
  server = await startServer({ smtpUrl: mailbox.url });
  browser = await launchBrowser();
  org = await signUpOrg(server, 'Shares');
  const host = `${org.subdomain}.localhost`;
  const login = await call(server.port, host, 'POST', '/api/login', { email: org.email, password: org.password });
  token = login.body.accessToken as string;
  const added = await call(server.port, host, 'POST', '/api/work-orders/add-work-order', { title: TITLE, instructions: '<p>Check the refrigerant pressure</p>' }, token);
  if (added.status !== 201) throw new Error(JSON.stringify(added.body));
  orderId = added.body.workOrder.id as number;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mailbox?.close();
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000 });
const linkIn = (text: string) => /(http:\/\/\S+\/shared-work-order\?token=[A-Za-z0-9_%-]+)/.exec(text)![1];

async function openShare(page: Page, contractor: string) {
  await page.goto(`${org.url}/dashboard/shared-work-orders`);
  await page.locator('tr', { hasText: contractor }).first().click();
  // The drawer's root is a wrapper without a box of its own: its content shows it is open.
  await page.getByTestId('share-drawer-status').waitFor();
}

describe('shared work orders', () => {
  it('a manager shares a work order; the contractor works in it from the link; the manager accepts', async () => {
    const manager = await newPage(browser);
    const contractor = await newPage(browser, { width: 390, height: 844 });
    try {
      const page = manager.page;
      await signIn(page, org);
      await page.locator('tr', { hasText: TITLE }).first().click();
      await page.getByTestId('wo-share').click();
      await page.waitForURL(/\/dashboard\/shared-work-orders\?share=/);
      await poll(() => page.getByTestId('share-work-order').inputValue()).toContain(TITLE);
      await page.getByTestId('share-name').fill('Coolair Ltd');
      await page.getByTestId('share-email').fill(CONTRACTOR);
      await page.getByTestId('share-submit').click();
      await page.getByTestId('share-link').waitFor();
      await page.getByTestId('share-close').click();
      await page.locator('tr', { hasText: 'Coolair Ltd' }).first().waitFor();

      // The contractor: the e-mailed link, in a browser of their own (no session), at phone width.
      const mail = await mailbox.waitFor(CONTRACTOR);
      const link = linkIn(mail.text);
      const phone = contractor.page;
      await phone.goto(link);
      await poll(() => phone.getByTestId('contractor-title').innerText()).toBe(TITLE);
      await phone.getByText('Check the refrigerant pressure').waitFor();
      // Nothing wider than the phone.
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      await phone.getByTestId('contractor-comment').fill('On site: compressor noisy');
      await phone.getByTestId('contractor-send').click();
      await phone.getByText('On site: compressor noisy').waitFor();

      const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2266aa' } }).png().toBuffer();
      await phone.locator('input[type=file]').setInputFiles({ name: 'gauge.png', mimeType: 'image/png', buffer: photo });
      await phone.getByRole('link', { name: 'gauge.png' }).waitFor();

      await phone.getByTestId('contractor-rate').fill('40');
      await phone.getByTestId('contractor-add-time').click();
      await poll(() => phone.getByTestId('contractor-labor').count()).toBe(1);
      await poll(() => phone.getByTestId('contractor-total').innerText()).toContain('40');

      await phone.getByTestId('contractor-done').click();
      await poll(() => phone.getByTestId('contractor-state').textContent()).toBe('Done: waiting for review');

      // The manager sees it in the work order's notes as the contractor, and accepts it.
      await openShare(page, 'Coolair Ltd');
      await poll(() => page.getByTestId('share-drawer-status').textContent()).toBe('Done for Review');
      await page.getByTestId('share-message').filter({ hasText: 'On site: compressor noisy' }).waitFor();
      await page.getByTestId('share-accept').click();
      await poll(() => page.getByTestId('share-drawer-status').textContent()).toBe('Accepted');
      const order = await call(server.port, `${org.subdomain}.localhost`, 'GET', `/api/work-orders/get-work-order/${orderId}`, undefined, token);
      expect(order.body.workOrder.status).toBe('completed');
      const notes = await call(server.port, `${org.subdomain}.localhost`, 'GET', `/api/activities/work-order/${orderId}`, undefined, token);
      expect((notes.body.activities as { note: string | null; contractor: string | null }[]).find((a) => a.note === 'On site: compressor noisy')?.contractor).toBe('Coolair Ltd');
      await phone.reload();
      await poll(() => phone.getByTestId('contractor-state').textContent()).toBe('Accepted: thank you');
    } finally {
      await manager.context.close();
      await contractor.context.close();
    }
  });

  it('a revoked link stops working at once', async () => {
    const host = `${org.subdomain}.localhost`;
    const second = await call(server.port, host, 'POST', '/api/work-orders/add-work-order', { title: 'Lift inspection' }, token);
    const shared = await call(server.port, host, 'POST', '/api/shared-work-orders/create-share', { workOrderId: second.body.workOrder.id, contractorName: 'Lift Masters', email: 'ops@lift.example.com' }, token);
    expect(shared.status).toBe(201);
    const manager = await newPage(browser);
    const contractor = await newPage(browser, { width: 390, height: 844 });
    try {
      const phone = contractor.page;
      await phone.goto(shared.body.link as string);
      await poll(() => phone.getByTestId('contractor-title').innerText()).toBe('Lift inspection');
      const page = manager.page;
      await signIn(page, org);
      await openShare(page, 'Lift Masters');
      await page.getByTestId('share-revoke').click();
      await page.getByTestId('confirm-yes').click();
      await poll(() => page.getByTestId('share-drawer-status').textContent()).toBe('Revoked');
      await phone.reload();
      await phone.getByTestId('contractor-not-found').waitFor();
    } finally {
      await manager.context.close();
      await contractor.context.close();
    }
  });
});
