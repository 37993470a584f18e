import { readFileSync, statSync } from 'node:fs';

/**
 * The application's "now" for scheduled work (the preventive maintenance generator, its previews and
 * compliance), decision 032. Real time, shifted by an offset that only tests and non-production servers can set:
 * - tests: `setClockOffset(ms)` (put it back with `setClockOffset(0)`), or `pinClock(at)` to stop it;
 * - a development or e2e server: `CLOCK_FILE=<path>`, a file holding the offset in milliseconds, read again
 *   whenever it changes (a browser journey advances the running server's clock by rewriting it), or
 *   `CLOCK_OFFSET_MS` fixed at start.
 * With NODE_ENV=production the offset is always 0 and setting it throws.
 */
let testOffset = 0;
let pinned: Date | undefined;
let cached: { path: string; mtimeMs: number; offset: number } | undefined;

const production = () => process.env.NODE_ENV === 'production';

function fileOffset(path: string): number {
  try {
    const { mtimeMs } = statSync(path);
    if (cached?.path === path && cached.mtimeMs === mtimeMs) return cached.offset;
    const offset = Number(readFileSync(path, 'utf8').trim() || 0);
    cached = { path, mtimeMs, offset: Number.isFinite(offset) ? offset : 0 };
    return cached.offset;
  } catch {
    return 0;
  }
}

/** The offset now in force, in milliseconds. */
export function clockOffset(): number {
  if (production()) return 0;
  if (testOffset) return testOffset;
  if (process.env.CLOCK_FILE) return fileOffset(process.env.CLOCK_FILE);
  const fixed = Number(process.env.CLOCK_OFFSET_MS ?? 0);
  return Number.isFinite(fixed) ? fixed : 0;
}

/** The current time as the application sees it. */
export function now(): Date {
  if (pinned && !production()) return new Date(pinned);
  return new Date(Date.now() + clockOffset());
}

/**
 * Tests only: stops the application's clock at `at` (undefined lets it run again), for a test that compares reads
 * taken minutes apart of answers measured up to now (an asset's down time). Refused in production.
 */
export function pinClock(at: Date | undefined) {
  if (production()) throw new Error('The clock cannot be set in production');
  pinned = at;
}

/** Tests only: shifts the clock by `ms` (0 puts it back). Refused in production. */
export function setClockOffset(ms: number) {
  if (production()) throw new Error('The clock cannot be set in production');
  testOffset = ms;
}
