import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { client, createOrg, createTestApp, type TestApp } from './test/harness';
import { signAccessToken } from '../features/auth/tokens';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('session attacks', () => {
  it('refuses forged tokens: wrong key, alg none, tampered claims, garbage', async () => {
    const org = await createOrg(t);
    const [header, payload, signature] = org.admin.token!.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const wrongKey = await new SignJWT({ org: org.orgId, role: 'admin', sid: 1 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('not-the-secret'));
    const forged = [
      wrongKey,
      `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      `${header}.${b64({ ...claims, role: 'admin', sub: '2' })}.${signature}`,
      'garbage',
      `${header}.${payload}`,
    ];
    for (const token of forged) {
      const res = await client(t.app, org.host, token).get('/api/user/getCompanyUsers');
      expect(res.status, token.slice(0, 40)).toBe(401);
    }
  });

  it('refuses an expired token', async () => {
    const org = await createOrg(t);
    const expired = await signAccessToken(t.config.jwtSecret, { userId: 1, orgId: org.orgId, role: 'admin', sessionId: 1, tokenVersion: 0 }, -5);
    const res = await client(t.app, org.host, expired).get('/api/user/getCompanyUsers');
    expect(res.status).toBe(401);
  });

  it('keeps every tab signed in when several refresh at once with the same cookie', async () => {
    const org = await createOrg(t);
    const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { host: org.host }, payload: { email: org.email, password: org.password } });
    const cookie = String(login.headers['set-cookie']).split(';')[0];
    const tabs = await Promise.all(
      Array.from({ length: 5 }, () => t.app.inject({ method: 'POST', url: '/api/refresh', headers: { host: org.host, cookie, origin: `http://${org.host}` } })),
    );
    expect(tabs.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    for (const tab of tabs) {
      const res = await client(t.app, org.host, tab.json().accessToken).get('/api/user/getCompanyUsers');
      expect(res.status).toBe(200);
    }
  });

  it('refuses /api/refresh from another subdomain (Origin)', async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { host: a.host }, payload: { email: a.email, password: a.password } });
    const cookie = String(login.headers['set-cookie']).split(';')[0];
    const res = await t.app.inject({ method: 'POST', url: '/api/refresh', headers: { host: a.host, cookie, origin: `http://${b.host}` } });
    expect(res.statusCode).toBe(403);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
