/**
 * API keys and webhooks in the browser (decision 043): an admin creates an API key and the test lists work orders
 * with it (as curl would: `curl -H "Authorization: Bearer cmms_live_…" http://<org>.localhost:<port>/api/work-orders/get-work-orders`);
 * the admin registers a webhook to a receiver started here, a work order is created, the delivery arrives signed
 * (verified with the standardwebhooks library); the receiver answers 500, the page shows it, Redeliver succeeds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { call, launchBrowser, newPage, signIn, signUpOrg, startServer, type TestOrg, type TestServer } from './helpers';

let server: TestServer;
let browser: Browser;
let org: TestOrg;
let receiver: Server;
let receiverUrl: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const answers: number[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = answers.shift() ?? 200;
      res.end(`answered ${res.statusCode}`);
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cmms-hook`;
  // The receiver is on 127.0.0.1; the automatic retry is an hour away, so the journey's Redeliver is what succeeds.
  server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', WEBHOOK_RETRY_BASE_SECONDS: '3600' } });
  org = await signUpOrg(server, 'Integrations');
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((r) => receiver?.close(r));
});

describe('API keys and webhooks', () => {
  it('an admin creates a key that lists work orders, and a webhook whose failed delivery is redelivered', async () => {
    const host = `${org.subdomain}.localhost`;
    const token = (await call(server.port, host, 'POST', '/api/login', { email: org.email, password: org.password })).body.accessToken as string;
    await call(server.port, host, 'POST', '/api/work-orders/add-work-order', { title: 'Before the key', priority: 'medium', status: 'assigned' }, token);

    const { context, page } = await newPage(browser);
    try {
      await signIn(page, org);
      await page.goto(`${org.url}/settings/api-keys`);
      await page.getByText('No API keys yet').waitFor();
      await page.getByTestId('api-key-add').click();
      await page.getByTestId('api-key-name').fill('BI export');
      await page.getByTestId('api-key-create').click();
      const key = (await page.getByTestId('api-key-value').innerText()).trim();
      expect(key).toMatch(/^cmms_live_/);
      await page.getByTestId('api-key-done').click();
      await expect.poll(() => page.getByTestId('api-keys-table').innerText()).toContain('BI export');
      // Shown once: the list holds its first characters only.
      expect(await page.getByTestId('api-keys-table').innerText()).not.toContain(key);

      // What curl does with the key.
      // (Node's fetch may not set a Host header, and *.localhost is not resolved everywhere: the request is sent to
      // 127.0.0.1 with the organisation's host, as curl does for http://<org>.localhost.)
      const res = await call(server.port, host, 'GET', '/api/work-orders/get-work-orders', undefined, key);
      expect(res.status).toBe(200);
      expect((res.body as { workOrders: { title: string }[] }).workOrders.map((w) => w.title)).toContain('Before the key');
      // A read-only key writes nothing.
      expect((await call(server.port, host, 'POST', '/api/work-orders/add-work-order', { title: 'No', priority: 'medium' }, key)).status).toBe(403);
      await page.reload();
      await expect.poll(() => page.getByTestId('api-keys-table').innerText()).not.toContain('Never');

      // A webhook to the local receiver.
      await page.goto(`${org.url}/settings/webhooks`);
      await page.getByText('No endpoints yet').waitFor();
      await page.getByTestId('webhook-add').click();
      await page.getByTestId('webhook-url').fill(receiverUrl);
      await page.getByTestId('webhook-save').click();
      // The secret is shown once, with a warning and a copy button; the list then holds its first characters only.
      const secret = (await page.getByTestId('webhook-secret').innerText()).trim();
      expect(secret).toMatch(/^whsec_/);
      await page.getByTestId('webhook-secret-warning').waitFor();
      await page.getByRole('button', { name: 'Copy' }).waitFor();
      await page.getByTestId('webhook-secret-done').click();
      await expect.poll(() => page.getByTestId('webhooks-table').innerText()).toContain(receiverUrl);
      expect(await page.getByTestId('webhooks-table').innerText()).not.toContain(secret);
      expect(await page.getByTestId('webhook-secret-hint').innerText()).toBe(`${secret.slice(0, 10)}…`);

      answers.push(500);
      await call(server.port, host, 'POST', '/api/work-orders/add-work-order', { title: 'Pump check', priority: 'high', status: 'assigned' }, token);
      await expect.poll(() => received.length, { timeout: 30_000 }).toBe(1);
      const first = received[0];
      expect(new Webhook(secret).verify(first.body, first.headers as Record<string, string>)).toMatchObject({
        type: 'work-order.created',
        data: { title: 'Pump check' },
      });

      // The page follows the delivery: refused with 500, waiting for its retry.
      await expect.poll(() => page.getByTestId('delivery-status').first().textContent(), { timeout: 20_000 }).toBe('Retrying');
      expect(await page.getByTestId('delivery-code').first().innerText()).toBe('500');
      await page.getByRole('button', { name: 'Redeliver' }).first().click();
      await expect.poll(() => received.length, { timeout: 30_000 }).toBe(2);
      const second = received[1];
      expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
      expect(new Webhook(secret).verify(second.body, second.headers as Record<string, string>)).toMatchObject({ data: { title: 'Pump check' } });
      await expect.poll(() => page.getByTestId('delivery-status').first().textContent(), { timeout: 20_000 }).toBe('Succeeded');
      expect(await page.getByTestId('delivery-code').first().innerText()).toBe('200');
      // the deliveries are paged (footer with the count) and a row opens its detail with the receiver's answer
      expect(await page.getByTestId('table-webhook-deliveries').getByTestId('total-records').innerText()).toContain('1');
      await page.getByTestId('table-webhook-deliveries').getByTestId('table-row').first().click();
      await expect.poll(() => page.getByTestId('delivery-response-body').innerText()).toBe('answered 200');
      expect(await page.getByTestId('delivery-detail').innerText()).toContain(second.headers['webhook-id'] as string);
      await page.keyboard.press('Escape');
      await page.getByTestId('delivery-detail').waitFor({ state: 'detached' });

      // Rotating answers a new secret, shown once as well.
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByTestId('confirm-yes').click();
      const rotated = (await page.getByTestId('webhook-secret').innerText()).trim();
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      await page.getByTestId('webhook-secret-done').click();
      await expect.poll(() => page.getByTestId('webhook-secret-hint').innerText()).toBe(`${rotated.slice(0, 10)}…`);
    } finally {
      await context.close();
    }
  });
});
