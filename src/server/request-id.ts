import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { Config } from './env';

/** What an incoming X-Request-Id may be (decision 067): short, and nothing a log line or a header could trip on. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;

/**
 * Fastify's `genReqId`: the proxy's X-Request-Id when the peer is a proxy TRUST_PROXY trusts (the same rule as
 * X-Forwarded-For, decision 022) and the value is well formed; otherwise one of ours, unique across instances and
 * restarts and cheaper than a UUID per request (which cost 3% of a list's CPU).
 */
export function requestIdGenerator(trustProxy: Config['trustProxy']) {
  const boot = randomUUID().slice(0, 8);
  let count = 0;
  const trusts: (address: string) => boolean =
    trustProxy === true
      ? () => true
      : typeof trustProxy === 'number'
        ? () => trustProxy > 0
        : Array.isArray(trustProxy) && trustProxy.length
          ? (
              (compiled) => (address: string) =>
                compiled(address, 0)
            )(proxyAddr.compile(trustProxy))
          : () => false;
  return (raw: IncomingMessage) => {
    const incoming = raw.headers['x-request-id'];
    if (typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) && raw.socket?.remoteAddress && trusts(raw.socket.remoteAddress)) return incoming;
    return `${boot}-${(++count).toString(36)}`;
  };
}
