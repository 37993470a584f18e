/** A path of the signed-in area (/dashboard/*, /settings/*): the shell around a page, behind the session. */
export function isSignedInPath(pathname: string): boolean {
  return /^\/(dashboard|settings)(\/|$)/.test(pathname.replace(/\/+$/, ''));
}

/** The technician's app (issue 27): outside the manager's shell, it works offline. */
export const MY_WORK_PATH = '/dashboard/my-work';

export function isMyWorkPath(pathname: string): boolean {
  return pathname.replace(/\/+$/, '') === MY_WORK_PATH;
}

/** A phone-width screen (Mantine's `sm` breakpoint, 48em). */
export function isPhoneWidth(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 48em)').matches;
}

/** Where a signed-in user lands: a worker on a phone gets My work, everyone else `home`. */
export function landingFor(role: string | undefined, home: string): string {
  return role === 'worker' && isPhoneWidth() ? MY_WORK_PATH : home;
}
