/** Names no organisation may take: they belong to the product or mislead users. */
export const RESERVED_SUBDOMAINS = new Set([
  'www',
  'api',
  'app',
  'admin',
  'mail',
  'smtp',
  'imap',
  'pop',
  'ftp',
  'static',
  'assets',
  'cdn',
  'docs',
  'help',
  'support',
  'status',
  'blog',
  'dashboard',
  'login',
  'auth',
  'signup',
  'register',
  'billing',
  'demo-request',
  'root',
  'system',
  'test',
  'dev',
  'staging',
  'localhost',
  'ns1',
  'ns2',
  'webmail',
  'email',
]);

/**
 * The subdomain of `<sub>.<baseDomain>[:port]`, or null for the bare domain and foreign hosts. The one rule for
 * "which organisation does this host name": the server (request context) and the browser (org-host.ts) both use it.
 */
export function subdomainOf(host: string | undefined, baseDomain: string): string | null {
  if (!host) return null;
  const name = host.toLowerCase().replace(/:\d+$/, '');
  const suffix = `.${baseDomain.toLowerCase()}`;
  if (!name.endsWith(suffix)) return null;
  const sub = name.slice(0, -suffix.length);
  return /^[a-z0-9-]{1,63}$/.test(sub) ? sub : null;
}
