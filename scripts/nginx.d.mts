/** Types of scripts/nginx.mjs for the tests that start an nginx of their own. */
export const NGINX: string;
export function ensureNginx(): string;
export function documentedSite(): string;
export function siteFor(site: string, options: { upstreams: string[]; httpPort: number; httpsPort: number; certificate: string; key: string }): string;
export function selfSignedCertificate(dir: string): { certificate: string; key: string };
export function startNginx(options: { site: string; port: number }): Promise<{
  dir: string;
  accessLog(): string[];
  errors(): string;
  stop(): Promise<void>;
}>;
