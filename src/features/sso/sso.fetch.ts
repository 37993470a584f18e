import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { ForbiddenAddressError, guardedLookup, isForbiddenAddress } from '../webhooks/outbound';

/** What openid-client hands its `customFetch`. */
interface FetchOptions {
  body?: unknown;
  headers?: Record<string, string> | Headers;
  method?: string;
  signal?: AbortSignal;
}

/** An answer larger than this (discovery, keys, tokens are a few KB) is cut off: the provider is refused. */
const MAX_BYTES = 1024 * 1024;
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * The provider's requests (discovery, token, JWKS) from the server (decision 083): like webhooks (decision 043),
 * a private, loopback or other special address is refused at connect time, in the socket's own lookup (no DNS
 * rebinding), unless SSO_ALLOW_PRIVATE_ADDRESSES=true (an identity provider on the company network; the tests).
 * Redirects are not followed (openid-client asks for `redirect: 'manual'`).
 */
export function guardedFetch(url: string, options: FetchOptions): Promise<Response> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && isForbiddenAddress(host)) return Promise.reject(new ForbiddenAddressError(host));
  const headers = options.headers instanceof Headers ? Object.fromEntries(options.headers.entries()) : { ...options.headers };
  const body = options.body === undefined || options.body === null ? undefined : String(options.body);
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(target, { method: options.method ?? 'GET', headers, agent: false, lookup: guardedLookup, signal: options.signal }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BYTES) return res.destroy(new Error('The answer is too large'));
        chunks.push(chunk);
      });
      res.on('error', reject);
      res.on('end', () => {
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) for (const v of [value ?? []].flat()) answerHeaders.append(name, v);
        const status = res.statusCode ?? 502;
        resolve(new Response(NO_BODY.has(status) ? null : Buffer.concat(chunks), { status, headers: answerHeaders }));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
