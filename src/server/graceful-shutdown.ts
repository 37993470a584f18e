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
 * 2. the server keeps accepting: connections the kernel has already queued (the listen backlog) are taken and
 *    answered, as closing the listening socket would reset them (issue 45: 18 of 32 on PGlite);
 * 3. once `idleGraceMs` has passed with no request in flight and no new connection or request, the listening
 *    socket closes (without http's "close the idle connections now"; `app.close()` then closes those) and it
 *    resolves. `maxWaitMs` bounds the wait under a load that never pauses.
 */
export function drainOnShutdown(server: Server, opts: { idleGraceMs: number; maxWaitMs: number }) {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  let lastActivity = 0;
  server.on('connection', () => (lastActivity = Date.now()));
  server.on('request', (_req, res: ServerResponse) => {
    lastActivity = Date.now();
    if (draining) res.shouldKeepAlive = false;
    inFlight.add(res);
    res.on('close', () => {
      inFlight.delete(res);
      lastActivity = Date.now();
    });
  });

  return async function drain() {
    draining = true;
    for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
    const started = Date.now();
    for (;;) {
      const now = Date.now();
      const quiet = now - Math.max(started, lastActivity);
      if ((inFlight.size === 0 && quiet >= opts.idleGraceMs) || now - started >= opts.maxWaitMs) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    // net.Server's close: stop listening without http's "close the idle connections now".
    NetServer.prototype.close.call(server);
  };
}
