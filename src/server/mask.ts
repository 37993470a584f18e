/** How much of a secret token a log line keeps: enough to tell two apart, far too little to use one. */
const KEPT = 6;

const keep = (value: string) => (value.length > KEPT ? `${value.slice(0, KEPT)}…` : '…');
const masked = (_all: string, before: string, value: string) => `${before}${keep(value)}`;

/**
 * Masks every secret a URL carries so that logs never hold a usable link: the value of `token=` (invitation,
 * reset and shared work order links) and `key=` (a contractor's confirmed e-mail, decision 040), and the path
 * segment after `/status/`, `/r/` and `/form/` (the request portal's status links and asset codes, decision 039):
 * `token=Ab12Cd…`, `/portal/status/Ab12Cd…`.
 */
export function maskTokens(text: string): string {
  return text
    .replace(/(token=)([^&\s"'<>]+)/gi, masked)
    .replace(/([?&]key=)([^&\s"'<>]+)/gi, masked)
    .replace(/(\/(?:status|r|form)\/)([A-Za-z0-9_-]{16,})/g, masked);
}

/**
 * Fastify's request log fields, with tokens in the URL masked (GET /auth/verify-token?token=…). `remoteAddress`
 * and `protocol` are the client's as the proxies TRUST_PROXY trusts tell them (X-Forwarded-For/-Proto).
 */
export function maskedRequest(req: { method: string; url: string; host?: string; ip?: string; protocol?: string; socket?: { remotePort?: number } }) {
  return { method: req.method, url: maskTokens(req.url), host: req.host, protocol: req.protocol, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}
