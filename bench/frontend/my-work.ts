/**
 * The technician's My work on a phone (issue 27, decision 041): the JavaScript a worker's first load downloads
 * (gzip -9, target < 250 KB) and Lighthouse 12 mobile (the default config: Moto G Power-class CPU slowdown,
 * slow 4G) time to interactive, cold (empty HTTP cache, no service worker) and from the cache (the service
 * worker's precache, after one visit); median of N runs.
 *
 *   npx tsx bench/frontend/my-work.ts [--runs 3] [--save DIR]   (--save: each run's Lighthouse report as JSON, to read its trace)
 *
 * Uses the SPA already built in dist/web (npm run test:e2e or vite build), served by the real server with the
 * demo organisation; the technician tech1@demo.com gets 10 more work orders with a procedure.
 */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import lighthouse from 'lighthouse';
import { addWorkOrder, CHROMIUM, DEMO, ROOT, signedInApi, startServer, userIdByEmail } from '../../e2e/helpers';
import { FLAGS, inFreshProfile, KB, median } from './lighthouse-kit';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, save: { type: 'string' } } });
const RUNS = Number(values.runs);
const WEB = join(ROOT, 'dist/web');
const HOST = 'demo.localhost';
const TECH = { email: 'tech1@demo.com', password: 'Demo1234!' };
if (!existsSync(join(WEB, 'sw.js'))) throw new Error('dist/web has no build with the service worker: run vite build first');
const server = await startServer({ seedDemo: true });
const url = `${server.orgUrl('demo')}/dashboard/my-work`;

async function signIn(page: Page) {
  await page.goto(`${server.orgUrl('demo')}/login`);
  await page.getByTestId('login-email').fill(TECH.email);
  await page.getByTestId('login-password').fill(TECH.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/dashboard\/(my-work|work-orders)$/);
}

async function openMyWork(page: Page) {
  await page.goto(url);
  await page.getByTestId('my-work').waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
}

/** The JavaScript of the worker's first load (cold, at 390 px): gzip -9 size of each file requested. */
async function firstLoadJs(context: BrowserContext) {
  const page = await context.newPage();
  await signIn(page);
  const fresh = await context.browser()!.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
  await fresh.addCookies(await context.cookies());
  const p = await fresh.newPage();
  await openMyWork(p);
  const paths = await p.evaluate(() => [
    ...new Set(
      performance
        .getEntriesByType('resource')
        .map((e) => new URL(e.name).pathname)
        .filter((x) => x.endsWith('.js')),
    ),
  ]);
  await fresh.close();
  await page.close();
  return { files: paths.length, gzip: paths.reduce((n, x) => n + (existsSync(join(WEB, `${x}.gz`)) ? statSync(join(WEB, `${x}.gz`)).size : 0), 0) };
}

/** One Lighthouse mobile run in a fresh profile: signed in first; `warm` visits My work once so the service worker precaches. */
function lighthouseRun(warm: boolean) {
  return inFreshProfile(async (context, port) => {
    if (warm) {
      const page = await context.newPage();
      await signIn(page);
      await openMyWork(page);
      await page.evaluate(async () => void (await navigator.serviceWorker.ready));
      await openMyWork(page);
      await page.close();
    } else {
      // Cold: the refresh cookie only, signed in through the API from a static file of the host; no page of the
      // app has been opened in this profile (no HTTP cache of its files, no service worker, no device copy).
      const page = await context.newPage();
      await page.goto(`${server.orgUrl('demo')}/manifest.webmanifest`);
      const status = await page.evaluate(
        async (body) => (await fetch('/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status,
        JSON.stringify(TECH),
      );
      if (status !== 200) throw new Error(`sign-in failed: ${status}`);
      await page.close();
    }
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      disableStorageReset: true,
      // --save: the trace with the JavaScript profiler's samples, to see which functions the long tasks run
      ...(values.save ? { additionalTraceCategories: 'disabled-by-default-v8.cpu_profiler' } : {}),
    });
    const lhr = result!.lhr;
    if (values.save) {
      const name = join(values.save, `${warm ? 'cached' : 'cold'}-${Date.now()}`);
      writeFileSync(`${name}.json`, JSON.stringify(lhr));
      writeFileSync(`${name}.trace.json`, JSON.stringify(result!.artifacts.Trace));
    }
    // A run Lighthouse could not measure (e.g. NO_NAVSTART) has no figures: it is run again, never counted as 0 ms.
    if (lhr.runtimeError) {
      console.log(`(a ${warm ? 'cached' : 'cold'} run failed: ${lhr.runtimeError.code}; run again)`);
      return null;
    }
    return {
      tti: lhr.audits.interactive.numericValue ?? 0,
      fcp: lhr.audits['first-contentful-paint'].numericValue ?? 0,
      perf: Math.round((lhr.categories.performance.score ?? 0) * 100),
    };
  });
}

try {
  const { api } = await signedInApi(server, HOST, DEMO.admin);
  const tech = await userIdByEmail(api, TECH.email);
  const { procedure } = await api('POST', '/api/procedures/add-procedure', {
    name: 'Bench check',
    steps: [
      { kind: 'checkbox', label: 'Isolate' },
      { kind: 'number', label: 'Pressure' },
      { kind: 'photo', label: 'Photo' },
    ],
  });
  for (let i = 1; i <= 10; i++) {
    const dueDate = new Date(Date.now() + (i - 3) * 86400_000).toISOString();
    const id = await addWorkOrder(api, { title: `Inspect pump ${i}`, assignees: [tech], dueDate });
    await api('POST', `/api/work-orders/attach-procedure/${id}`, { procedureId: procedure.id });
  }
  console.log(
    `\nMy work (${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.versions.node})`,
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  const js = await firstLoadJs(await browser.newContext({ viewport: { width: 390, height: 844 } }));
  await browser.close();
  console.log(
    `worker's first load of /dashboard/my-work: ${js.files} JS files, ${KB(js.gzip)} KB gzip (target < 250: ${js.gzip < 250 * 1024 ? 'met' : 'NOT met'})`,
  );
  for (const warm of [false, true]) {
    const runs = [];
    for (let i = 0, failed = 0; i < RUNS; ) {
      const run = await lighthouseRun(warm);
      if (run) {
        runs.push(run);
        i++;
      } else if (++failed > 3) throw new Error('Lighthouse failed four times');
    }
    const tti = median(runs.map((r) => r.tti));
    const target = warm ? 1000 : 2500;
    console.log(
      `Lighthouse mobile ${warm ? 'from the cache' : 'cold'}: TTI median ${tti.toFixed(0)} ms (${runs.map((r) => r.tti.toFixed(0)).join(', ')}), FCP ${median(runs.map((r) => r.fcp)).toFixed(0)} ms, performance ${median(runs.map((r) => r.perf))} (target TTI < ${target} ms: ${tti < target ? 'met' : 'NOT met'})`,
    );
  }
} finally {
  await server.stop();
}
