/**
 * Web Push to the technician's app (issue 43, decision 075), on the demo organisation at phone width: Marcus (a
 * worker) signs in, turns on "Notifications on this device" (Chromium with the notifications permission granted),
 * and the app's service worker subscribes and sends the subscription to the server. A manager assigns him a work
 * order; the push reaches the push service run by this test, which decrypts it with the device's keys; the
 * notification's URL opens the work order in the app.
 * The sandbox has no route to a real push service (FCM): when the browser's own pushManager.subscribe fails, the
 * page's subscribe answers with a subscription to this test's push service instead (its keys made here, as a
 * browser makes them), so the app's own code still carries it to the server; when the real one works, the test's
 * endpoint is registered through the API as a second device.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { call, DEMO, openDemoJourney, signInWorker, type Api, type TestServer } from './helpers';
import { browserSubscription, decryptPush, startPushService } from '../src/features/push/test-push-service';

let server: TestServer;
let browser: Browser;
let push: Awaited<ReturnType<typeof startPushService>>;
let url: string;
let api: Api;
let marcusId: number;
const TECH = DEMO.tech;

beforeAll(async () => {
  push = await startPushService();
  // The test's push service listens on 127.0.0.1: outbound private addresses allowed, as for webhook receivers.
  const demo = await openDemoJourney({ env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  ({ server, browser, url, api } = demo);
  marcusId = demo.userId(TECH.email);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await push?.close();
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 30_000 });

describe('push to the technician app', () => {
  it('the subscribed app gets the push of an assignment, and its URL opens the work order', async () => {
    const device = browserSubscription(`${push.base}/marcus-phone`);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'allow' });
    context.setDefaultTimeout(20_000);
    await context.grantPermissions(['notifications'], { origin: url });
    await context.addInitScript((fallback) => {
      const stand = () =>
        ({
          endpoint: fallback.endpoint,
          expirationTime: null,
          toJSON: () => fallback,
          getKey: () => null,
          unsubscribe: async () => (localStorage.removeItem('test-push-fallback'), true),
        }) as unknown as PushSubscription;
      const realSubscribe = PushManager.prototype.subscribe;
      const realGet = PushManager.prototype.getSubscription;
      PushManager.prototype.subscribe = async function (options) {
        try {
          return await realSubscribe.call(this, options);
        } catch {
          localStorage.setItem('test-push-fallback', '1');
          return stand();
        }
      };
      PushManager.prototype.getSubscription = async function () {
        return (await realGet.call(this)) ?? (localStorage.getItem('test-push-fallback') ? stand() : null);
      };
    }, device.json);
    const page = await context.newPage();
    await signInWorker(page, url, TECH);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));

    await page.getByTestId('push-switch').click({ force: true });
    await poll(() => page.getByTestId('push-switch').isChecked()).toBe(true);
    const tech = (await call(server.port, DEMO.host, 'POST', '/api/login', TECH)).body.accessToken as string;
    const mine = async () => (await api('GET', '/api/push/list-subscriptions', undefined, tech)).subscriptions as { endpoint: string; userAgent: string }[];
    await poll(async () => (await mine()).length).toBe(1);
    const [subscribed] = await mine();
    expect(subscribed.userAgent).toContain('Chrome');
    // The real push service answered: this test's service is registered as a second device, through the API.
    if (subscribed.endpoint !== device.json.endpoint) await api('POST', '/api/push/add-subscription', device.json, tech);

    const { workOrder } = await api('POST', '/api/work-orders/add-work-order', { title: 'Conveyor belt slips', priority: 'high', assignees: [marcusId] });
    await poll(() => push.received.filter((r) => r.path === '/marcus-phone').length).toBe(1);
    const message = decryptPush(push.received.find((r) => r.path === '/marcus-phone')!.body, device.ecdh, device.auth);
    expect(message).toMatchObject({
      title: `Work order WO-${workOrder.id} assigned to you`,
      body: 'Conveyor belt slips',
      url: `/dashboard/my-work?open=${workOrder.id}`,
    });

    // What a click on the notification opens (the service worker navigates the app's window there).
    await page.goto(`${url}${message.url}`);
    await page.getByTestId('work-order-screen').waitFor();
    await expect.poll(() => page.getByTestId('work-order-screen').textContent()).toContain('Conveyor belt slips');

    // Back on My work the switch is on; turned off, this device leaves the server.
    await page.goto(`${url}/dashboard/my-work`);
    await poll(() => page.getByTestId('push-switch').isChecked()).toBe(true);
    await page.getByTestId('push-switch').click({ force: true });
    await poll(() => page.getByTestId('push-switch').isChecked()).toBe(false);
    await poll(async () => (await mine()).filter((s) => s.endpoint === subscribed.endpoint).length).toBe(0);
    await context.close();
  });
});
