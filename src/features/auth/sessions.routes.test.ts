import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { client, createOrg, useTestApp } from '../../server/test/harness';
import { withTenant } from '../../server/db/client';
import { sessions } from '../../server/db/schema';

const t = useTestApp();

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const cookieOf = (headers: Record<string, unknown>) => /refresh_token=([^;]*)/.exec([headers['set-cookie']].flat().join('\n'))?.[1];

describe('sessions (signed-in devices)', () => {
  it('lists a person’s devices with browser, system, address and last seen, and ends one: its refresh then fails', async () => {
    const org = await createOrg(t);
    const phone = await org.anonymous.post('/api/login', { email: org.email, password: org.password }, { 'user-agent': FIREFOX });
    const phoneCookie = `refresh_token=${cookieOf(phone.headers)}`;

    const list = await org.admin.get('/api/auth/list-sessions');
    expect(list.status).toBe(200);
    expect(list.body.sessions).toHaveLength(2);
    const current = list.body.sessions.find((s: { current: boolean }) => s.current);
    const other = list.body.sessions.find((s: { current: boolean }) => !s.current);
    expect(other).toMatchObject({ browser: 'Firefox 133', os: 'Linux', ipAddress: '127.0.0.1' });
    expect(Date.parse(other.lastSeenAt)).toBeGreaterThan(0);
    expect(current).toBeTruthy();

    // a refresh moves "last seen"
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .update(sessions)
        .set({ lastSeenAt: new Date('2026-01-01T00:00:00Z') })
        .where(eq(sessions.orgId, org.orgId)),
    );
    const refreshed = await org.anonymous.post('/api/refresh', {}, { cookie: phoneCookie });
    expect(refreshed.status).toBe(200);
    const seen = (await org.admin.get('/api/auth/list-sessions')).body.sessions.find((s: { id: number }) => s.id === other.id);
    expect(Date.parse(seen.lastSeenAt)).toBeGreaterThan(Date.parse('2026-01-02T00:00:00Z'));

    const ended = await org.admin.del(`/api/auth/delete-session/${other.id}`);
    expect(ended.status).toBe(200);
    expect(ended.body.sessions.map((s: { id: number }) => s.id)).toEqual([current.id]);
    const newCookie = `refresh_token=${cookieOf(refreshed.headers)}`;
    expect((await org.anonymous.post('/api/refresh', {}, { cookie: newCookie })).status).toBe(401);
    expect((await client(t.app, org.host, refreshed.body.accessToken).get('/api/user/get-app-data')).status).toBe(401);
    // ended already: 404
    expect((await org.admin.del(`/api/auth/delete-session/${other.id}`)).status).toBe(404);
  });

  it('a person cannot end another person’s session; another organisation gets 404 and changes nothing', async () => {
    const org = await createOrg(t);
    const other = await createOrg(t, 'Other');
    const worker = await org.as('worker');
    const adminSessions = (await org.admin.get('/api/auth/list-sessions')).body.sessions;
    expect(adminSessions).toHaveLength(1);
    const adminSession = adminSessions[0].id;

    const workerSession = (await worker.get('/api/auth/list-sessions')).body.sessions[0].id;
    expect(workerSession).not.toBe(adminSession);
    expect((await worker.del(`/api/auth/delete-session/${adminSession}`)).status).toBe(404);
    // session ids count per organisation: the other organisation's admin holds only session 1
    expect((await other.admin.del(`/api/auth/delete-session/${workerSession}`)).status).toBe(404);
    expect((await worker.post(`/api/user/delete-sessions/${worker.userId}`)).status).toBe(403);
    expect((await other.admin.post(`/api/user/delete-sessions/${worker.userId}`)).status).toBe(404);
    expect((await org.admin.get('/api/user/get-app-data')).status).toBe(200);
    expect((await worker.get('/api/user/get-app-data')).status).toBe(200);
    expect((await worker.get('/api/auth/list-sessions')).body.sessions).toHaveLength(1);
    expect((await other.admin.get('/api/user/get-app-data')).status).toBe(200);
  });

  it('lets an admin end every session of a person', async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker');
    const ended = await org.admin.post(`/api/user/delete-sessions/${worker.userId}`);
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ message: 'Sessions ended', ended: 1 });
    expect((await worker.get('/api/user/get-app-data')).status).toBe(401);
    expect((await org.admin.get('/api/user/get-app-data')).status).toBe(200);
  });
});
