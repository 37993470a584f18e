/**
 * The nginx configuration docs/deploy.md shows, tested (issue 38, decision 068): read from the document, its
 * instances, ports and certificate replaced, in front of two instances of the server bundle on one database and
 * one bucket. Round robin works: sign-in, a write through one instance and its read through the other, an upload
 * and its download through the other; X-Forwarded-For and X-Forwarded-Proto reach the app and count with
 * TRUST_PROXY (the client's address and https in the request log lines), a client's own X-Forwarded-For does not.
 */
import { solidImage } from '../test/images';
import { afterAll, describe, expect, it } from 'vitest';
import { documentedSite, selfSignedCertificate, siteFor, startNginx } from '../../../scripts/nginx.mjs';
import { ADMIN_URL, call, logLines, signUp, type Answer, type CallOptions } from '../test/bundle';
import { freePort } from '../test/server-process';
import { twoBundles } from '../test/two-bundles';

describe.skipIf(!ADMIN_URL)('nginx in front of two instances (docs/deploy.md)', () => {
  const pair = twoBundles('nginx');
  const { scratch, servers } = pair;
  let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
  afterAll(async () => {
    await nginx?.stop();
    await pair.stop();
  });

  it('balances sign-in, writes, reads, uploads and downloads over both, with the client address and scheme', { timeout: 300_000 }, async () => {
    // nginx reaches the instances from 127.0.0.1: the only proxy they trust.
    const { a, b, bucket } = await pair.start({ TRUST_PROXY: '127.0.0.1' });
    const upstreams = [`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`];
    const [httpPort, httpsPort] = [await freePort(), await freePort()];
    nginx = await startNginx({ site: siteFor(documentedSite(), { upstreams, httpPort, httpsPort, ...selfSignedCertificate(scratch) }), port: httpsPort });

    // The client: another loopback address than nginx's (what the app should see as the client), over TLS, with
    // an X-Forwarded-For of its own that nobody trusts.
    const client: CallOptions = { https: true, localAddress: '127.0.0.2', headers: { 'x-forwarded-for': '203.0.113.9' } };
    /** A request through nginx, and the instance that served it (nginx's access log; the line may follow the answer). */
    const through = async (host: string, path: string, options: CallOptions = {}) => {
      const lines = () => nginx!.accessLog().filter((line) => line.split(' ')[1] === path);
      const before = lines().length;
      const answer = await call(httpsPort, host, path, { ...client, ...options });
      for (const end = Date.now() + 10_000; lines().length === before; ) {
        if (Date.now() > end) throw new Error(`nginx logged no request for ${path}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return Object.assign(answer, { upstream: lines().at(-1)!.split(' ')[3] });
    };
    /** `path` again until the other instance than `not` serves it (round robin: the next request or the one after). */
    const fromTheOther = async (not: string, host: string, path: string, options: CallOptions = {}): Promise<Answer> => {
      for (let i = 0; i < 4; i++) {
        const answer = await through(host, path, options);
        if (answer.upstream !== not) return answer;
      }
      throw new Error(`${path} was served by ${not} four times in a row:\n${nginx!.accessLog().join('\n')}`);
    };

    // Port 80 sends to https.
    const plain = await call(httpPort, 'x.localhost', '/api/health');
    expect(plain.status).toBe(301);
    expect(plain.headers.location).toBe('https://x.localhost/api/health');

    const org = await signUp(httpsPort, client);
    const added = await through(org.host, '/api/work-orders/add-work-order', { token: org.token, json: { title: 'Balance the fan' } });
    expect(added.status, added.body.toString()).toBe(201);
    const orderId: number = added.json().workOrder.id;
    const writer = added.upstream;
    expect(upstreams).toContain(writer);
    const read = await fromTheOther(writer, org.host, `/api/work-orders/get-work-order/${orderId}`, { token: org.token });
    expect(read.status).toBe(200);
    expect(read.json().workOrder.title).toBe('Balance the fan');

    const jpeg = await solidImage('jpeg', 64, 48, '#3355aa');
    const photo = await through(org.host, `/api/my-work/add-photo/${orderId}`, {
      token: org.token,
      files: [{ field: 'image', name: 'fan.jpg', bytes: jpeg, type: 'image/jpeg' }],
    });
    expect(photo.status, photo.body.toString()).toBe(201);
    const uploader = photo.upstream;
    const url: string = photo.json().photo.url;
    const download = await fromTheOther(uploader, org.host, url);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('image/webp');
    expect(download.body.equals((await bucket.object(/^\/uploads\/([^?]+)/.exec(url)![1]))!)).toBe(true);

    // Both instances served, and in turn.
    const proxied = nginx
      .accessLog()
      .map((line) => line.split(' ')[3])
      .filter((u) => u !== '-'); // '-': the redirect, nginx's own
    expect(new Set(proxied)).toEqual(new Set(upstreams));
    expect(proxied.every((u, i) => i === 0 || u !== proxied[i - 1])).toBe(true);

    // Each instance saw the client's address (not nginx's, not the client's own X-Forwarded-For) and https.
    for (const server of servers) {
      const requests = logLines(server.output())
        .map((line) => line.req as { host?: string; remoteAddress?: string; protocol?: string } | undefined)
        .filter((req) => req?.host === org.host);
      expect(requests.length).toBeGreaterThan(0);
      for (const req of requests) expect(req).toMatchObject({ remoteAddress: '127.0.0.2', protocol: 'https' });
    }
  });
});
