// Tools the tests start themselves (PgBouncer, nginx, Chromium) come from Debian's packages: installed with
// apt-get when their binary is missing, never started as the system service.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Returns `binary`, installing the Debian package `pkg` first when it is missing; throws when it cannot. */
export function ensureDebianPackage(binary, pkg, { override } = {}) {
  if (existsSync(binary)) return binary;
  console.log(`${binary} is missing: installing the Debian package ${pkg}…`);
  try {
    execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkg}`, { stdio: 'inherit' });
  } catch {
    /* reported below */
  }
  if (!existsSync(binary))
    throw new Error(`${binary} is missing and could not be installed: apt-get install -y ${pkg}${override ? ` (or set ${override})` : ''}`);
  return binary;
}
