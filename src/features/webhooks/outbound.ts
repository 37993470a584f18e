import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';

/**
 * Outbound HTTP for webhooks (decision 043), refusing server-side request forgery: the host's addresses are
 * checked at connect time, in the socket's own lookup (a second resolution cannot return another address: no DNS
 * rebinding), and an address literal before it. Private, loopback, link-local, unique-local, multicast and other
 * special ranges are refused, IPv4 and IPv6, IPv4-mapped included, unless the operator allows them.
 */

const V4_BLOCKED: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const V6_BLOCKED: [string, number][] = [
  ['::', 96], // unspecified, loopback, IPv4-compatible
  ['64:ff9b::', 96], // NAT64: an IPv4 address behind a translator
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID...)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: an IPv4 address inside
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

function v4Bytes(address: string): number[] {
  return address.split('.').map(Number);
}

/** An IPv6 address as 16 bytes (with a dotted IPv4 tail). */
function v6Bytes(address: string): number[] {
  let text = address.split('%')[0].toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = v4Bytes(dotted[1]);
    text = text.slice(0, -dotted[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail ? tail.split(':') : [];
  const groups = text.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return groups.flatMap((g) => {
    const n = parseInt(g || '0', 16);
    return [n >> 8, n & 255];
  });
}

function inSubnet(bytes: number[], base: number[], prefix: number) {
  for (let bit = 0; bit < prefix; bit++) {
    const i = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if ((bytes[i] & mask) !== (base[i] & mask)) return false;
  }
  return true;
}

/** True for an address a webhook may not reach (anything that is not a public unicast address). */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address.split('%')[0]);
  if (family === 4) {
    const bytes = v4Bytes(address);
    return V4_BLOCKED.some(([base, prefix]) => inSubnet(bytes, v4Bytes(base), prefix));
  }
  if (family === 6) {
    const bytes = v6Bytes(address);
    // IPv4-mapped (::ffff:a.b.c.d): judged as the IPv4 address it is.
    if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255) return isForbiddenAddress(bytes.slice(12).join('.'));
    return V6_BLOCKED.some(([base, prefix]) => inSubnet(bytes, v6Bytes(base), prefix));
  }
  return true;
}

/** Shown to the organisation's admin (a delivery's last error): never the address a name resolved to inside our network. */
export class ForbiddenAddressError extends Error {
  constructor(host: string) {
    super(`Refused: ${host} is or resolves to a private or reserved address`);
  }
}

/** A socket lookup that drops forbidden addresses; with none left the connection fails. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses as LookupAddress[];
    const allowed = list.filter((a) => !isForbiddenAddress(a.address));
    if (allowed.length === 0) return callback(new ForbiddenAddressError(hostname), '', 0);
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
    callback(null, allowed[0].address, allowed[0].family);
  });
};

export interface PostResult {
  status: number;
  /** The start of the answer's body (at most `keepBytes`). */
  body: string;
}

export interface PostOptions {
  headers: Record<string, string>;
  timeoutMs: number;
  /** Reading stops (and the connection is closed) past this many bytes of answer. */
  maxResponseBytes: number;
  allowPrivate: boolean;
  keepBytes?: number;
  /** The body's type; JSON by default (Web Push sends `application/octet-stream`). */
  contentType?: string;
}

/** POSTs `body` to `url`; resolves with the answer's status and the start of its body, rejects on a network error, a refusal or the timeout. Redirects are not followed. */
export function postJson(url: string, body: string | Buffer, options: PostOptions): Promise<PostResult> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && isIP(host) && isForbiddenAddress(host)) return Promise.reject(new ForbiddenAddressError(host));
  const transport = target.protocol === 'https:' ? https : http;
  const keep = options.keepBytes ?? 1024;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      target,
      {
        method: 'POST',
        headers: { ...options.headers, 'content-type': options.contentType ?? 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        // A new connection per delivery, resolved through the guard: no kept-alive socket to another address.
        agent: false,
        ...(options.allowPrivate ? {} : { lookup: guardedLookup }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8').slice(0, keep) });
        };
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= keep + chunk.length) chunks.push(chunk);
          if (size > options.maxResponseBytes) {
            res.destroy();
            done();
          }
        });
        res.on('end', done);
        res.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`Timed out after ${options.timeoutMs} ms`)), options.timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(body);
  });
}
