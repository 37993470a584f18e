/**
 * Shared work orders in the browser (issue 26, decision 040): a manager shares a work order from its drawer; the
 * contractor opens the e-mailed link in a browser of their own at phone width, fills the work order's procedure
 * (a checkbox, a number, a photo), comments, uploads a photo, logs time, deletes a wrong part line and marks the
 * work done; the manager sees the answers in the work order and accepts it (the work order closes). A revoked
 * link stops at once.
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
  const added = await call(
    server.port,
    host,
    'POST',
    '/api/work-orders/add-work-order',
    { title: TITLE, instructions: '<p>Check the refrigerant pressure</p>' },
    token,
  );
  if (added.status !== 201) throw new Error(JSON.stringify(added.body));
  orderId = added.body.workOrder.id as number;
  const procedure = await call(
    server.port,
    host,
    'POST',
    '/api/procedures/add-procedure',
    {
      name: 'Chiller check',
      steps: [
        { kind: 'checkbox', label: 'Isolate the unit', required: true },
        { kind: 'number', label: 'Suction pressure', unit: 'bar', min: 2, max: 5 },
        { kind: 'photo', label: 'Photo of the gauge' },
      ],
    },
    token,
  );
  if (procedure.status !== 201) throw new Error(JSON.stringify(procedure.body));
  const attached = await call(server.port, host, 'POST', `/api/work-orders/attach-procedure/${orderId}`, { procedureId: procedure.body.procedure.id }, token);
  if (attached.status >= 300) throw new Error(JSON.stringify(attached.body));
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

      // The procedure, filled with the controls of each step's kind.
      await poll(() => phone.getByTestId('contractor-procedure').innerText()).toContain('0 of 3 steps done');
      await phone.getByTestId('contractor-step-1-input').click();
      await poll(() => phone.getByTestId('contractor-step-1-state').textContent()).toBe('done');
      await phone.getByTestId('contractor-step-2-input').fill('4.2');
      await phone.getByTestId('contractor-step-2-input').press('Enter');
      await poll(() => phone.getByTestId('contractor-step-2-state').textContent()).toBe('done');
      const gauge = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#228844' } })
        .png()
        .toBuffer();
      await phone.getByTestId('contractor-step-3').locator('input[type=file]').setInputFiles({ name: 'gauge-step.png', mimeType: 'image/png', buffer: gauge });
      await poll(() => phone.getByTestId('contractor-procedure').innerText()).toContain('3 of 3 steps done');
      await phone.getByTestId('contractor-step-3').locator('img').waitFor();
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      await phone.getByTestId('contractor-comment').fill('On site: compressor noisy');
      await phone.getByTestId('contractor-send').click();
      await phone.getByText('On site: compressor noisy').waitFor();

      const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2266aa' } })
        .png()
        .toBuffer();
      await phone.getByTestId('contractor-thread').locator('input[type=file]').setInputFiles({ name: 'gauge.png', mimeType: 'image/png', buffer: photo });
      await phone.getByRole('link', { name: 'gauge.png' }).waitFor();

      await phone.getByTestId('contractor-rate').fill('40');
      await phone.getByTestId('contractor-add-time').click();
      await poll(() => phone.getByTestId('contractor-labor').count()).toBe(1);
      await poll(() => phone.getByTestId('contractor-total').innerText()).toContain('40');

      // A wrong part line: reported, then deleted by the contractor.
      await phone.getByTestId('contractor-part-name').fill('Wrong valve');
      await phone.getByTestId('contractor-part-price').fill('9');
      await phone.getByTestId('contractor-add-part').click();
      await poll(() => phone.getByTestId('contractor-part').count()).toBe(1);
      await phone.getByTestId('contractor-delete-part').click();
      await phone.getByTestId('confirm-yes').click();
      await poll(() => phone.getByTestId('contractor-part').count()).toBe(0);

      await phone.getByTestId('contractor-done').click();
      await poll(() => phone.getByTestId('contractor-state').textContent()).toBe('Done: waiting for review');

      // The manager sees the contractor's answers in the work order's Procedure tab.
      await page.goto(`${org.url}/dashboard/work-orders`);
      await page.locator('tr', { hasText: TITLE }).first().click();
      await poll(() => page.getByTestId('drawer-title').innerText()).toMatch(/^WO-\d{4}$/);
      await page.getByTestId('tab-procedure').click();
      await poll(() => page.getByTestId('procedure-progress').innerText()).toBe('3 of 3');
      expect(await page.getByTestId('procedure-step-1-input').isChecked()).toBe(true);
      expect(await page.getByTestId('procedure-step-2-input').inputValue()).toBe('4.2');

      // The manager sees it in the work order's notes as the contractor, and accepts it.
      await openShare(page, 'Coolair Ltd');
      await poll(() => page.getByTestId('share-drawer-status').textContent()).toBe('Done for Review');
      await page.getByTestId('share-message').filter({ hasText: 'On site: compressor noisy' }).waitFor();
      await page.getByTestId('share-accept').click();
      await poll(() => page.getByTestId('share-drawer-status').textContent()).toBe('Accepted');
      const order = await call(server.port, `${org.subdomain}.localhost`, 'GET', `/api/work-orders/get-work-order/${orderId}`, undefined, token);
      expect(order.body.workOrder.status).toBe('completed');
      const notes = await call(server.port, `${org.subdomain}.localhost`, 'GET', `/api/activities/work-order/${orderId}`, undefined, token);
      expect(
        (notes.body.activities as { note: string | null; contractor: string | null }[]).find((a) => a.note === 'On site: compressor noisy')?.contractor,
      ).toBe('Coolair Ltd');
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
    const shared = await call(
      server.port,
      host,
      'POST',
      '/api/shared-work-orders/create-share',
      { workOrderId: second.body.workOrder.id, contractorName: 'Lift Masters', email: 'ops@lift.example.com' },
      token,
    );
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
