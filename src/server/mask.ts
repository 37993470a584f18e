/** How much of a secret token a log line keeps: enough to tell two apart, far too little to use one. */
const KEPT = 6;

/**
 * Masks the value of every `token=` in a text (invitation and reset links, request URLs) so that logs
 * never hold a usable link: `token=Ab12Cd…`.
 */
export function maskTokens(text: string): string {
  return text.replace(/(token=)([^&\s"'<>]+)/gi, (_all, name: string, value: string) =>
    value.length > KEPT ? `${name}${value.slice(0, KEPT)}…` : `${name}…`,
  );
}

/** Fastify's request log fields, with tokens in the URL masked (GET /auth/verify-token?token=…). */
export function maskedRequest(req: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) {
  return { method: req.method, url: maskTokens(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}
