/** Names no organisation may take: they belong to the product or mislead users. */
export const RESERVED_SUBDOMAINS = new Set([
  'www', 'api', 'app', 'admin', 'mail', 'smtp', 'imap', 'pop', 'ftp', 'static', 'assets', 'cdn', 'docs', 'help',
  'support', 'status', 'blog', 'dashboard', 'login', 'auth', 'signup', 'register', 'billing', 'demo-request',
  'root', 'system', 'test', 'dev', 'staging', 'localhost', 'ns1', 'ns2', 'webmail', 'email',
]);

/** The address of an organisation's site, e.g. http://acme.localhost:3000. */
export function organizationOrigin(subdomain: string, location: { protocol: string; host: string }, baseDomain: string) {
  const port = location.host.includes(':') ? `:${location.host.split(':').pop()}` : '';
  return `${location.protocol}//${subdomain}.${baseDomain}${port}`;
}
