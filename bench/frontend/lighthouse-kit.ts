import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { CHROMIUM, freePort } from '../../e2e/helpers';

/** What the front-end benchmarks share: sizes in KB, the median of runs, the Chromium flags of a Lighthouse run and its fresh profile. */
export const KB = (n: number) => (n / 1024).toFixed(1);

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export const FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Runs `audit` in a fresh Chromium profile (no cookie, no cache) that Lighthouse can reach on `port`; the
 * profile is closed and removed afterwards.
 */
export async function inFreshProfile<T>(audit: (context: BrowserContext, port: number) => Promise<T>): Promise<T> {
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'cmms-lh-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...FLAGS, `--remote-debugging-port=${port}`],
  });
  try {
    return await audit(context, port);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
