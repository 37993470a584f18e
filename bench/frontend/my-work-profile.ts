/**
 * Where the technician's cold My work spends its main thread (issue 46, decision 041): one cold load (no HTTP
 * cache, no device copy) at 390 px with the CPU slowed 4x as Lighthouse's mobile preset does, profiled by V8;
 * self time summed by package or source file (through the build's source maps when it has them:
 * `npx vite build --sourcemap`), after the page's modules have run and before it.
 *
 *   npx tsx bench/frontend/my-work-profile.ts [--runs 3] [--top 30] [--detail dexie ...]
 *
 * --detail PLACE: that place's time again, by the nearest of our source lines that called into it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SourceMapConsumer } from 'source-map';
import { chromium } from 'playwright-core';
import { CHROMIUM, DEMO, ROOT, addWorkOrder, signedInApi, startServer, userIdByEmail } from '../../e2e/helpers';
import { FLAGS } from './lighthouse-kit';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, top: { type: 'string', default: '30' }, detail: { type: 'string', multiple: true, default: [] } },
});
const WEB = join(ROOT, 'dist/web');
const TECH = { email: 'tech1@demo.com', password: 'Demo1234!' };

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const maps = new Map<string, SourceMapConsumer | null>();
async function consumerFor(url: string) {
  const path = join(WEB, new URL(url).pathname);
  if (!maps.has(path)) maps.set(path, existsSync(`${path}.map`) ? await new SourceMapConsumer(JSON.parse(readFileSync(`${path}.map`, 'utf8'))) : null);
  return maps.get(path)!;
}

/** The package (node_modules/<name>) or our source file a frame belongs to. */
async function placeOf(frame: ProfileNode['callFrame'], line = false): Promise<string | null> {
  if (!frame.url.startsWith('http')) return frame.functionName ? `(${frame.functionName})` : '(native)';
  const map = await consumerFor(frame.url);
  if (!map) return new URL(frame.url).pathname;
  const at = map.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber });
  if (!at.source) return new URL(frame.url).pathname;
  if (line) return at.source.includes('node_modules') ? null : `${at.source.replace(/^.*?\/src\//, 'src/')}:${at.line} ${at.name ?? frame.functionName}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(at.source);
  return pkg ? pkg[1] : at.source.replace(/^.*?\/src\//, 'src/');
}

const server = await startServer({ seedDemo: true });
try {
  const { api } = await signedInApi(server, 'demo.localhost', DEMO.admin);
  const tech = await userIdByEmail(api, TECH.email);
  for (let i = 1; i <= 10; i++)
    await addWorkOrder(api, { title: `Inspect pump ${i}`, assignees: [tech], dueDate: new Date(Date.now() + (i - 3) * 86400_000).toISOString() });
  const totals = new Map<string, number>();
  const details = new Map<string, Map<string, number>>(values.detail!.map((d) => [d, new Map()]));
  let all = 0;
  for (let run = 0; run < Number(values.runs); run++) {
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(`${server.orgUrl('demo')}/manifest.webmanifest`);
    await page.evaluate(async (body) => fetch('/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body }), JSON.stringify(TECH));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Profiler.start');
    await page.goto(`${server.orgUrl('demo')}/dashboard/my-work`);
    await page.getByTestId('my-work').waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(1500);
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    /** The nearest frame up the stack in our own source, as file:line and function. */
    const ourCaller = async (id: number) => {
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const frame = byId.get(at)!.callFrame;
        if (!frame.url.startsWith('http')) continue;
        const place = await placeOf(frame, true);
        if (place) return place;
      }
      return '(none of ours)';
    };
    for (let i = 0; i < profile.samples.length; i++) {
      const node = byId.get(profile.samples[i])!;
      if (node.callFrame.functionName === '(idle)' || node.callFrame.functionName === '(program)') continue;
      const place = (await placeOf(node.callFrame))!;
      const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
      totals.set(place, (totals.get(place) ?? 0) + dt);
      const detail = details.get(place);
      if (detail) {
        const caller = await ourCaller(profile.samples[i]);
        detail.set(caller, (detail.get(caller) ?? 0) + dt);
      }
      all += dt;
    }
    await browser.close();
  }
  const runs = Number(values.runs);
  console.log(`\nMy work, cold, CPU 4x: ${(all / runs).toFixed(0)} ms of JavaScript and native calls per load (mean of ${runs}), by place:`);
  const table = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, Number(values.top))
      .forEach(([place, ms]) => console.log(`${(ms / runs).toFixed(1).padStart(8)} ms  ${place}`));
  table(totals);
  for (const [place, m] of details) {
    console.log(`\n${place}, by our nearest caller:`);
    table(m);
  }
} finally {
  await server.stop();
}
