import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import net from 'node:net';
import type { FastifyRequest } from 'fastify';
import { client, createOrg, createTestApp, type TestApp, type TestOrg } from './test/harness';

/**
 * The router decodes a path before it matches it, and takes the path out of an absolute-form request line
 * (`GET http://host/api/... HTTP/1.1`). The caller checks hang on the routes (decision 021), so every spelling
 * the router sends to an API handler is checked first; no handler runs for an anonymous caller.
 */
let t: TestApp;
let org: TestOrg;
let port: number;

/** The routes whose handler started, seen through Fastify's own tracing channel (no hook of ours to trust). */
const handled: string[] = [];
const HANDLER_START = 'tracing:fastify.request.handler:start';
const onHandler = (message: unknown) => {
  const { request } = message as { request: FastifyRequest };
  handled.push(`${request.method} ${request.url}`);
};

beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
  subscribe(HANDLER_START, onHandler);
});
afterAll(async () => {
  unsubscribe(HANDLER_START, onHandler);
  await t?.close();
});

const fill = (url: string) => url.replace(/:[A-Za-z]+/g, '1').replace('*', '');
const closed = () => t.app.apiRoutes.filter((route) => route.access !== 'public');
const hasBody = (method: string) => method !== 'GET' && method !== 'DELETE';

/** One request written on a raw socket, as an attacker's client would send it; its status code. */
function rawRequest(method: string, target: string, headers: Record<string, string> = {}) {
  const body = hasBody(method) ? '{}' : '';
  const head = [
    `${method} ${target} HTTP/1.1`,
    `Host: ${org.host}`,
    'Connection: close',
    ...(body ? ['Content-Type: application/json', `Content-Length: ${body.length}`] : []),
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ].join('\r\n');
  return new Promise<number>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(`${head}\r\n\r\n${body}`));
    let data = '';
    socket.on('data', (chunk) => (data += chunk));
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1])));
    socket.on('error', reject);
  });
}

/** The spellings of one path the router may accept: an encoded letter in /api, and one later in the path. */
const spellings = (path: string) => [`/%61pi${path.slice(4)}`, path.replace(/^\/api\/(\w)/, (_m, c: string) => `/api/%${c.charCodeAt(0).toString(16)}`)];

describe('every spelling of a closed route', () => {
  it('the router really dispatches the odd spellings (the test would prove nothing otherwise)', async () => {
    handled.length = 0;
    expect((await org.admin.get('/%61pi/user/getCompanyUsers')).status).toBe(200);
    expect(await rawRequest('GET', `http://${org.host}/api/user/getCompanyUsers`, { authorization: `Bearer ${org.admin.token}` })).toBe(200);
    expect(handled).toEqual(['GET /%61pi/user/getCompanyUsers', `GET http://${org.host}/api/user/getCompanyUsers`]);
  });

  it('is refused with 401 without a token, through inject, before any handler runs', async () => {
    handled.length = 0;
    const anonymous = client(t.app, org.host);
    for (const route of closed()) {
      for (const url of spellings(fill(route.url))) {
        const res = await anonymous[route.method === 'GET' ? 'get' : route.method === 'DELETE' ? 'del' : route.method === 'PUT' ? 'put' : 'post'](
          url,
          hasBody(route.method) ? {} : undefined,
        );
        expect(res.status, `${route.method} ${url}`).toBe(401);
      }
    }
    expect(handled).toEqual([]);
  });

  it('is refused with 401 without a token as an absolute-form request line on a socket, before any handler runs', async () => {
    handled.length = 0;
    for (const route of closed()) {
      for (const target of [`http://${org.host}${fill(route.url)}`, `http://${org.host}/%61pi${fill(route.url).slice(4)}`]) {
        expect(await rawRequest(route.method, target), `${route.method} ${target}`).toBe(401);
      }
    }
    expect(handled).toEqual([]);
  });

  it('keeps the role check on an odd spelling: a worker gets 403 on a managers’ route', async () => {
    const worker = await org.as('worker');
    handled.length = 0;
    expect((await worker.post('/%61pi/auth/addUser', { email: 'x@y.example.com', confirmEmail: 'x@y.example.com', role: 'worker' })).status).toBe(403);
    expect(await rawRequest('DELETE', `http://${org.host}/api/user/deleteUser/${org.orgId}`, { authorization: `Bearer ${worker.token}` })).toBe(403);
    expect(handled).toEqual([]);
  });
});
