import { Server as NetServer } from 'node:net';
import type { Server, ServerResponse } from 'node:http';

/**
 * Drains an HTTP server without resetting a connection (decision 025).
 *
 * Node's `server.close()` (which `app.close()` calls) closes idle keep-alive connections at once: a client
 * that sent its next request on such a connection a moment before gets a reset, and a request in flight on a
 * keep-alive connection is answered without `Connection: close`, so its client may send another one on it.
 * Instead, on `drain()`:
 * 1. every answer from now on, in flight or new, says `Connection: close`, and the server closes each
 *    connection after its answer;
 * 2. the listening socket closes (no new connections) while the open ones stay usable;
 * 3. it resolves once every connection has closed, or once `idleGraceMs` has passed with no request in
 *    flight (the connections left are idle clients; `app.close()` then closes them).
 */
export function drainOnShutdown(server: Server, opts: { idleGraceMs: number; maxWaitMs: number }) {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  server.on('request', (_req, res: ServerResponse) => {
    if (draining) res.shouldKeepAlive = false;
    inFlight.add(res);
    res.on('close', () => inFlight.delete(res));
  });

  return async function drain() {
    draining = true;
    for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
    // net.Server's close: stop listening without http's "close the idle connections now".
    NetServer.prototype.close.call(server);
    const started = Date.now();
    for (;;) {
      const open = await new Promise<number>((resolve) => server.getConnections((err, n) => resolve(err ? 0 : n)));
      const waited = Date.now() - started;
      if (open === 0 || (waited >= opts.idleGraceMs && inFlight.size === 0) || waited >= opts.maxWaitMs) return;
      await new Promise((r) => setTimeout(r, 25));
    }
  };
}
