/**
 * Front-end budget (issue 9): JavaScript the browser downloads per route, the largest chunk, and Lighthouse
 * desktop performance and accessibility for /login and /dashboard/work-orders (median of five runs).
 *
 *   npx tsx bench/frontend/run.ts [--build] [--runs 5] [--skip-lighthouse | --lighthouse-only]
 *
 * Builds the SPA when it is missing or older than its sources, starts the real server (tsx src/server/main.ts)
 * on a fresh PGlite data dir (or on the PostgreSQL database of DATABASE_URL, adding one organisation), signs up an
 * organisation with 30 work orders, and drives the system Chromium (/usr/bin/chromium).
 *
 * Bytes: every JavaScript file the page requested (Resource Timing, cold cache, a fresh browser context per
 * route) until the network is idle, counted as the gzip -9 size of the file (the .gz the server holds) and as
 * what actually crossed the wire (Chromium asks for brotli). The login route is everything needed to render
 * /login and sign in (the form, its validation and the POST), not the signed-in app loaded afterwards.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { addWorkOrder, call, launchBrowser, ROOT, signedInApi, signUpOrg, startServer, type TestOrg } from '../../e2e/helpers';
import { inFreshProfile, KB, median } from './lighthouse-kit';

const { values } = parseArgs({
  options: {
    build: { type: 'boolean', default: false },
    runs: { type: 'string', default: '5' },
    'skip-lighthouse': { type: 'boolean', default: false },
    'lighthouse-only': { type: 'boolean', default: false },
  },
});
const RUNS = Number(values.runs);
// The benchmark's own build: other builds of dist/web in the same checkout cannot change it mid-run.
const WEB = join(ROOT, 'node_modules/.cache/cmms-bench-web');

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(path).map((e) => newest(join(path, e))));
}

function ensureBuild() {
  const built = existsSync(join(WEB, 'index.html')) ? statSync(join(WEB, 'index.html')).mtimeMs : 0;
  const sources = Math.max(...['src/web', 'src/features', 'src/shared', 'index.html', 'vite.config.ts'].map((p) => newest(join(ROOT, p))));
  if (!values.build && built > sources) return;
  console.log('building the SPA (vite build)...');
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error', '--outDir', WEB, '--emptyOutDir'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('vite build failed');
}

/** The business routes: every entry of feature-routes.tsx and the dashboard pages of app-routes.tsx. */
function businessRoutes(): string[] {
  const features = readFileSync(join(ROOT, 'src/web/app/feature-routes.tsx'), 'utf8');
  const app = readFileSync(join(ROOT, 'src/web/app/app-routes.tsx'), 'utf8');
  const paths = [...features.matchAll(/path: '(\/[a-z0-9/-]+)'/g)].map((m) => m[1]);
  const dashboard = [...app.matchAll(/path="(dashboard\/[a-z0-9-]+)"/g)].map((m) => `/${m[1]}`);
  return [...new Set([...paths, ...dashboard])];
}

interface Transfer {
  files: number;
  gzip: number;
  wire: number;
}

/**
 * The JavaScript a page loaded so far (or, with `before`, requested before that time of the page's clock): gzip -9
 * size of each file and the bytes on the wire.
 */
async function jsTransferred(page: Page, before = Infinity): Promise<Transfer> {
  const entries = await page.evaluate(
    (until) =>
      performance
        .getEntriesByType('resource')
        .map((e) => e as PerformanceResourceTiming)
        .filter((e) => new URL(e.name).pathname.endsWith('.js') && e.startTime < until)
        .map((e) => ({ path: new URL(e.name).pathname, wire: e.encodedBodySize })),
    before,
  );
  const seen = new Set<string>();
  let gzip = 0;
  let wire = 0;
  for (const e of entries) {
    if (seen.has(e.path)) continue;
    seen.add(e.path);
    const gz = join(WEB, `${e.path}.gz`);
    gzip += existsSync(gz) ? statSync(gz).size : 0;
    wire += e.wire;
  }
  return { files: seen.size, gzip, wire };
}

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  await page.waitForLoadState('networkidle');
}

/** Signs in through the API and returns the cookies it set (the refresh token), for a browser context. */
async function sessionCookies(port: number, org: TestOrg) {
  const res = await call(port, `${org.subdomain}.localhost`, 'POST', '/api/login', { email: org.email, password: org.password });
  if (res.status !== 200) throw new Error(`sign-in: ${res.status}`);
  const setCookie = res.headers['set-cookie'] ?? [];
  return (Array.isArray(setCookie) ? setCookie : [setCookie]).map((c) => {
    const [pair, ...attrs] = c.split(';').map((x) => x.trim());
    const eq = pair.indexOf('=');
    const path = attrs.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
    return { name: pair.slice(0, eq), value: pair.slice(eq + 1), domain: `${org.subdomain}.localhost`, path, httpOnly: true, sameSite: 'Strict' as const };
  });
}

async function measureRoutes(browser: Browser, port: number, org: TestOrg) {
  const rows: { route: string; t: Transfer }[] = [];
  // /login: render it, then sign in (the POST); stop counting once the token is stored.
  {
    const context = await browser.newContext({ viewport: { width: 1350, height: 940 } });
    const page = await context.newPage();
    await page.goto(`${org.url}/login`);
    await page.getByTestId('login-email').waitFor();
    await settle(page);
    await page.getByTestId('login-email').fill(org.email);
    await page.getByTestId('login-password').fill(org.password);
    const signedIn = page.waitForResponse((r) => r.url().endsWith('/api/login') && r.status() === 200);
    await page.getByTestId('login-submit').click();
    await signedIn;
    // The sign-in answer starts the signed-in app's download at once: only what was requested before it arrived
    // counts (reading the list when the response event fires raced with those downloads).
    const answered = await page.waitForFunction(
      () =>
        performance
          .getEntriesByType('resource')
          .map((e) => e as PerformanceResourceTiming)
          .find((e) => new URL(e.name).pathname === '/api/login')?.responseEnd,
    );
    const t = await jsTransferred(page, (await answered.jsonValue()) as number);
    await page.waitForURL(`${org.url}/dashboard/work-orders`);
    rows.push({ route: '/login (render and sign in)', t });
    await context.close();
  }
  // Each route opened cold in a fresh context, signed in through the API (the refresh cookie is set in that
  // context; the app's load-time refresh turns it into a session, as in a new tab of a signed-in browser).
  for (const route of businessRoutes()) {
    const context = await browser.newContext({ viewport: { width: 1350, height: 940 } });
    await context.addCookies(await sessionCookies(port, org));
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(`${org.url}${route}`);
      await page.getByTestId('side-menu').waitFor({ timeout: 30_000 });
      await settle(page);
      rows.push({ route: `${route} (shell + page)`, t: await jsTransferred(page) });
    } catch (err) {
      throw new Error(`${route}: ${(err as Error).message.split('\n')[0]} (at ${page.url()}; page errors: ${errors.join('; ') || 'none'})`);
    } finally {
      await context.close();
    }
  }
  return rows;
}

function largestChunk() {
  const files = readdirSync(join(WEB, 'assets')).filter((f) => f.endsWith('.js'));
  const sizes = files.map((f) => ({ f, raw: statSync(join(WEB, 'assets', f)).size }));
  sizes.sort((a, b) => b.raw - a.raw);
  return { count: files.length, top: sizes.slice(0, 3) };
}

/**
 * One Lighthouse desktop run (performance, accessibility) in a fresh Chromium profile; `signIn` runs first in
 * that profile (Playwright on the same browser), so the audited page has the session cookie but a cold cache.
 */
function lighthouseRun(url: string, signIn?: (page: Page) => Promise<void>) {
  return inFreshProfile(async (context, port) => {
    if (signIn) {
      const page = await context.newPage();
      await signIn(page);
      const session = await context.newCDPSession(page);
      await session.send('Network.clearBrowserCache');
      await page.close();
    }
    const result = await lighthouse(
      url,
      { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], disableStorageReset: Boolean(signIn) },
      desktopConfig,
    );
    const lhr = result!.lhr;
    const failed = Object.values(lhr.audits)
      .filter((a) => lhr.categories.accessibility.auditRefs.some((r) => r.id === a.id && r.weight > 0) && a.score !== null && a.score < 1)
      .map((a) => {
        const items = ((a.details as { items?: { node?: { snippet?: string } }[] } | undefined)?.items ?? []).slice(0, 3);
        return `${a.id}${items.length ? ` [${items.map((i) => i.node?.snippet ?? '').join(' | ')}]` : ''}`;
      });
    return {
      performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility.score ?? 0) * 100),
      lcp: lhr.audits['largest-contentful-paint'].numericValue ?? 0,
      tbt: lhr.audits['total-blocking-time'].numericValue ?? 0,
      cls: lhr.audits['cumulative-layout-shift'].numericValue ?? 0,
      failed,
    };
  });
}

ensureBuild();
const server = await startServer({ script: join(ROOT, 'bench/frontend/serve.ts'), env: { BENCH_WEB_ROOT: WEB } });
let browser: Browser | undefined;
try {
  const org = await signUpOrg(server, 'Bench Front');
  const { api } = await signedInApi(server, `${org.subdomain}.localhost`, org);
  for (let i = 1; i <= 30; i++) await addWorkOrder(api, { title: `Inspect pump ${i}`, priority: ['low', 'medium', 'high'][i % 3] });

  const date = new Date().toISOString().slice(0, 10);
  console.log(
    `\nFront end (${date}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.versions.node}, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`,
  );
  if (!values['lighthouse-only']) {
    browser = await launchBrowser();
    const rows = await measureRoutes(browser, server.port, org);
    await browser.close();
    browser = undefined;
    console.log('\n| route | JS files | JS gzip KB | JS on the wire KB (br) | target |');
    console.log('|---|---|---|---|---|');
    for (const { route, t } of rows) {
      const target = route.startsWith('/login') ? 100 : route.startsWith('/dashboard/work-orders') ? 220 : undefined;
      const mark = target === undefined ? '' : `<= ${target} ${t.gzip / 1024 <= target ? 'met' : 'NOT met'}`;
      console.log(`| ${route} | ${t.files} | ${KB(t.gzip)} | ${KB(t.wire)} | ${mark} |`);
    }
    const chunk = largestChunk();
    const [top] = chunk.top;
    console.log(
      `\nLargest chunk: ${top.f} ${KB(top.raw)} KB raw (${chunk.count} chunks; target: none over 500 KB, ${top.raw <= 500 * 1024 ? 'met' : 'NOT met'}); next: ${chunk.top
        .slice(1)
        .map((c) => `${c.f} ${KB(c.raw)} KB`)
        .join(', ')}`,
    );
  }

  if (!values['skip-lighthouse']) {
    const signInPage = async (page: Page) => {
      await page.goto(`${org.url}/login`);
      await page.getByTestId('login-email').fill(org.email);
      await page.getByTestId('login-password').fill(org.password);
      await page.getByTestId('login-submit').click();
      await page.waitForURL(`${org.url}/dashboard/work-orders`);
      await page.getByTestId('side-menu').waitFor();
    };
    const pages = [
      { name: '/login', url: `${org.url}/login`, perfTarget: 98 },
      { name: '/dashboard/work-orders', url: `${org.url}/dashboard/work-orders`, perfTarget: 95, signIn: signInPage },
    ];
    const lhVersion = (JSON.parse(readFileSync(join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8')) as { version: string }).version;
    console.log(`\nLighthouse ${lhVersion} desktop preset, median of ${RUNS} runs`);
    console.log('| page | performance (runs) | accessibility | LCP ms | TBT ms | CLS | targets |');
    console.log('|---|---|---|---|---|---|---|');
    for (const p of pages) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await lighthouseRun(p.url, p.signIn));
      const perf = median(runs.map((r) => r.performance));
      const a11y = median(runs.map((r) => r.accessibility));
      const failed = [...new Set(runs.flatMap((r) => r.failed))];
      console.log(
        `| ${p.name} | ${perf} (${runs.map((r) => r.performance).join(', ')}) | ${a11y}${failed.length ? ` (failing: ${failed.join(', ')})` : ''} | ${median(runs.map((r) => r.lcp)).toFixed(0)} | ${median(runs.map((r) => r.tbt)).toFixed(0)} | ${median(runs.map((r) => r.cls)).toFixed(3)} | perf >= ${p.perfTarget} ${perf >= p.perfTarget ? 'met' : 'NOT met'}, a11y 100 ${a11y === 100 ? 'met' : 'NOT met'} |`,
      );
    }
  }
} finally {
  await browser?.close();
  await server.stop();
}
