import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { client, createOrg, useTestApp } from '../../server/test/harness';
import { sql } from 'drizzle-orm';
import { withoutTenant, withTenant } from '../../server/db/client';
import { organizations, sessions } from '../../server/db/schema';
import { badRequestIssues, firstIssuesOf } from '../../server/test/issues-of';

const t = useTestApp({ loginLimits: { perIp: 1_000_000, perAccount: 3, windowSeconds: 900 } });

const root = () => client(t.app, t.config.baseDomain);
const cookieOf = (headers: Record<string, unknown>) => {
  const raw = headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [String(raw)] : [];
  return /refresh_token=([^;]*)/.exec(list.join('\n'))?.[1];
};
const valid = (sub: string) => ({
  organization: 'Acme Plant',
  email: `boss@${sub}.example.com`,
  password: 'Passw0rd!long',
  subdomainName: sub,
  numberOfWorkers: 12,
  consent: true,
});

describe('POST /api/signup', () => {
  it('gives every registration message of the spec', async () => {
    const empty = await root().post('/api/signup', {});
    expect(badRequestIssues(empty, firstIssuesOf)).toEqual({
      organization: 'This field is required',
      email: 'Email is required',
      password: 'Password is required',
      subdomainName: 'This field is required',
      numberOfWorkers: 'This field is required',
      consent: 'This field is required',
    });
    const short = await root().post('/api/signup', {
      organization: 'ab',
      email: 'nope',
      password: 'short',
      subdomainName: 'ab',
      numberOfWorkers: 'x1',
      consent: false,
    });
    expect(firstIssuesOf(short.body)).toEqual({
      organization: 'Must be at least 3 characters',
      email: 'Invalid email address',
      password: 'Password must be at least 8 characters',
      subdomainName: 'Must be at least 3 characters',
      numberOfWorkers: 'Only numbers are allowed',
      consent: 'This field is required',
    });
    const zero = await root().post('/api/signup', { ...valid('zeroworkers'), numberOfWorkers: '0' });
    expect(firstIssuesOf(zero.body)).toEqual({ numberOfWorkers: 'The number must be greater than 0' });
    const blank = await root().post('/api/signup', { ...valid('blankworkers'), numberOfWorkers: '' });
    expect(firstIssuesOf(blank.body)).toEqual({ numberOfWorkers: 'This field is required' });
  });

  it('refuses reserved, malformed and taken subdomains, and unknown fields', async () => {
    expect(firstIssuesOf((await root().post('/api/signup', valid('www'))).body)).toEqual({ subdomainName: 'This subdomain is reserved' });
    expect(firstIssuesOf((await root().post('/api/signup', valid('-bad-'))).body)).toEqual({ subdomainName: 'Use lowercase letters, digits and hyphens only' });
    expect((await root().post('/api/signup', { ...valid('extrafield'), role: 'admin' })).status).toBe(400);
    const sub = `s${Date.now().toString(36)}`;
    const first = await root().post('/api/signup', valid(sub));
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ subdomain: sub, loginUrl: `http://${sub}.${t.config.baseDomain}/login` });
    const again = await root().post('/api/signup', { ...valid(sub.toUpperCase()), email: 'x@y.example.com' });
    expect(again.status).toBe(409);
    expect(firstIssuesOf(again.body)).toEqual({ subdomainName: 'This subdomain is already taken' });
  });

  it('writes the organisation and its admin together: a failure writing the admin leaves no organisation behind', async () => {
    // A trigger refuses this one admin's row, as a failure between the two writes would.
    const db = t.database.db;
    await db.execute(
      sql.raw(`create or replace function test_refuse_signup_admin() returns trigger language plpgsql as $$
      begin if new.email = 'refused@halfway.example.com' then raise exception 'refused by the test'; end if; return new; end $$`),
    );
    await db.execute(sql.raw(`create trigger test_refuse_signup_admin before insert on users for each row execute function test_refuse_signup_admin()`));
    try {
      const sub = `h${Date.now().toString(36)}`;
      const res = await root().post('/api/signup', { ...valid(sub), email: 'refused@halfway.example.com' });
      expect(res.status).toBe(500);
      const left = await withoutTenant(db, (tx) => tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, sub)));
      expect(left).toEqual([]);
      // The subdomain is still free: the same signup with another e-mail succeeds.
      expect((await root().post('/api/signup', valid(sub))).status).toBe(201);
    } finally {
      await db.execute(sql.raw(`drop trigger test_refuse_signup_admin on users`));
      await db.execute(sql.raw(`drop function test_refuse_signup_admin()`));
    }
  });
});

describe('POST /api/search-subdomain', () => {
  it('finds an organisation (any case) and answers 404 with a message otherwise', async () => {
    const org = await createOrg(t);
    const found = await root().post('/api/search-subdomain', { subdomain: org.subdomain.toUpperCase() });
    expect(found.status).toBe(200);
    expect(found.body.loginUrl).toBe(`http://${org.subdomain}.${t.config.baseDomain}/login`);
    const missing = await root().post('/api/search-subdomain', { subdomain: 'nobody-here' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Subdomain not found');
  });
});

describe('sessions', () => {
  it('signs in only on the organisation’s host, with one generic failure text', async () => {
    const org = await createOrg(t);
    expect((await root().post('/api/login', { email: org.email, password: org.password })).status).toBe(404);
    const wrong = await org.anonymous.post('/api/login', { email: org.email, password: 'wrong-password' });
    const unknown = await org.anonymous.post('/api/login', { email: 'ghost@example.com', password: 'wrong-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('Invalid email or password');
    expect(unknown.body.error).toBe('Invalid email or password');
    // the login form's schema: a password shorter than the sign-up's 8 characters is refused with the spec's message
    const short = await org.anonymous.post('/api/login', { email: org.email, password: 'Short1!' });
    expect(badRequestIssues(short, firstIssuesOf)).toEqual({ password: 'Password must be at least 8 characters' });
  });

  it('limits attempts per account with a clear 429', async () => {
    const org = await createOrg(t);
    for (let i = 0; i < 3; i += 1) await org.anonymous.post('/api/login', { email: org.email, password: 'wrong-password' });
    const limited = await org.anonymous.post('/api/login', { email: org.email, password: org.password });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatch(/^Too many login attempts\. Please try again in \d+ minutes?\.$/);
  });

  it('rotates the refresh token, honours the old one for the grace window, then revokes the session on reuse', async () => {
    const org = await createOrg(t);
    const login = await org.anonymous.post('/api/login', { email: org.email, password: org.password });
    const first = cookieOf(login.headers)!;
    expect(first).toBeTruthy();
    expect(String(login.headers['set-cookie'])).toMatch(/HttpOnly/i);
    expect(String(login.headers['set-cookie'])).toMatch(/SameSite=Strict/i);
    expect(String(login.headers['set-cookie'])).toMatch(/Path=\/api/);

    const rotated = await org.anonymous.post('/api/refresh', {}, { cookie: `refresh_token=${first}` });
    expect(rotated.status).toBe(200);
    const second = cookieOf(rotated.headers)!;
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);
    expect(typeof rotated.body.accessToken).toBe('string');

    // a concurrent tab presenting the old token within 30 s: a token, no new cookie
    const grace = await org.anonymous.post('/api/refresh', {}, { cookie: `refresh_token=${first}` });
    expect(grace.status).toBe(200);

    // later, the old token is a theft signal: the whole session is revoked
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .update(sessions)
        .set({ rotatedAt: new Date(Date.now() - 60_000) })
        .where(eq(sessions.orgId, org.orgId)),
    );
    const reuse = await org.anonymous.post('/api/refresh', {}, { cookie: `refresh_token=${first}` });
    expect(reuse.status).toBe(401);
    const current = await org.anonymous.post('/api/refresh', {}, { cookie: `refresh_token=${second}` });
    expect(current.status).toBe(401);
  });

  it('checks Origin on refresh and logout, and logout ends the session', async () => {
    const org = await createOrg(t);
    const login = await org.anonymous.post('/api/login', { email: org.email, password: org.password });
    const cookie = `refresh_token=${cookieOf(login.headers)}`;
    const foreign = await org.anonymous.post('/api/refresh', {}, { cookie, origin: 'http://evil.example.com' });
    expect(foreign.status).toBe(403);
    const out = await org.anonymous.post('/api/logout', {}, { cookie, origin: `http://${org.host}` });
    expect(out.status).toBe(200);
    expect((await org.anonymous.post('/api/refresh', {}, { cookie })).status).toBe(401);
    expect((await org.anonymous.post('/api/refresh', {})).body.error).toBe('Session expired, please sign in again');
  });

  it('refuses a token of one organisation on another organisation’s host', async () => {
    const a = await createOrg(t, 'A');
    const b = await createOrg(t, 'B');
    const stolen = client(t.app, b.host, a.admin.token);
    expect((await stolen.get('/api/user/get-app-data')).status).toBe(401);
    expect((await stolen.get('/api/user/getCompanyUsers')).status).toBe(401);
    expect((await client(t.app, t.config.baseDomain, a.admin.token).get('/api/user/get-app-data')).status).toBe(401);
    expect((await a.admin.get('/api/user/get-app-data')).status).toBe(200);
  });
});

describe('password change', () => {
  it('needs a verified current password within the window, then revokes the other sessions', async () => {
    const org = await createOrg(t);
    const otherLogin = await org.anonymous.post('/api/login', { email: org.email, password: org.password });
    const otherCookie = `refresh_token=${cookieOf(otherLogin.headers)}`;

    const early = await org.admin.post('/api/user/reset-password', { newPassword: 'NewPassw0rd!', confirmPassword: 'NewPassw0rd!' });
    expect(early.status).toBe(403);
    expect(early.body.error).toBe('Please verify your current password first');

    const short = await org.admin.post('/api/user/verify-password', { currentPassword: 'short' });
    expect(firstIssuesOf(short.body)).toEqual({ currentPassword: 'Password must be at least 8 characters' });
    const wrong = await org.admin.post('/api/user/verify-password', { currentPassword: 'not-the-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('Current password is incorrect');
    expect(firstIssuesOf(wrong.body)).toEqual({ currentPassword: 'Current password is incorrect' });

    expect((await org.admin.post('/api/user/verify-password', { currentPassword: org.password })).status).toBe(200);
    const mismatch = await org.admin.post('/api/user/reset-password', { newPassword: 'NewPassw0rd!', confirmPassword: 'Other0000' });
    expect(firstIssuesOf(mismatch.body)).toEqual({ confirmPassword: "Passwords don't match" });
    const tooShort = await org.admin.post('/api/user/reset-password', { newPassword: 'short', confirmPassword: 'short' });
    expect(firstIssuesOf(tooShort.body)).toEqual({ newPassword: 'Password must be at least 8 characters' });
    const done = await org.admin.post('/api/user/reset-password', { newPassword: 'NewPassw0rd!', confirmPassword: 'NewPassw0rd!' });
    expect(done.status).toBe(200);
    expect(done.body.message).toBe('Password has been updated successfully');

    // every access token signed before the change stops at once (this session's too: it refreshes), the other
    // session is gone, the new password works, and the window closes after one change (decision 021)
    expect((await org.admin.post('/api/user/reset-password', { newPassword: 'Another1234', confirmPassword: 'Another1234' })).status).toBe(401);
    expect((await org.admin.get('/api/user/get-app-data')).status).toBe(401);
    expect((await org.anonymous.post('/api/refresh', {}, { cookie: otherCookie })).status).toBe(401);
    expect((await org.anonymous.post('/api/login', { email: org.email, password: org.password })).status).toBe(401);
    const again = await org.anonymous.post('/api/login', { email: org.email, password: 'NewPassw0rd!' });
    expect(again.status).toBe(200);
    const fresh = client(t.app, org.host, again.body.accessToken);
    expect((await fresh.post('/api/user/reset-password', { newPassword: 'Another1234', confirmPassword: 'Another1234' })).status).toBe(403);
  });

  it('expires the verification after five minutes', async () => {
    const org = await createOrg(t);
    expect((await org.admin.post('/api/user/verify-password', { currentPassword: org.password })).status).toBe(200);
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .update(sessions)
        .set({ passwordVerifiedAt: new Date(Date.now() - 6 * 60_000) })
        .where(eq(sessions.orgId, org.orgId)),
    );
    expect((await org.admin.post('/api/user/reset-password', { newPassword: 'NewPassw0rd!', confirmPassword: 'NewPassw0rd!' })).status).toBe(403);
  });
});

describe('POST /api/demo-requests', () => {
  it('stores a request and gives the field messages', async () => {
    expect(firstIssuesOf((await root().post('/api/demo-requests', {})).body)).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      company: 'Company is required',
    });
    const ok = await root().post('/api/demo-requests', { name: 'Dana', email: 'dana@example.com', company: 'Plant' });
    expect(ok.status).toBe(201);
  });
});
