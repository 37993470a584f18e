/**
 * The request portal end to end (issue 25): a manager prints an asset's label (the PDF's QR code is read back
 * from its image with zxing), someone without an account opens the code's URL at phone width (390 px), sends a
 * request with a photo and follows it by the private status link; the manager accepts it into a work order
 * from the Requests inbox; the order is completed and the requester's page says Done. The portal page's
 * JavaScript is measured: under 80 KB gzipped. Labels are printed from the Assets list too (rows chosen, a
 * label size, the downloaded PDF's codes read back).
 */
import { readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { call, launchBrowser, newPage, ROOT, signIn, signUpOrg, startServer, type TestOrg, type TestServer } from './helpers';
import { qrTextsOfPdf } from '../src/features/request-portal/test-qr';
import { PORTAL_SETTINGS } from '../src/features/request-portal/test-fixtures';

let server: TestServer;
let browser: Browser;
let org: TestOrg;
let host: string;
let token: string;
let assetId: number;
let categoryId: number;
let api: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

/** A POST whose answer is binary (the label PDF). */
function postForBytes(path: string, body: unknown): Promise<{ status: number; type: string; bytes: Buffer }> {
  return new Promise((res, rej) => {
    const payload = JSON.stringify(body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path,
        headers: {
          host: `${host}:${server.port}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          authorization: `Bearer ${token}`,
        },
      },
      (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => res({ status: r.statusCode ?? 0, type: String(r.headers['content-type']), bytes: Buffer.concat(chunks) }));
      },
    );
    req.on('error', rej);
    req.end(payload);
  });
}

/** The gzipped size of the JavaScript the built portal page loads (its entry and the chunks it preloads). */
function portalJsGzipBytes() {
  const web = join(ROOT, 'dist/web');
  const html = readFileSync(join(web, 'portal.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(web, file), 'utf8');
    // Static imports only: what the page cannot start without.
    for (const m of text.matchAll(/(?:^|[;}\s])import\s*(?:[\w${},\s*]+from\s*)?"(\.\/[^"]+\.js)"/g)) walk(`/assets/${m[1].slice(2)}`);
  };
  files.forEach(walk);
  return { files: [...seen], bytes: [...seen].reduce((n, f) => n + statSync(join(web, `${f}.gz`)).size, 0) };
}

beforeAll(async () => {
  server = await startServer();
  org = await signUpOrg(server, 'Portal');
  host = `${org.subdomain}.localhost`;
  token = (await call(server.port, host, 'POST', '/api/login', { email: org.email, password: org.password })).body.accessToken as string;
  api = async (method, path, body) => {
    const res = await call(server.port, host, method, path, body, token);
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res as { status: number; body: any };
  };
  categoryId = (await api('POST', '/api/asset-categories/add-asset-category', { code: 'PMP', name: 'Pumps' })).body.assetCategory.id;
  assetId = (await api('POST', '/api/assets/add-asset', { name: 'Boiler Pump P-7', date: '2024-01-01', assetCategoryId: categoryId, assetCode: 'P-7' })).body
    .asset.id;
  await api('PUT', '/api/portal/settings', PORTAL_SETTINGS);
  browser = await launchBrowser();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('request portal', () => {
  it('the public page loads less than 80 KB of gzipped JavaScript', () => {
    const { files, bytes } = portalJsGzipBytes();
    console.log(`[request-portal] portal page JavaScript: ${files.length} files, ${(bytes / 1024).toFixed(1)} KB gzipped`);
    expect(bytes).toBeLessThan(80 * 1024);
  });

  it('label -> scan signed out -> request with a photo at 390 px -> status link -> accepted into a work order -> done', async () => {
    // The label PDF: its QR code reads back as the organisation's /r/<token> URL.
    const pdf = await postForBytes('/api/portal/asset-labels', { assetIds: [assetId], layout: 'sheet-24' });
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    const [url] = await qrTextsOfPdf(pdf.bytes);
    expect(url).toMatch(new RegExp(`^http://${host}:${server.port}/r/[A-Za-z0-9_-]{22}$`));

    // Someone without an account scans it with a phone.
    const requester = await newPage(browser, { width: 390, height: 844 });
    const manager = await newPage(browser);
    try {
      const page = requester.page;
      await page.goto(url);
      await page.getByTestId('portal-form').waitFor();
      await expect.poll(() => page.getByTestId('portal-target').innerText()).toContain('Boiler Pump P-7');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.getByTestId('portal-send').click();
      await page.getByText('This field is required').first().waitFor();
      await page.getByTestId('portal-description').fill('Water leaking from the pump seal');
      await page.getByTestId('portal-urgency-high').check();
      await page.getByTestId('portal-email').fill('operator@example.com');
      const { default: sharp } = await import('sharp');
      const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 30, g: 90, b: 160 } } })
        .jpeg()
        .toBuffer();
      // The gallery is offered, not only the camera.
      expect(await page.getByTestId('portal-photos').getAttribute('capture')).toBeNull();
      await page.getByTestId('portal-photos').setInputFiles({ name: 'leak.jpg', mimeType: 'image/jpeg', buffer: photo });
      await page.getByTestId('portal-send').click();
      await page.getByTestId('portal-sent').waitFor();
      await page.getByTestId('portal-status-link').click();
      await expect.poll(() => page.getByTestId('portal-status').innerText()).toBe('Received');
      expect(await page.locator('.photos img').count()).toBe(1);
      const statusUrl = page.url();
      // A comment of the requester: its time in the app's one format, in the reader's language (issue 46).
      await page.getByTestId('portal-comment').fill('It is dripping faster now');
      await page.getByTestId('portal-comment-send').click();
      await expect.poll(() => page.getByTestId('portal-reply-date').first().innerText()).toMatch(/^\d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} (AM|PM)$/);
      await page.locator('button[lang="ar"]').click();
      await expect.poll(() => page.getByTestId('portal-reply-date').first().innerText()).toMatch(/^[0-9٠-٩]{2} [\u0600-\u06FF]+ [0-9٠-٩]{4}، /);
      await page.locator('button[lang="en"]').click();
      await expect.poll(() => page.getByTestId('portal-status').innerText()).toBe('Received');

      // The manager: the count in the side menu, the inbox, accepted into a work order.
      await signIn(manager.page, org);
      const m = manager.page;
      await expect.poll(() => m.getByTestId('menu-requests-count').innerText()).toBe('1');
      await m.getByTestId('menu-requests').click();
      await m.getByText('Water leaking from the pump seal').click();
      await m.getByTestId('portal-accept-title').waitFor();
      await m.getByTestId('portal-accept-title').fill('Replace the pump seal');
      await m.getByTestId('portal-accept').click();
      await expect.poll(() => m.getByTestId('portal-request-status').textContent()).toBe('Accepted');
      await m.getByTestId('portal-open-work-order').waitFor();

      await page.reload();
      await expect.poll(() => page.getByTestId('portal-status').innerText()).toBe('Accepted');

      // The work is done: the requester's page says so.
      const orders = await api('GET', '/api/work-orders/get-work-orders');
      const order = orders.body.workOrders.find((w: { title: string }) => w.title === 'Replace the pump seal');
      await api('PUT', `/api/work-orders/update-status/${order.id}`, { status: 'completed' });
      await page.goto(statusUrl);
      await expect.poll(() => page.getByTestId('portal-status').innerText()).toBe('Done');

      // Signed in, the same code opens the asset in the app.
      await m.goto(url);
      await m.waitForURL(/\/dashboard\/scan\//);
      await m.getByTestId('scan-asset').waitFor();
      await expect.poll(() => m.getByTestId('scan-asset').innerText()).toContain('Boiler Pump P-7');
    } finally {
      await requester.context.close();
      await manager.context.close();
    }
  });

  it('prints labels from the Assets list: rows chosen, a label size, the PDF downloaded and its codes read back', async () => {
    await api('POST', '/api/assets/add-asset', { name: 'مضخة التغذية', date: '2024-01-01', assetCategoryId: categoryId, assetCode: 'P-8' });
    const manager = await newPage(browser);
    try {
      const m = manager.page;
      await signIn(m, org);
      await m.goto(`${org.url}/dashboard/assets`);
      await m.getByText('Boiler Pump P-7').waitFor();
      expect(await m.getByTestId('labels-print').isDisabled()).toBe(true);
      // The page's box chooses both assets; clicking a row's box does not open its drawer.
      await m.getByTestId('labels-select-page').check();
      await m.getByTestId(`labels-select-${assetId}`).uncheck();
      await m.getByTestId(`labels-select-${assetId}`).check();
      expect(await m.getByTestId('asset-drawer').count()).toBe(0);
      await expect.poll(() => m.getByTestId('labels-print').innerText()).toBe('Print labels (2)');
      await m.getByTestId('labels-print').click();
      await m.getByTestId('portal-label-layout').click();
      await m.getByRole('option', { name: 'One large label (100 × 150 mm)', exact: true }).click();
      const [download] = await Promise.all([m.waitForEvent('download'), m.getByTestId('portal-labels-download').click()]);
      expect(download.suggestedFilename()).toBe('labels.pdf');
      const pdf = readFileSync((await download.path())!);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      // One large label a page: both codes read back as the organisation's /r/<token> URLs, each a different asset's.
      const texts = await qrTextsOfPdf(pdf);
      expect(texts).toHaveLength(2);
      for (const text of texts) expect(text).toMatch(new RegExp(`^http://${host}:${server.port}/r/[A-Za-z0-9_-]{22}$`));
      expect(new Set(texts).size).toBe(2);
      // The Arabic name is drawn in the Arabic font.
      expect(pdf.toString('latin1')).toMatch(/NotoSansArabic/);
      await m.getByTestId('portal-labels').waitFor({ state: 'detached' });
    } finally {
      await manager.context.close();
    }
  });
});
