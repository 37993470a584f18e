import { subdomainOf } from '../../shared/subdomain';

/**
 * Organisations live on <subdomain>.<base domain>. The server writes the base domain into the page
 * (`<meta name="base-domain">`, src/server/app.ts); a page served without it (the Vite dev server) falls back
 * to the current host minus its first label when the host has more labels than a bare domain.
 */
function baseDomain(hostname: string): string {
  const declared = typeof document === 'undefined' ? null : document.querySelector<HTMLMetaElement>('meta[name="base-domain"]')?.content;
  if (declared) return declared;
  const labels = hostname.split('.');
  const bare = hostname.endsWith('localhost') ? 1 : 2;
  return labels.length > bare ? labels.slice(1).join('.') : hostname;
}

/** The base domain with the page's port: where the landing page and sign-up live. */
export function baseHost(loc: { hostname: string; port: string } = window.location): string {
  const base = baseDomain(loc.hostname);
  return loc.port ? `${base}:${loc.port}` : base;
}

/** True when the page is served on an organisation's subdomain. */
export function isOrganizationHost(loc: { hostname: string } = window.location): boolean {
  return subdomainOf(loc.hostname, baseDomain(loc.hostname)) !== null;
}

/** http://<subdomain>.<base host><path> */
export function organizationUrl(subdomain: string, path = '/login', loc: { protocol: string; hostname: string; port: string } = window.location): string {
  return `${loc.protocol}//${subdomain}.${baseHost(loc)}${path}`;
}
