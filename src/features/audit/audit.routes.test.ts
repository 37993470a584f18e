import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { client, createOrg, useOrgs, useTestApp } from '../../server/test/harness';
import { issueSession } from '../auth/sessions.service';
import { rowsOf } from '../../server/test/sql';
import { seedSampleData } from '../../server/seed/demo';
import { sampleBody } from '../../server/test/sample-bodies';
import { withTenant } from '../../server/db/client';
import { setClockOffset } from '../../server/clock';
import { pruneAuditLogs } from '../../server/jobs/audit-retention.job';
import { checkAuditChain, MASK } from './audit.service';
import { anchorKeysOf } from './audit-anchor';

const t = useTestApp();
const [a, b] = useOrgs(t, 'Alpha', 'Beta');

type AuditRow = { seq: number; route: string; method: string; action: string; user_id: number | null; records: unknown; input: unknown; ip: string | null };
/** Every audit row of an organisation, read as the owner (no RLS), oldest first. */
const rowsOfOrg = async (orgId: number) =>
  rowsOf<AuditRow>(
    await t.database.db.execute(sql`select seq, route, method, action, user_id, records, input, ip from audit_log where org_id = ${orgId} order by seq`),
  );
const lastRow = async (orgId: number) => (await rowsOfOrg(orgId)).at(-1);

const fill = (url: string, id: number) =>
  url
    .replace(/:entityType/g, 'user')
    .replace(/:[A-Za-z]+/g, String(id))
    .replace('*', '');
const verb = (m: string) => (m === 'DELETE' ? 'del' : m.toLowerCase()) as 'post';

describe('audit log: every write', () => {
  it('a successful write of every route of the API document leaves one audit row naming its route; a refused one none', async () => {
    const org = await createOrg(t, 'Walk');
    await seedSampleData(t.database.db, org.orgId);
    // A password change and ending one's own sessions end the caller's tokens: they come last.
    const last = (r: { url: string }) => (r.url === '/api/user/reset-password' ? 2 : /delete-session/.test(r.url) ? 1 : 0);
    const writes = t.app.apiRoutes.filter((r) => r.access !== 'public' && r.method !== 'GET').sort((x, y) => last(x) - last(y));
    const succeeded: string[] = [];
    const missing: string[] = [];
    let admin = org.admin;
    // After a route that ended the admin's own sessions, a new session as a sign-in would give (the e-mail may
    // have been changed by the walk).
    const signInAgain = async () => {
      const [me] = rowsOf<{ token_version: number }>(
        await withTenant(t.database.db, org.orgId, (tx) => tx.execute(sql`select token_version from users where org_id = ${org.orgId} and id = 1`)),
      );
      const { accessToken } = await issueSession(t.database.db, org.orgId, { id: 1, role: 'admin', tokenVersion: me.token_version }, t.config.jwtSecret);
      admin = client(t.app, org.host, accessToken);
    };
    for (const route of writes) {
      if (route.url === '/api/user/reset-password') await admin.post('/api/user/verify-password', { currentPassword: org.password });
      const before = (await rowsOfOrg(org.orgId)).length;
      const url = fill(route.url, 1);
      const body = route.body ? sampleBody(route.body, 1) : undefined;
      const res = route.method === 'DELETE' ? await admin.del(url) : await admin[verb(route.method)](url, body ?? {});
      expect(res.status, `${route.method} ${route.url}: the walk lost its token`).not.toBe(401);
      const rows = await rowsOfOrg(org.orgId);
      if (process.env.AUDIT_DEBUG) console.log(route.method, route.url, res.status, JSON.stringify(res.body).slice(0, 100));
      if (res.status < 400) {
        succeeded.push(`${route.method} ${route.url}`);
        const mine = rows.slice(before).filter((r) => r.route === route.url && r.method === route.method);
        if (!mine.length) missing.push(`${route.method} ${route.url} -> ${res.status}`);
      } else {
        expect(rows.length, `${route.method} ${route.url} refused with ${res.status} but audited`).toBe(before);
      }
      if (/delete-session/.test(route.url)) await signInAgain();
    }
    expect(missing).toEqual([]);
    expect(succeeded.length).toBeGreaterThan(30);
    // The walk changed the admin's password and e-mail: the check is read through the service.
    const check = await withTenant(t.database.db, org.orgId, (tx) => checkAuditChain(tx, org.orgId, anchorKeysOf(t.config)), { readOnly: true });
    expect(check).toMatchObject({ ok: true, broken: null });
  });

  it('records who, from where, the record and its fields old -> new', async () => {
    const added = await a.admin.post('/api/teams/add-team', { name: 'Night shift', members: [{ workerId: 1 }] });
    expect(added.status).toBeLessThan(300);
    const row = await lastRow(a.orgId);
    expect(row).toMatchObject({ route: '/api/teams/add-team', method: 'POST', user_id: 1, action: 'create' });
    expect(row!.ip).toBeTruthy();
    const list = await a.admin.get('/api/audit-log/list-audit-log?entityType=team');
    expect(list.status).toBe(200);
    expect(list.body.entries[0]).toMatchObject({ route: '/api/teams/add-team', user: { id: 1 }, entityType: 'team' });
  });

  it('sign-ins and failed sign-ins are logged, the password never', async () => {
    const ok = await a.anonymous.post('/api/login', { email: a.email, password: a.password });
    expect(ok.status).toBe(200);
    expect(await lastRow(a.orgId)).toMatchObject({ action: 'sign-in', user_id: 1 });
    const bad = await a.anonymous.post('/api/login', { email: a.email, password: 'wrong-password-1' });
    expect(bad.status).toBe(401);
    const row = await lastRow(a.orgId);
    expect(row).toMatchObject({ action: 'sign-in-failed', user_id: null });
    expect(row!.input).toEqual({ email: a.email, password: MASK });
    const all = JSON.stringify(await rowsOfOrg(a.orgId));
    expect(all).not.toContain(a.password);
    expect(all).not.toContain('wrong-password-1');
  });

  it('a rolled-back write leaves no row', async () => {
    const before = (await rowsOfOrg(a.orgId)).length;
    const res = await a.admin.post('/api/teams/add-team', { name: '', members: [] });
    expect(res.status).toBe(400);
    const missingRecord = await a.admin.del('/api/teams/delete-team/9999');
    expect(missingRecord.status).toBe(404);
    expect((await rowsOfOrg(a.orgId)).length).toBe(before);
  });
});

describe('audit log: the chain', () => {
  it('the check passes, then catches an edited row and a deleted row', async () => {
    const org = await createOrg(t, 'Chain');
    for (const name of ['One', 'Two', 'Three', 'Four'])
      expect((await org.admin.post('/api/teams/add-team', { name, members: [{ workerId: 1 }] })).status).toBe(201);
    const ok = await org.admin.get('/api/audit-log/check-audit-chain');
    expect(ok.body.check).toMatchObject({ ok: true, broken: null });
    const rows = await rowsOfOrg(org.orgId);
    const victim = rows[2];
    // An owner's connection edits a row (the app's role may not).
    await t.database.db.execute(sql`update audit_log set ip = '10.9.9.9' where org_id = ${org.orgId} and seq = ${victim.seq}`);
    const edited = await org.admin.get('/api/audit-log/check-audit-chain');
    expect(edited.body.check).toMatchObject({ ok: false, broken: { seq: victim.seq, reason: 'edited' } });
    await t.database.db.execute(sql`update audit_log set ip = ${victim.ip} where org_id = ${org.orgId} and seq = ${victim.seq}`);
    expect((await org.admin.get('/api/audit-log/check-audit-chain')).body.check.ok).toBe(true);
    await t.database.db.execute(sql`delete from audit_log where org_id = ${org.orgId} and seq = ${victim.seq}`);
    const deleted = await org.admin.get('/api/audit-log/check-audit-chain');
    expect(deleted.body.check).toMatchObject({ ok: false, broken: { seq: victim.seq, reason: 'missing' } });
  });

  it('catches the last rows deleted', async () => {
    const org = await createOrg(t, 'Tail');
    await org.admin.post('/api/teams/add-team', { name: 'One', members: [{ workerId: 1 }] });
    const rows = await rowsOfOrg(org.orgId);
    await t.database.db.execute(sql`delete from audit_log where org_id = ${org.orgId} and seq = ${rows.at(-1)!.seq}`);
    const check = await org.admin.get('/api/audit-log/check-audit-chain');
    expect(check.body.check).toMatchObject({ ok: false, broken: { reason: 'tail' } });
  });

  it("the app's database role can neither update nor delete audit rows", async () => {
    await expect(withTenant(t.database.db, a.orgId, (tx) => tx.execute(sql`update audit_log set ip = 'x' where org_id = ${a.orgId}`))).rejects.toThrow();
    await expect(withTenant(t.database.db, a.orgId, (tx) => tx.execute(sql`delete from audit_log where org_id = ${a.orgId}`))).rejects.toThrow();
    expect((await a.admin.get('/api/audit-log/check-audit-chain')).body.check.ok).toBe(true);
  });

  it('retention removes old rows and leaves a signed anchor: the chain check still passes; a forged anchor fails it', async () => {
    const org = await createOrg(t, 'Retention');
    await org.admin.post('/api/teams/add-team', { name: 'Old', members: [{ workerId: 1 }] });
    const saved = await org.admin.put('/api/audit-log/update-audit-settings', { retentionMonths: 1 });
    expect(saved.status).toBe(200);
    expect((await org.admin.get('/api/audit-log/get-audit-settings')).body.settings).toEqual({ retentionMonths: 1 });
    const before = await rowsOfOrg(org.orgId);
    try {
      setClockOffset(40 * 86_400_000);
      await pruneAuditLogs(t.database, anchorKeysOf(t.config));
    } finally {
      setClockOffset(0);
    }
    const after = await rowsOfOrg(org.orgId);
    expect(after.length).toBeLessThan(before.length);
    const check = await org.admin.get('/api/audit-log/check-audit-chain');
    expect(check.body.check).toMatchObject({ ok: true, anchorSeq: before.at(-1)!.seq });
    await t.database.db.execute(sql`update audit_heads set anchor_hash = 'forged' where org_id = ${org.orgId}`);
    expect((await org.admin.get('/api/audit-log/check-audit-chain')).body.check).toMatchObject({ ok: false, broken: { reason: 'anchor' } });
  });
});

describe('audit log: what the chain covers', () => {
  it('an edit of any column of a row (or of its link) is caught, and putting it back mends it', async () => {
    const org = await createOrg(t, 'Columns');
    await org.admin.post('/api/teams/add-team', { name: 'One', members: [{ workerId: 1 }] });
    const victim = (await lastRow(org.orgId))!.seq;
    // Each column with an edit that keeps its type; the hash is over all but `hash` itself, which is then wrong.
    const edits: Record<string, string> = {
      created_at: `created_at + interval '1 second'`,
      actor_kind: `'public'`,
      user_id: `null`,
      api_key_id: `7`,
      actor_label: `'someone'`,
      ip: `'10.1.1.1'`,
      user_agent: `'curl'`,
      method: `'PUT'`,
      route: `'/api/teams/other'`,
      action: `'delete'`,
      entity_type: `'asset'`,
      entity_id: `99`,
      records: `'[]'::jsonb`,
      input: `'{"name":"Two"}'::jsonb`,
      prev_hash: `md5('x')`,
      hash: `md5('y')`,
    };
    for (const [column, value] of Object.entries(edits)) {
      const [saved] = rowsOf<Record<string, unknown>>(
        await t.database.db.execute(sql`select ${sql.identifier(column)}::text as v from audit_log where org_id = ${org.orgId} and seq = ${victim}`),
      );
      await t.database.db.execute(sql`update audit_log set ${sql.identifier(column)} = ${sql.raw(value)} where org_id = ${org.orgId} and seq = ${victim}`);
      const check = (await org.admin.get('/api/audit-log/check-audit-chain')).body.check;
      expect(check, `an edit of ${column}`).toMatchObject({ ok: false, broken: { seq: victim } });
      await t.database.db.execute(
        sql`update audit_log set ${sql.identifier(column)} = ${saved.v}::${sql.raw(columnType(column))} where org_id = ${org.orgId} and seq = ${victim}`,
      );
      expect((await org.admin.get('/api/audit-log/check-audit-chain')).body.check, `${column} put back`).toMatchObject({ ok: true });
    }
  });

  it('retention removes only the rows older than the setting: the newer ones stay and the anchor is the last removed', async () => {
    const org = await createOrg(t, 'Cutoff');
    await org.admin.post('/api/teams/add-team', { name: 'Old', members: [{ workerId: 1 }] });
    expect((await org.admin.put('/api/audit-log/update-audit-settings', { retentionMonths: 1 })).status).toBe(200);
    const old = await rowsOfOrg(org.orgId);
    await new Promise((r) => setTimeout(r, 50));
    const between = new Date();
    await new Promise((r) => setTimeout(r, 50));
    await org.admin.post('/api/teams/add-team', { name: 'New', members: [{ workerId: 1 }] });
    await org.admin.post('/api/teams/add-team', { name: 'Newer', members: [{ workerId: 1 }] });
    const all = await rowsOfOrg(org.orgId);
    // The run's time whose cutoff (one month before, as the service counts months) falls between the two groups.
    const at = new Date(between);
    at.setUTCMonth(at.getUTCMonth() + 1);
    const cutoff = new Date(at);
    cutoff.setUTCMonth(cutoff.getUTCMonth() - 1);
    at.setTime(at.getTime() + (between.getTime() - cutoff.getTime()));
    await pruneAuditLogs(t.database, anchorKeysOf(t.config), at);
    const kept = await rowsOfOrg(org.orgId);
    expect(kept.map((r) => r.seq)).toEqual(all.slice(old.length).map((r) => r.seq));
    const check = await org.admin.get('/api/audit-log/check-audit-chain');
    expect(check.body.check).toMatchObject({ ok: true, anchorSeq: old.at(-1)!.seq, checked: kept.length });
  });
});

/** The SQL type of an audit_log column, to put a saved text value back. */
const columnType = (column: string) =>
  ({ created_at: 'timestamptz', user_id: 'int', api_key_id: 'int', entity_id: 'int', records: 'jsonb', input: 'jsonb' })[column] ?? 'text';

describe('audit log: access', () => {
  it("another organisation's log is never visible, and only admins read it", async () => {
    expect((await b.admin.post('/api/teams/add-team', { name: 'Beta secret team', members: [{ workerId: 1 }] })).status).toBe(201);
    const listA = await a.admin.get('/api/audit-log/list-audit-log?pageSize=100');
    expect(JSON.stringify(listA.body)).not.toContain('Beta secret team');
    const csvA = await a.admin.get('/api/audit-log/export-audit-log');
    expect(csvA.status).toBe(200);
    expect(String(csvA.headers['content-type'])).toContain('text/csv');
    expect(String(csvA.body)).not.toContain('Beta secret team');
    expect(String(csvA.body)).toContain('/api/teams/add-team');
    const manager = await a.as('manager');
    expect((await manager.get('/api/audit-log/list-audit-log')).status).toBe(403);
    expect((await manager.get('/api/audit-log/check-audit-chain')).status).toBe(403);
  });

  it('filters by person, action, record and dates', async () => {
    const worker = await a.as('worker');
    const signIns = await a.admin.get(`/api/audit-log/list-audit-log?action=sign-in&userId=${worker.userId}`);
    expect(signIns.body.entries.length).toBe(1);
    const today = new Date().toISOString().slice(0, 10);
    const todays = await a.admin.get(`/api/audit-log/list-audit-log?from=${today}&to=${today}`);
    expect(todays.body.pagination.totalRecords).toBeGreaterThan(0);
    const none = await a.admin.get(`/api/audit-log/list-audit-log?from=2000-01-01&to=2000-01-02`);
    expect(none.body.pagination.totalRecords).toBe(0);
    expect((await a.admin.get('/api/audit-log/list-audit-log?from=yesterday')).status).toBe(400);
  });
});
