import { describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { and, eq } from 'drizzle-orm';
import { client, createOrg, emailOfUser, useTestApp, type TestOrg } from './test/harness';
import { deactivateUser } from './test/builders';
import { signAccessToken } from '../features/auth/tokens';
import { withTenant } from './db/client';
import { sessions, users } from './db/schema';

const t = useTestApp();

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

/** Signs in through the API: the access token and the refresh cookie of a new session. */
async function signIn(org: TestOrg, email: string, password = org.password) {
  const res = await t.app.inject({ method: 'POST', url: '/api/login', headers: { host: org.host }, payload: { email, password } });
  expect(res.statusCode).toBe(200);
  return { token: res.json().accessToken as string, cookie: String(res.headers['set-cookie']).split(';')[0] };
}
const payloadOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
const emailOf = (org: TestOrg, userId: number) => emailOfUser(t, org.orgId, userId);

// Decision 021: every authenticated request reads its session and user, so rights that change apply at once.
describe('an access token after its rights changed', () => {
  it('stops at once after logout (401)', async () => {
    const org = await createOrg(t);
    const { token, cookie } = await signIn(org, org.email);
    const me = client(t.app, org.host, token);
    expect((await me.get('/api/user/get-app-data')).status).toBe(200);
    expect((await me.post('/api/logout', {}, { cookie })).status).toBe(200);
    expect((await me.get('/api/user/get-app-data')).status).toBe(401);
    // the other session of the same user goes on
    expect((await org.admin.get('/api/user/get-app-data')).status).toBe(200);
  });

  it('stops at once when the user is deleted or no longer active (401)', async () => {
    const org = await createOrg(t);
    const deleted = await org.as('manager');
    const deactivated = await org.as('manager');
    expect((await deleted.get('/api/user/getCompanyUsers')).status).toBe(200);
    expect((await deactivated.get('/api/user/getCompanyUsers')).status).toBe(200);
    expect((await org.admin.del(`/api/user/deleteUser/${deleted.userId}`)).status).toBe(200);
    expect((await deleted.get('/api/user/getCompanyUsers')).status).toBe(401);
    // There is no deactivation call yet: a user who is not ACTIVE is refused sign-in, refresh and requests alike.
    await withTenant(t.database.db, org.orgId, (tx) => deactivateUser(tx, org.orgId, deactivated.userId));
    expect((await deactivated.get('/api/user/getCompanyUsers')).status).toBe(401);
  });

  it('stops at once when the session is revoked or expired (401)', async () => {
    const org = await createOrg(t);
    const revoked = await org.as('worker');
    const expired = await org.as('worker');
    const sessionOf = (token: string) => Number(payloadOf(token).sid);
    await withTenant(t.database.db, org.orgId, async (tx) => {
      await tx
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.orgId, org.orgId), eq(sessions.id, sessionOf(revoked.token!))));
      await tx
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(and(eq(sessions.orgId, org.orgId), eq(sessions.id, sessionOf(expired.token!))));
    });
    expect((await revoked.get('/api/user/get-app-data')).status).toBe(401);
    expect((await expired.get('/api/user/get-app-data')).status).toBe(401);
  });

  it('stops at once after a password change, in every session of the user, this one too (401)', async () => {
    const org = await createOrg(t);
    const other = await signIn(org, org.email);
    expect((await org.admin.post('/api/user/verify-password', { currentPassword: org.password })).status).toBe(200);
    expect((await org.admin.post('/api/user/reset-password', { newPassword: 'NewPassw0rd!', confirmPassword: 'NewPassw0rd!' })).status).toBe(200);
    expect((await client(t.app, org.host, other.token).get('/api/user/get-app-data')).status).toBe(401);
    expect((await org.admin.get('/api/user/get-app-data')).status).toBe(401);
  });

  it('acts with the new role from the next request after a demotion (403 where the new role lacks the right)', async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker');
    const demoted = await org.as('manager');
    expect((await demoted.post('/api/auth/addUser', { email: 'a@x.example.com', confirmEmail: 'a@x.example.com', role: 'worker' })).status).toBe(201);
    const demote = await org.admin.put(`/api/user/updateUser/${demoted.userId}`, {
      firstName: 'Dee',
      email: await emailOf(org, demoted.userId),
      role: 'worker',
    });
    expect(demote.status).toBe(200);
    // still signed in (the session is theirs), but a worker now: the managers' routes say 403
    expect((await demoted.get('/api/user/get-app-data')).status).toBe(200);
    expect((await demoted.post('/api/auth/addUser', { email: 'b@x.example.com', confirmEmail: 'b@x.example.com', role: 'worker' })).status).toBe(403);
    expect((await demoted.del(`/api/user/deleteUser/${worker.userId}`)).status).toBe(403);
  });

  it('applies a change of rights made outside this process (another instance, an operator) on the next request', async () => {
    const org = await createOrg(t);
    const manager = await org.as('manager');
    const managerRoute = () => manager.get('/api/portal/settings');
    expect((await managerRoute()).status).toBe(200);
    // Written straight to the database, as another instance's commit is: nothing tells this process.
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .update(users)
        .set({ role: 'worker' })
        .where(and(eq(users.orgId, org.orgId), eq(users.id, manager.userId))),
    );
    expect((await managerRoute()).status).toBe(403);
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.orgId, org.orgId), eq(sessions.userId, manager.userId))),
    );
    expect((await manager.get('/api/user/get-app-data')).status).toBe(401);
  });

  it('keeps a demoted admin from demoting the admin who demoted them', async () => {
    const org = await createOrg(t);
    const second = await org.as('admin');
    const adminId = Number(payloadOf(org.admin.token!).sub);
    const demote = await org.admin.put(`/api/user/updateUser/${second.userId}`, {
      firstName: 'Second',
      email: await emailOf(org, second.userId),
      role: 'manager',
    });
    expect(demote.status).toBe(200);
    const back = await second.put(`/api/user/updateUser/${adminId}`, { firstName: 'First', email: org.email, role: 'manager' });
    expect(back.status).toBe(403);
    expect(back.body.error).toBe('Only an admin can edit an admin');
    expect((await second.del(`/api/user/deleteUser/${adminId}`)).status).toBe(403);
    const users = (await org.admin.get('/api/user/getCompanyUsers')).body.users as { id: number; role: string }[];
    expect(users.find((u) => u.id === adminId)?.role).toBe('admin');
  });
});

describe('the claims of an access token', () => {
  /** A token signed with the app's own secret from the claims of a real session, changed by `edit`. */
  async function craft(org: TestOrg, edit: (claims: Record<string, unknown>) => Record<string, unknown>) {
    const claims = payloadOf(org.admin.token!);
    const { iat: _iat, ...rest } = claims;
    return new SignJWT(edit({ ...rest, exp: Math.floor(Date.now() / 1000) + 600 }))
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(t.config.jwtSecret));
  }

  it('are all required and of their type: else 401', async () => {
    const org = await createOrg(t);
    const same = await craft(org, (c) => c);
    expect((await client(t.app, org.host, same).get('/api/user/get-app-data')).status).toBe(200);
    const bad = {
      'no expiry': (c: Record<string, unknown>) => ({ ...c, exp: undefined }),
      'no subject': (c: Record<string, unknown>) => ({ ...c, sub: undefined }),
      'organisation as a string': (c: Record<string, unknown>) => ({ ...c, org: String(c.org) }),
      'no organisation': (c: Record<string, unknown>) => ({ ...c, org: undefined }),
      'session as a string': (c: Record<string, unknown>) => ({ ...c, sid: String(c.sid) }),
      'no session': (c: Record<string, unknown>) => ({ ...c, sid: undefined }),
      'no token version': (c: Record<string, unknown>) => ({ ...c, ver: undefined }),
      'subject not an id': (c: Record<string, unknown>) => ({ ...c, sub: `${String(c.sub)}.0` }),
      'subject as a number': (c: Record<string, unknown>) => ({ ...c, sub: Number(c.sub) }),
      'expiry as a string': (c: Record<string, unknown>) => ({ ...c, exp: String(c.exp) }),
    };
    for (const [name, edit] of Object.entries(bad)) {
      const token = await craft(org, edit);
      expect((await client(t.app, org.host, token).get('/api/user/get-app-data')).status, name).toBe(401);
    }
  });
});
