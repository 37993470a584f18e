import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg, createTestApp, type TestApp, type TestOrg } from '../test/harness';
import { until } from '../test/fixtures';

/**
 * A multipart body cut short on the wire, as a phone losing its network sends it: the client stops after part
 * of the body (and closes its side, or the whole connection), or the body ends before its closing boundary.
 * The upload routes answer 400 with our `{ error }`, never a 500 (issue 45), on PGlite and PostgreSQL.
 */
let t: TestApp;
let org: TestOrg;
let port: number;
// What the server answered to each request, seen on the raw response (also when the client is gone).
const answered: { url: string; status: number }[] = [];
beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t, 'Cut short');
  t.app.server.on('request', (req: IncomingMessage, res: ServerResponse) =>
    res.on('close', () => answered.push({ url: req.url ?? '', status: res.statusCode })),
  );
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

const head = (url: string, length: number) =>
  `POST ${url} HTTP/1.1\r\nHost: ${org.host}\r\nAuthorization: Bearer ${org.admin.token}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${length}\r\n\r\n`;
const filePart = '--b\r\ncontent-disposition: form-data; name="image"; filename="a.png"\r\ncontent-type: image/png\r\n\r\n\x89PNG\r\n\x1a\n' + 'x'.repeat(2000);

/** Sends `body` after a head claiming `length` bytes, then `end`s (half-close) or `destroy`s; resolves with the raw answer. */
function send(url: string, body: string, length: number, how: 'half-close' | 'destroy' | 'keep-open') {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      // The file's first bytes, then a pause (the handler is reading the file by then), then the rest.
      socket.write(Buffer.from(head(url, length) + body.slice(0, 200), 'latin1'));
      setTimeout(() => {
        socket.write(Buffer.from(body.slice(200), 'latin1'));
        if (how === 'half-close') socket.end();
        if (how === 'destroy') setTimeout(() => socket.destroy(), 50);
      }, 300);
    });
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (how === 'keep-open' && /\r\n\r\n[\s\S]*\}$/.test(answer)) socket.end();
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', (err) => (how === 'destroy' ? resolve(answer) : reject(err)));
  });
}

const uploads = ['/api/user/addProfilePicture', '/api/customer-vendors/upload-documents', '/api/quotations/upload-attachments'];

describe('a multipart body cut short on the wire', () => {
  for (const url of uploads) {
    it(`${url}: 400 with { error }, never a 500`, async () => {
      // The body ends before its closing boundary (its length is what was sent).
      const early = await send(url, filePart, Buffer.byteLength(filePart, 'latin1'), 'keep-open');
      expect(early, early).toMatch(/^HTTP\/1\.1 400 /);
      expect(early).toMatch(/\r\n\r\n\{"error":"(Malformed multipart body|No file uploaded)"\}$/);
      // The client stops half-way and closes its side: the answer still comes, and it is a 400.
      const half = await send(url, filePart, 100_000, 'half-close');
      expect(half, half).toMatch(/^HTTP\/1\.1 400 /);
      expect(half).toMatch(/\r\n\r\n\{"error":"(Request body ended early|Malformed multipart body)"\}$/);
      // The client goes away half-way: nobody reads the answer, but the server did not fail.
      const before = answered.length;
      await send(url, filePart, 100_000, 'destroy');
      await until(() => answered.length > before);
      expect(
        answered
          .slice(before)
          .map((a) => a.status)
          .filter((s) => s >= 500),
      ).toEqual([]);
    });
  }
});
