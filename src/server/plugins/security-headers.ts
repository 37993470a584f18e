import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's headers, worked out once. @fastify/helmet rebuilt helmet's middleware (and re-parsed the CSP)
 * on every request; the headers depend only on the options, so helmet writes them once into a recorder
 * and each reply copies the result.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

/**
 * Browser features no page of ours uses are turned off for every response. The camera stays allowed for our
 * own origin: QR-code scanning of assets will use it.
 */
export const PERMISSIONS_POLICY = [
  'camera=(self)',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'midi=()',
  'display-capture=()',
  'browsing-topics=()',
].join(', ');

export const securityHeaders = fp(async (app, options: HelmetOptions) => {
  const headers = { ...helmetHeaders(options), 'permissions-policy': PERMISSIONS_POLICY };
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(headers);
    // API answers are per user and per moment: never kept by the browser or a proxy. A route that may be
    // cached says so itself (the SPA's files are served outside /api/).
    if (req.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    done();
  });
});
