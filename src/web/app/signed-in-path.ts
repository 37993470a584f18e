/** A path of the signed-in area (/dashboard/*, /settings/*): the shell around a page, behind the session. */
export function isSignedInPath(pathname: string): boolean {
  return /^\/(dashboard|settings)(\/|$)/.test(pathname.replace(/\/+$/, ''));
}
