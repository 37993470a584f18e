import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp, useTestApp } from './test/harness';
import { signup } from '../features/auth/auth.service';
import { addressKey, type RouteLimits } from './rate-limit';

// Decision 022. Every test uses client addresses of its own, so the counts kept in a shared PostgreSQL
// database do not meet another test's.
const address = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
const PASSWORD = 'Passw0rd!long';
const small = { max: 2, windowSeconds: 600 };
const routeLimits: RouteLimits = {
  signup: small,
  searchSubdomain: small,
  demoRequest: small,
  verifyPassword: small,
  tokenCheck: small,
  apiKey: small,
  apiKeyUnknown: small,
  portalSubmit: small,
  portalOrgSubmit: small,
  portalRead: small,
  sharedWorkOrder: small,
  sharedWorkOrderWrite: small,
  shareCode: small,
  ssoStart: small,
  ssoFinish: small,
};

const t = useTestApp({ loginLimits: { perIp: 5, perAccount: 3, perAccountAllAddresses: 6, windowSeconds: 900 }, routeLimits });

/** An organisation made through the sign-up service (the API's sign-up is limited to 2 here). */
async function newOrg() {
  const sub = `t${randomBytes(5).toString('hex')}`;
  const email = `admin@${sub}.example.com`;
  await signup(t.database.db, { organization: `Org ${sub}`, email, password: PASSWORD, subdomainName: sub, numberOfWorkers: 3, consent: true });
  return { host: `${sub}.${t.config.baseDomain}`, email };
}

const send = (opts: InjectOptions & { from: string }) => t.app.inject({ ...opts, remoteAddress: opts.from });
const login = (host: string, from: string, email: string, password: string, headers: Record<string, string> = {}) =>
  send({ method: 'POST', url: '/api/login', from, headers: { host, ...headers }, payload: { email, password } });

describe('client address behind proxies', () => {
  it('ignores X-Forwarded-For from a client that is not a configured proxy: rotating it does not escape the per-IP limit', async () => {
    expect(t.config.trustProxy).toBe(false);
    const org = await newOrg();
    const from = address();
    const statuses = [];
    for (let i = 0; i < 6; i += 1) {
      const res = await login(org.host, from, `nobody${i}@example.com`, 'wrong-password', { 'x-forwarded-for': address() });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('takes the client from X-Forwarded-For when the request comes from a trusted proxy', async () => {
    const proxied = await createTestApp({ trustProxy: ['10.200.0.1'], loginLimits: { perIp: 1, perAccount: 100, windowSeconds: 900 } });
    try {
      const sub = `t${randomBytes(5).toString('hex')}`;
      await signup(proxied.database.db, {
        organization: `Org ${sub}`,
        email: `a@${sub}.example.com`,
        password: PASSWORD,
        subdomainName: sub,
        numberOfWorkers: 3,
        consent: true,
      });
      const host = `${sub}.${proxied.config.baseDomain}`;
      const viaProxy = (client: string) =>
        proxied.app.inject({
          method: 'POST',
          url: '/api/login',
          remoteAddress: '10.200.0.1',
          headers: { host, 'x-forwarded-for': client },
          payload: { email: `a@${sub}.example.com`, password: 'wrong-password' },
        });
      const [a, b] = [address(), address()];
      expect((await viaProxy(a)).statusCode).toBe(401);
      expect((await viaProxy(a)).statusCode).toBe(429);
      expect((await viaProxy(b)).statusCode).toBe(401);
    } finally {
      await proxied.close();
    }
  });
});

describe('client networks', () => {
  it('counts IPv6 clients by their /64 network, IPv4 clients (mapped or not) by their address', () => {
    for (const [address, key] of [
      ['203.0.113.7', '203.0.113.7'],
      ['::ffff:203.0.113.7', '203.0.113.7'],
      ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
      ['2001:0DB8:0001:0002::1', '2001:db8:1:2::/64'],
      ['2001:db8::1', '2001:db8:0:0::/64'],
      ['::1', '0:0:0:0::/64'],
      ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ])
      expect(addressKey(address), address).toBe(key);
  });

  it('does not let a client rotate through its IPv6 network to escape the per-IP limit', async () => {
    const org = await newOrg();
    const net = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
    const statuses = [];
    for (let i = 1; i <= 6; i += 1) statuses.push((await login(org.host, `${net}::${i.toString(16)}`, `nobody${i}@example.com`, 'wrong-password')).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});

describe('failed sign-ins do not lock the owner out', () => {
  it("a stranger's failures limit the stranger's address, not the owner's", async () => {
    const org = await newOrg();
    const stranger = address();
    const owner = address();
    for (let i = 0; i < 3; i += 1) expect((await login(org.host, stranger, org.email, 'wrong-password')).statusCode).toBe(401);
    const refused = await login(org.host, stranger, org.email, PASSWORD);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatch(/^Too many login attempts\. Please try again in \d+ minutes?\.$/);
    expect((await login(org.host, owner, org.email, PASSWORD)).statusCode).toBe(200);
    expect((await login(org.host, stranger, org.email, PASSWORD)).statusCode).toBe(429);
  });

  it('past the account-wide ceiling only addresses that signed in before may still try', async () => {
    const org = await newOrg();
    const owner = address();
    expect((await login(org.host, owner, org.email, PASSWORD)).statusCode).toBe(200);
    // Strangers spread their guesses over many addresses, under the per-address limit, up to the
    // account's ceiling of 6 attempts (the owner's sign-in counted too).
    for (const n of [2, 2, 1]) {
      const from = address();
      for (let j = 0; j < n; j += 1) expect((await login(org.host, from, org.email, 'wrong-password')).statusCode).toBe(401);
    }
    expect((await login(org.host, address(), org.email, PASSWORD)).statusCode).toBe(429);
    expect((await login(org.host, owner, org.email, PASSWORD)).statusCode).toBe(200);
  });
});

describe('throttled routes', () => {
  const three = async (request: () => Promise<{ statusCode: number; headers: Record<string, unknown>; json(): { error?: string } }>) => {
    const results = [await request(), await request(), await request()];
    expect(results.map((r) => r.statusCode).slice(0, 2)).not.toContain(429);
    expect(results[2].statusCode).toBe(429);
    expect(results[2].json().error).toBe('Too many requests, please try again later');
    expect(Number(results[2].headers['retry-after'])).toBeGreaterThan(0);
  };
  const root = () => t.config.baseDomain;

  it('limits sign-ups per address', async () => {
    const from = address();
    await three(() => {
      const sub = `t${randomBytes(5).toString('hex')}`;
      return send({
        method: 'POST',
        url: '/api/signup',
        from,
        headers: { host: root() },
        payload: { organization: 'Acme', email: `b@${sub}.example.com`, password: PASSWORD, subdomainName: sub, numberOfWorkers: 2, consent: true },
      });
    });
  });

  it('limits subdomain searches per address, found or not', async () => {
    const from = address();
    await three(() => send({ method: 'POST', url: '/api/search-subdomain', from, headers: { host: root() }, payload: { subdomain: 'nobody-here' } }));
  });

  it('limits demo requests per address', async () => {
    const from = address();
    await three(() =>
      send({
        method: 'POST',
        url: '/api/demo-requests',
        from,
        headers: { host: root() },
        payload: { name: 'Dana', email: 'dana@example.com', company: 'Plant' },
      }),
    );
  });

  it('limits invitation token checks per address, on both routes that take a token', async () => {
    const org = await newOrg();
    const from = address();
    await three(() => send({ method: 'GET', url: `/api/auth/verify-token?token=${randomBytes(16).toString('hex')}`, from, headers: { host: org.host } }));
    const other = address();
    await three(() =>
      send({
        method: 'POST',
        url: '/api/auth/complete-registration',
        from: other,
        headers: { host: org.host },
        payload: { token: randomBytes(16).toString('hex'), firstName: 'A', lastName: 'B', phoneNumber: '+12345678901', password: PASSWORD },
      }),
    );
  });

  it('limits password verification per signed-in user, whatever the address', async () => {
    const org = await newOrg();
    const signedIn = await login(org.host, address(), org.email, PASSWORD);
    const headers = { host: org.host, authorization: `Bearer ${signedIn.json().accessToken}` };
    await three(() => send({ method: 'POST', url: '/api/user/verify-password', from: address(), headers, payload: { currentPassword: 'not-the-password' } }));
  });
});
