/**
 * Organisations live on <subdomain>.<base domain>. The browser does not know the base domain, so it is
 * the current host minus the first label when the host has more labels than a bare domain.
 */
export function baseHost(loc: { hostname: string; port: string } = window.location): string {
  const labels = loc.hostname.split('.');
  const bare = loc.hostname.endsWith('localhost') ? 1 : 2;
  const base = labels.length > bare ? labels.slice(1).join('.') : loc.hostname;
  return loc.port ? `${base}:${loc.port}` : base;
}

/** True when the page is served on an organisation's subdomain. */
export function isOrganizationHost(loc: { hostname: string } = window.location): boolean {
  const labels = loc.hostname.split('.');
  return labels.length > (loc.hostname.endsWith('localhost') ? 1 : 2);
}

/** http://<subdomain>.<base host><path> */
export function organizationUrl(subdomain: string, path = '/login', loc: { protocol: string; hostname: string; port: string } = window.location): string {
  return `${loc.protocol}//${subdomain}.${baseHost(loc)}${path}`;
}
