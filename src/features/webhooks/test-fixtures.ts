import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Test helper: a real HTTP receiver for webhook deliveries at `url` (give each test its own query, `?retry`);
 * `answers` are the statuses of the next requests (200 once they run out).
 */
export async function startReceiver() {
  // each request: its path and query, its headers, its body as text
  const received: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const answers: number[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, body });
      res.statusCode = answers.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, received, answers, close: () => new Promise<void>((r) => server.close(() => r())) };
}
