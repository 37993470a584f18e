/**
 * What a cold browser downloads (issue 46, "Weight"): the gzipped JavaScript of the sign-in page and of a
 * signed-in work-order list, on the built SPA. The budgets are the product's: 100 KB and 220 KB.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, signIn, signUpOrg } from './helpers';
import { useJourney } from './use-journey';

const journey = useJourney();

/** Every script the page loads from here on, by URL, with its gzipped size. */
function recordScripts(page: Page) {
  const sizes = new Map<string, number>();
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return;
    void res.body().then(
      (body) => sizes.set(new URL(res.url()).pathname, gzipSync(body).length),
      () => undefined,
    );
  });
  return {
    kb: () => [...sizes.values()].reduce((a, b) => a + b, 0) / 1024,
    largest: () =>
      [...sizes.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([u, n]) => `${u} ${(n / 1024).toFixed(1)}`)
        .join(', '),
  };
}

describe('the JavaScript a cold browser loads', () => {
  it('sign-in page under 100 KB (the budget), the signed-in work-order list under 220 KB (gzipped; the budgets)', async () => {
    const { server, browser } = journey;
    const org = await signUpOrg(server);
    const { page, context } = await newPage(browser);
    const login = recordScripts(page);
    await page.goto(`${org.url}/login`);
    await page.waitForLoadState('networkidle');
    const loginKb = login.kb();
    console.log(`[weight] sign-in page: ${loginKb.toFixed(1)} KB (${login.largest()})`);
    await context.close();

    // A signed-in cold browser: the session's cookie, an empty cache, straight to the list.
    const signedIn = await newPage(browser);
    await signIn(signedIn.page, org);
    const storageState = await signedIn.context.storageState();
    await signedIn.context.close();
    const context2 = await browser.newContext({ storageState, viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
    const page2 = await context2.newPage();
    const list = recordScripts(page2);
    await page2.goto(`${org.url}/dashboard/work-orders`);
    await page2.getByTestId('side-menu').waitFor();
    await page2.waitForLoadState('networkidle');
    const listKb = list.kb();
    console.log(`[weight] signed-in work-order list: ${listKb.toFixed(1)} KB (${list.largest()})`);
    await context2.close();

    // The budget: 100 KB. 102.8 KB before issue 46's pass; 98.5 KB since the lean boot takes the sign-in screen's
    // own English strings (en-sign-in.ts) instead of the whole catalogue (98.7 KB on the final tree).
    expect(loginKb).toBeLessThan(100);
    // The budget: 220 KB. 257.2 KB before issue 46's pass; 254.0 KB once AppShell read react-remove-scroll's class
    // names without the library; ~30 KB less since the filters' pickers (asset, location) load Mantine's
    // Select, Combobox, Popover and floating-ui with the interactive controls, on the first interaction (~30 KB),
    // and the service worker is registered without workbox-window (~2 KB): 221.7 KB; chunks under 10 KB merged
    // (vite.config.ts) instead of 3 KB, so that no other page's code rides along: 219.3 KB; the theme switch as three
    // of the shell's buttons instead of Mantine's SegmentedControl: 220.4 -> 218.6 KB.
    expect(listKb).toBeLessThan(220);
  });
});
