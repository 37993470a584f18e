/**
 * The login page's largest contentful paint, cold (issue 29: nothing on it may wait for a network call): a fresh
 * browser context per run (its own empty HTTP cache) opens an organisation's /login on the real server, Chromium's
 * own LCP (PerformanceObserver) and a performance trace of the load; prints each run, the median, and for the
 * median run what the page fetched before its LCP and when each arrived.
 * It does not build: it measures whatever dist/web holds (`npm run build` first after a change of the SPA).
 * Usage: npx tsx bench/frontend/login-lcp.ts [--runs 9] [--session] (--session: a browser that signed in before,
 * so the load-time refresh runs: only the marker such a browser keeps is set, and with no refresh cookie in the
 * fresh context the refresh fails, as after a session's end).
 */
import type { Browser } from 'playwright-core';
import { launchBrowser, signUpOrg, startServer } from '../../e2e/helpers';
import { SESSION_HINT_KEY } from '../../src/web/lib/session';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 9;
const withSession = process.argv.includes('--session');

interface Run {
  lcp: number;
  element: string;
  fcp: number;
  requests: { url: string; start: number; end: number }[];
  traceLcp: number | null;
}

async function once(browser: Browser, url: string): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 860 }, serviceWorkers: 'block' });
  if (withSession) {
    // the marker a browser that signed in keeps (SESSION_HINT_KEY): the page then makes the load-time refresh
    await context.addInitScript((key) => localStorage.setItem(key, '1'), SESSION_HINT_KEY);
  }
  const page = await context.newPage();
  await browser.startTracing(page, { categories: ['devtools.timeline', 'loading', 'blink.user_timing'] });
  await page.addInitScript(() => {
    const w = window as unknown as { __lcp: { t: number; el: string }; __fcp: number };
    w.__lcp = { t: 0, el: '' };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { element?: Element })[]) {
        const el = e.element;
        w.__lcp = { t: e.startTime, el: el ? `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 60) : '' };
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') w.__fcp = e.startTime;
    }).observe({ type: 'paint', buffered: true });
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.getByTestId('login-email').waitFor();
  await page.waitForTimeout(1500);
  const result = await page.evaluate(() => {
    const w = window as unknown as { __lcp: { t: number; el: string }; __fcp: number };
    const requests = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({
      url: r.name.replace(/^https?:\/\/[^/]+/, ''),
      start: r.startTime,
      end: r.responseEnd,
    }));
    return { lcp: w.__lcp.t, element: w.__lcp.el, fcp: w.__fcp, requests };
  });
  const trace = JSON.parse(String(await browser.stopTracing())) as { traceEvents: { name: string; ts: number; args?: { data?: { navigationId?: string } } }[] };
  const nav = trace.traceEvents.find((e) => e.name === 'navigationStart');
  const cand = trace.traceEvents.filter((e) => e.name === 'largestContentfulPaint::Candidate').pop();
  await context.close();
  return { ...result, traceLcp: nav && cand ? (cand.ts - nav.ts) / 1000 : null };
}

const server = await startServer();
const browser = await launchBrowser();
try {
  const org = await signUpOrg(server, 'LCP');
  const all: Run[] = [];
  // One load first, not counted: it starts Chromium's renderer and runs the server's page and file routes once (Node's
  // JIT). It warms no cache the measured runs use: each has a fresh context (empty HTTP cache), and the server keeps
  // no file cache (@fastify/static reads every asset from disk; only the HTML is held, read at start).
  await once(browser, `${org.url}/login`);
  for (let i = 0; i < runs; i++) all.push(await once(browser, `${org.url}/login`));
  const sorted = [...all].sort((a, b) => a.lcp - b.lcp);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(`login LCP ms (${withSession ? 'with a session marker' : 'no session'}), ${runs} cold runs: ${all.map((r) => r.lcp.toFixed(0)).join(', ')}`);
  console.log(
    `median ${median.lcp.toFixed(0)} ms (trace ${median.traceLcp?.toFixed(0) ?? '?'} ms), FCP ${median.fcp?.toFixed(0)} ms, element ${median.element}`,
  );
  for (const r of median.requests.filter((q) => q.start <= median.lcp))
    console.log(`  ${r.start.toFixed(0).padStart(5)} -> ${r.end.toFixed(0).padStart(5)} ms  ${r.url}`);
} finally {
  await browser.close();
  await server.stop();
}
