/**
 * The technician's app offline (issue 27, decision 041), at 390x844 on the demo organisation: Marcus (a worker)
 * signs in and lands on My work; the browser goes offline; he starts a labour timer, closes the tab, reopens
 * the app (still offline: the service worker serves it, IndexedDB keeps the running timer), stops the timer
 * with its reason, fills the procedure (pass/fail, a number, a photo), takes a photo into the work order itself,
 * adds a part and a note, starts the work,
 * closes and reopens the page again: nothing lost. Back online, everything reaches the server exactly once, and
 * the manager sees the work order's photo in its drawer (Photos tab, opened full size from the keyboard).
 * A second journey: the manager cancels an order while the technician, offline, starts it; back online the
 * server's version check refuses the change and the technician is told what happened and what was kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { call, closeJourney, DEMO, newPage, openDemoJourney, signIn, signInWorker, type Api, type TestServer } from './helpers';

let server: TestServer;
let browser: Browser;
let url: string;
let api: Api;
let marcusId: number;
const TECH = DEMO.tech;

async function addOrder(title: string, procedureId?: number) {
  const dueDate = new Date(Date.now() + 3600_000).toISOString();
  const { workOrder } = await api('POST', '/api/work-orders/add-work-order', { title, assignees: [marcusId], dueDate, priority: 'high' });
  if (procedureId) await api('POST', `/api/work-orders/attach-procedure/${workOrder.id}`, { procedureId });
  return workOrder as { id: number; workOrderId: string };
}

beforeAll(async () => {
  const demo = await openDemoJourney();
  ({ server, browser, url, api } = demo);
  marcusId = demo.userId(TECH.email);
});
afterAll(() => closeJourney({ server, browser }));

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000 });
const indicator = (page: Page) => page.getByTestId('sync-indicator').first();

/** Marcus opens the order on his phone, which then goes offline. */
async function openOffline(context: BrowserContext, page: Page, orderId: number) {
  await signInWorker(page, url, TECH);
  await page.getByTestId(`my-work-card-${orderId}`).click();
  await page.getByTestId('work-order-screen').waitFor();
  await context.setOffline(true);
  await poll(() => indicator(page).textContent()).toBe('Offline');
}

/** A new tab of the same browser (same cookies, IndexedDB, service worker; no sessionStorage token). */
async function reopen(context: BrowserContext, workOrderId: number) {
  const page = await context.newPage();
  await page.goto(`${url}/dashboard/my-work?open=${workOrderId}`);
  await page.getByTestId('work-order-screen').waitFor();
  return page;
}

async function pickReason(page: Page, name: string) {
  await page.getByTestId('timer-reason').click();
  await page.getByRole('option', { name }).click();
}

describe('the technician app', () => {
  it('works offline, keeps everything across closed tabs and syncs it exactly once', async () => {
    const { procedure } = await api('POST', '/api/procedures/add-procedure', {
      name: 'Pump seal check',
      steps: [
        { kind: 'pass-fail', label: 'Seal leak test', required: true },
        { kind: 'number', label: 'Discharge pressure', unit: 'bar', min: 1, max: 5 },
        { kind: 'photo', label: 'Photo of the seal' },
      ],
    });
    const order = await addOrder('Replace the seal of pump P-7', procedure.id);
    const issued = (await api('GET', `/api/work-orders/get-work-order-procedure/${order.id}`)).procedure as {
      steps: { id: number; position: number; kind: string }[];
    };
    const pos = (kind: string) => issued.steps.find((s) => s.kind === kind)!.position;
    const reasons = (await api('GET', '/api/time-tracking-reasons/get-time-tracking-reasons?pageSize=100')).timeTrackingReasons as {
      id: number;
      name: string;
    }[];
    const reason = reasons[0];
    const parts = (await api('GET', '/api/parts/get-parts-options?pageSize=100')) as { value: number; label: string }[];
    const part = parts[0];

    // The server sends the worker and the manifest to be revalidated every time.
    const sw = await call(server.port, DEMO.host, 'GET', '/sw.js');
    expect(sw.status).toBe(200);
    expect(sw.headers['cache-control']).toBe('no-cache');
    const manifest = await call(server.port, DEMO.host, 'GET', '/manifest.webmanifest');
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(String(manifest.headers['content-type'])).toContain('manifest+json');
    expect(manifest.body).toMatchObject({ start_url: '/dashboard/my-work', display: 'standalone' });

    const { context, page: first } = await newPage(browser, { width: 390, height: 844, serviceWorkers: 'allow' });
    try {
      await signInWorker(first, url, TECH);
      const card = first.getByTestId(`my-work-card-${order.id}`);
      await card.waitFor();
      await expect.poll(() => card.innerText()).toContain('3 steps');
      await poll(() => indicator(first).textContent()).toBe('All saved');
      // The app shell is precached: the worker is active.
      expect(await first.evaluate(async () => !!(await navigator.serviceWorker.ready).active)).toBe(true);
      expect(await first.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      await card.click();
      await first.getByTestId('work-order-screen').waitFor();
      await context.setOffline(true);
      await poll(() => indicator(first).textContent()).toBe('Offline');

      // A running timer survives a closed tab.
      await pickReason(first, reason.name);
      await first.getByTestId('timer-start').click();
      await first.getByTestId('timer-stop').waitFor();
      await first.close();

      let page = await reopen(context, order.id);
      await page.getByTestId('timer-stop').waitFor();
      await poll(() => page.getByTestId('timer-elapsed').innerText()).toMatch(/^0:00:0[1-9]|^0:00:[1-5]\d/);
      await page.getByTestId('timer-stop').click();
      await page.getByTestId('labor-waiting').waitFor();

      await page.getByTestId(`step-${pos('pass-fail')}-pass`).click();
      await page.getByTestId(`step-${pos('number')}`).fill('3.2');
      await page.getByTestId(`step-${pos('number')}-save`).click();
      const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#3366cc' } })
        .jpeg()
        .toBuffer();
      await page.getByTestId(`step-${pos('photo')}-input`).setInputFiles({ name: 'seal.jpg', mimeType: 'image/jpeg', buffer: photo });
      await page.getByTestId('photo-pending').waitFor();
      // A photo of the work order itself (outside the procedure), from the camera input, queued like the rest.
      const woPhoto = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#cc6633' } })
        .jpeg()
        .toBuffer();
      await page.getByTestId('wo-photo-input').setInputFiles({ name: 'pump.jpg', mimeType: 'image/jpeg', buffer: woPhoto });
      await page.getByTestId('wo-photo-pending').waitFor();
      await page.getByTestId('parts-search').fill(part.label.slice(0, 4));
      await page.getByTestId('parts-result').filter({ hasText: part.label }).first().click();
      await page.getByTestId('note-input').fill('Seal worn on the drive side, replaced.');
      await page.getByTestId('note-add').click();
      await page.getByTestId('wo-start').click();
      // labour, pass/fail, number, step photo, work order photo, part, note, status
      await poll(() => indicator(page).textContent()).toBe('Offline · 8 waiting');
      expect(await page.getByTestId('wo-status').textContent()).toBe('In Progress');

      // Closed and reopened while still offline: nothing lost.
      await page.close();
      page = await reopen(context, order.id);
      await poll(() => indicator(page).textContent()).toBe('Offline · 8 waiting');
      await page.getByTestId('photo-pending').waitFor();
      await page.getByTestId('wo-photo-pending').waitFor();
      await page.getByTestId('labor-waiting').waitFor();
      await page.getByText('Seal worn on the drive side, replaced.', { exact: false }).waitFor();
      expect(await page.getByTestId(`step-${pos('number')}`).inputValue()).toBe('3.2');
      // nothing reached the server
      expect((await api('GET', `/api/work-orders/get-labors/${order.id}`)).labors).toHaveLength(0);

      // Back online: sent in order, each once.
      await context.setOffline(false);
      await poll(() => indicator(page).textContent()).toBe('All saved');
      await page.reload();
      await poll(() => indicator(page).textContent()).toBe('All saved');
      // The device copy now holds the photo as the server keeps it.
      await page.getByTestId('wo-photo-saved').waitFor();
      expect(await page.getByTestId('wo-photo-pending').count()).toBe(0);

      const labors = (await api('GET', `/api/work-orders/get-labors/${order.id}`)).labors as { reasonId: number; workerId: number }[];
      expect(labors).toEqual([expect.objectContaining({ reasonId: reason.id, workerId: marcusId })]);
      const used = (await api('GET', `/api/work-orders/get-parts/${order.id}`)).workOrderParts as { partId: number; quantity: number }[];
      expect(used).toEqual([expect.objectContaining({ partId: part.value, quantity: 1 })]);
      const after = (await api('GET', `/api/work-orders/get-work-order-procedure/${order.id}`)).procedure as { steps: { kind: string; value: unknown }[] };
      expect(after.steps.map((s) => (s.kind === 'photo' ? typeof s.value : s.value))).toEqual(['pass', 3.2, 'string']);
      const { activities } = await api('GET', `/api/activities/work-order/${order.id}`);
      const notes = (activities as { action: string; note?: string; text?: string }[]).filter((a) => a.action === 'note');
      expect(notes).toHaveLength(1);
      const { photos } = (await api('GET', `/api/my-work/list-photos/${order.id}`)) as { photos: { userId: number; url: string }[] };
      expect(photos).toEqual([expect.objectContaining({ userId: marcusId, url: expect.stringMatching(/^\/uploads\/org-\d+\/.+\.webp\?exp=/) })]);
      expect((activities as { action: string }[]).filter((a) => a.action === 'attachment')).toHaveLength(1);
      expect((await api('GET', `/api/work-orders/get-work-order/${order.id}`)).workOrder.status).toBe('in-progress');

      // A change on the server that keeps the number of orders (the manager renames it) reaches the device copy
      // at the next refresh: a refresh skips only the tables whose copy is already the server's.
      await api('PUT', `/api/work-orders/update-work-order/${order.id}`, {
        title: 'Replace the seal of pump P-7 (drive side)',
        assignees: [marcusId],
        priority: 'high',
      });
      await page.reload();
      await page.getByText('Replace the seal of pump P-7 (drive side)').first().waitFor();

      // The manager sees the technician's photo in the work order drawer's Photos tab, and opens it full size.
      const manager = await newPage(browser);
      try {
        await signIn(manager.page, { url, ...DEMO.admin });
        await manager.page.goto(`${url}/dashboard/work-orders?open=${order.id}`);
        await manager.page.getByTestId('tab-photos').click();
        const thumb = manager.page.getByTestId('wo-photo-thumb');
        await poll(() => thumb.count()).toBe(1);
        await thumb.focus();
        await manager.page.keyboard.press('Enter');
        const full = manager.page.getByTestId('wo-photo-full');
        await poll(() => full.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(400);
      } finally {
        await manager.context.close();
      }
    } finally {
      await context.close();
    }
  });

  it('a conflict: the order was changed meanwhile; the server decides and the technician sees what was kept', async () => {
    const order = await addOrder('Inspect the chiller compressor');
    const { context, page } = await newPage(browser, { width: 390, height: 844, serviceWorkers: 'allow' });
    try {
      await openOffline(context, page, order.id);
      await page.getByTestId('wo-start').click();
      await poll(() => indicator(page).textContent()).toBe('Offline · 1 waiting');

      // Meanwhile the manager cancels it.
      await api('PUT', `/api/work-orders/update-status/${order.id}`, { status: 'cancelled' });

      await context.setOffline(false);
      const notice = page.getByTestId('sync-notice');
      await notice.waitFor();
      expect(await notice.innerText()).toContain('someone changed this work order meanwhile');
      expect(await notice.innerText()).toContain('Kept: the work order as it is on the server now (Cancelled)');
      expect(await notice.innerText()).toContain(`${order.workOrderId} · Inspect the chiller compressor`);
      await poll(() => indicator(page).textContent()).toBe('All saved');
      expect((await api('GET', `/api/work-orders/get-work-order/${order.id}`)).workOrder.status).toBe('cancelled');
      await page.getByTestId('sync-notice-dismiss').click();
      await poll(() => notice.count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('a stale answer: answered offline while a manager answered online; the server keeps theirs and the notice names the order', async () => {
    const { procedure } = await api('POST', '/api/procedures/add-procedure', {
      name: 'Gauge round',
      steps: [{ kind: 'number', label: 'Discharge pressure', unit: 'bar' }],
    });
    const order = await addOrder('Read the gauges of pump P-9', procedure.id);
    const stepId = (await api('GET', `/api/work-orders/get-work-order-procedure/${order.id}`)).procedure.steps[0].id as number;
    const { context, page } = await newPage(browser, { width: 390, height: 844, serviceWorkers: 'allow' });
    try {
      await openOffline(context, page, order.id);
      await page.getByTestId('step-1').fill('3.2');
      await page.getByTestId('step-1-save').click();
      await poll(() => indicator(page).textContent()).toBe('Offline · 1 waiting');

      // Meanwhile the manager answers the same step online (from the same unanswered copy).
      await api('PUT', `/api/work-orders/answer-procedure-step/${order.id}`, { stepId, value: 4.4, answeredAt: null });

      await context.setOffline(false);
      const notice = page.getByTestId('sync-notice');
      await notice.waitFor();
      const text = await notice.innerText();
      expect(text).toContain('someone answered this step meanwhile');
      expect(text).toContain(`${order.workOrderId} · Read the gauges of pump P-9`);
      expect(text).toContain('Kept: the answer on the server now, "Discharge pressure": 4.4 bar.');
      await poll(() => indicator(page).textContent()).toBe('All saved');
      await poll(() => page.getByTestId('step-1').inputValue()).toBe('4.4');
      expect((await api('GET', `/api/work-orders/get-work-order-procedure/${order.id}`)).procedure.steps[0].value).toBe(4.4);
    } finally {
      await context.close();
    }
  });

  it('completing with the timer running asks: stop and log the time, or discard it', async () => {
    const reasons = (await api('GET', '/api/time-tracking-reasons/get-time-tracking-reasons?pageSize=100')).timeTrackingReasons as {
      id: number;
      name: string;
    }[];
    const logged = await addOrder('Grease the conveyor bearings');
    const discarded = await addOrder('Tighten the belt of fan F-2');
    const { page, context } = await newPage(browser, { width: 390, height: 844, serviceWorkers: 'allow' });
    try {
      await signInWorker(page, url, TECH);
      for (const [order, choice] of [
        [logged, 'log'],
        [discarded, 'discard'],
      ] as const) {
        await page.goto(`${url}/dashboard/my-work?open=${order.id}`);
        await page.getByTestId('work-order-screen').waitFor();
        await page.getByTestId('timer-start').click();
        await page.getByTestId('timer-stop').waitFor();
        await page.getByTestId('wo-complete').click();
        await page.getByTestId('complete-timer-log').waitFor();
        if (choice === 'log') {
          // No reason yet: logging waits for one.
          expect(await page.getByTestId('complete-timer-log').isDisabled()).toBe(true);
          await page.getByTestId('complete-timer-reason').click();
          await page.getByRole('option', { name: reasons[0].name }).click();
        }
        await page.getByTestId(`complete-timer-${choice}`).click();
        await poll(async () => (await api('GET', `/api/work-orders/get-work-order/${order.id}`)).workOrder.status).toBe('completed');
      }
      expect((await api('GET', `/api/work-orders/get-labors/${logged.id}`)).labors).toEqual([
        expect.objectContaining({ reasonId: reasons[0].id, workerId: marcusId }),
      ]);
      expect((await api('GET', `/api/work-orders/get-labors/${discarded.id}`)).labors).toEqual([]);
      expect(
        await page.evaluate(
          () =>
            new Promise((done) => {
              const r = indexedDB.open('cmms-my-work');
              r.onsuccess = () => {
                const q = r.result.transaction('timers').objectStore('timers').count();
                q.onsuccess = () => done(q.result);
              };
            }),
        ),
      ).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('opened cold, fetches its page with the entry and asks its first page of work once, beside the app (issue 46)', async () => {
    const order = await addOrder('Check the belt of conveyor C-2');
    // signed in once (the refresh cookie); the cold tab then has no token, no HTTP cache and no service worker
    const first = await newPage(browser, { width: 390, height: 844 });
    await signInWorker(first.page, url, TECH);
    const cookies = await first.context.cookies();
    await first.context.close();
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    try {
      await context.addCookies(cookies);
      const asked: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/my-work/list-my-work')) asked.push(r.url());
      });
      const html = await (await page.goto(`${url}/dashboard/my-work`))!.text();
      // the page's own chunk comes with the entry, not after the shell has run
      expect(html).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/my-work-page-[\w-]+\.js">/);
      await page.getByTestId(`my-work-card-${order.id}`).waitFor();
      await page.waitForLoadState('networkidle');
      // the entry's early read served the sync: one read, not the entry's and then the sync's own
      expect(asked).toHaveLength(1);
    } finally {
      await context.close();
    }
  });

  it('a first start shows the cards while the parts catalogue is still on its way, and keeps the parts when they come (issue 46)', async () => {
    const order = await addOrder('Tighten the flange of pump P-9');
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    try {
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      let partsAsked = 0;
      await context.route('**/api/my-work/list-my-parts**', async (route) => {
        partsAsked += 1;
        await gate;
        await route.continue();
      });
      await signInWorker(page, url, TECH);
      await page.getByTestId(`my-work-card-${order.id}`).waitFor();
      expect(partsAsked).toBeGreaterThan(0);
      const keptParts = () =>
        page.evaluate(
          () =>
            new Promise<number>((done) => {
              const r = indexedDB.open('cmms-my-work');
              r.onsuccess = () => {
                const q = r.result.transaction('parts').objectStore('parts').count();
                q.onsuccess = () => done(q.result);
              };
            }),
        );
      expect(await keptParts()).toBe(0);
      open();
      await poll(keptParts).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });

  it("reopened, shows the device copy before the session refresh answers, only when the copy is the last session user's (issue 46)", async () => {
    const order = await addOrder('Grease the bearings of fan F-4');
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    try {
      await signInWorker(page, url, TECH);
      await page.getByTestId(`my-work-card-${order.id}`).waitFor();
      // new tabs of this browser (the device copy, the refresh cookie, no token): each refresh waits for the gate
      let open!: () => void;
      let gate = new Promise<void>((resolve) => (open = resolve));
      let refreshes = 0;
      await context.route('**/api/refresh', async (route) => {
        await gate;
        refreshes += 1;
        await route.continue();
      });
      const tab = await context.newPage();
      await tab.goto(`${url}/dashboard/my-work`);
      await tab.getByTestId(`my-work-card-${order.id}`).waitFor();
      expect(refreshes).toBe(0);
      open();
      await tab.getByTestId('my-work-sign-out').waitFor();
      // the browser's last session was somebody else's (a shared phone): no card before the server says who this is
      gate = new Promise<void>((resolve) => (open = resolve));
      await tab.evaluate(() => window.localStorage.setItem('cmms.session-user', '999999'));
      const shared = await context.newPage();
      await shared.goto(`${url}/dashboard/my-work`);
      await shared.locator('.mantine-Loader-root').first().waitFor();
      await shared.waitForTimeout(1_000);
      expect(await shared.locator('[data-testid^="my-work-card-"]').count()).toBe(0);
      const before = refreshes;
      open();
      await shared.getByTestId(`my-work-card-${order.id}`).waitFor();
      expect(refreshes).toBeGreaterThan(before);
    } finally {
      await context.close();
    }
  });
});
