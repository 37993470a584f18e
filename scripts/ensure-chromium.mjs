// Browser journeys need the system Chromium (never a test tool's own download). Install it from
// Debian's packages when missing; fail loudly when that is impossible: a journey is never skipped.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function ensureChromium() {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  console.log('Chromium is missing: installing it from Debian packages…');
  try {
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', { stdio: 'inherit' });
  } catch {
    /* reported below */
  }
  if (!existsSync(CHROMIUM)) {
    console.error(
      `\nBrowser journeys cannot run: ${CHROMIUM} is missing and could not be installed.\nInstall it with: apt-get install -y chromium (or set CHROMIUM_PATH).\n`,
    );
    process.exit(1);
  }
  return CHROMIUM;
}
