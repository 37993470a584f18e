import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createOrg, createTestApp, type TestApp } from '../../server/test/harness';
import { rowsOf } from '../../server/test/sql';
import { insertPump } from '../../server/test/builders';
import { dailyPlan } from '../../server/test/fixtures';
import { withTenant } from '../../server/db/client';
import { setClockOffset } from '../../server/clock';
import { runPmGenerator } from '../../server/jobs/pm-generator.job';
import { runStockReorder } from '../../server/jobs/stock-reorder.job';
import { pruneAuditLogs } from '../../server/jobs/audit-retention.job';
import { commercialRows } from '../commercial-documents/test-fixtures';
import { anchorKeysOf, createAnchorKeys, legacyAnchorSignature } from './audit-anchor';
import { checkAuditChain, MASK } from './audit.service';

/**
 * Audit rows that no request of an organisation writes (decision 078 addendum): the sign-up (the organisation and its
 * admin created), the background jobs that change records people see (actor "system"), and the retention anchors
 * signed under ENCRYPTION_KEY's derived key (old JWT_SECRET anchors still verified).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => setClockOffset(0));

type Row = {
  seq: number;
  actor_kind: string;
  actor_label: string | null;
  user_id: number | null;
  route: string;
  method: string;
  action: string;
  records: { entityType: string; entityId: number; action: string }[];
  input: Record<string, unknown> | null;
  ip: string | null;
};
const rowsOfOrg = async (orgId: number) =>
  rowsOf<Row>(
    await t.database.db.execute(
      sql`select seq, actor_kind, actor_label, user_id, route, method, action, records, input, ip from audit_log where org_id = ${orgId} order by seq`,
    ),
  );
const check = (orgId: number, keys = anchorKeysOf(t.config)) => withTenant(t.database.db, orgId, (tx) => checkAuditChain(tx, orgId, keys), { readOnly: true });

describe('audit rows without a request of the organisation', () => {
  it('sign-up: the chain starts with the organisation and its admin created, by the person signing up, password masked', async () => {
    const org = await createOrg(t, 'Signup');
    const [first] = await rowsOfOrg(org.orgId);
    expect(first).toMatchObject({ seq: 1, actor_kind: 'user', user_id: 1, actor_label: org.email, route: '/api/signup', method: 'POST', action: 'sign-up' });
    expect(first.ip).toBeTruthy();
    expect(first.records.map((r) => [r.entityType, r.entityId, r.action])).toEqual([
      ['organization', org.orgId, 'created'],
      ['user', 1, 'created'],
    ]);
    expect(first.input).toMatchObject({ email: org.email, password: MASK, subdomainName: org.subdomain });
    expect(JSON.stringify(first)).not.toContain(org.password);
    const list = await org.admin.get(`/api/audit-log/list-audit-log?entityType=organization&entityId=${org.orgId}`);
    expect(list.body.entries.map((e: { action: string }) => e.action)).toContain('sign-up');
    expect(await check(org.orgId)).toMatchObject({ ok: true });
  });

  it('the preventive maintenance generator: one row per run that created orders, actor "system", naming each order', async () => {
    const org = await createOrg(t, 'Pm');
    const assetId = await withTenant(t.database.db, org.orgId, async (tx) => (await insertPump(tx, org.orgId)).id);
    setClockOffset(Date.parse('2031-05-01T10:00:00Z') - Date.now());
    const plan = await org.admin.post('/api/pm-plans/add-plan', dailyPlan(assetId));
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const before = (await rowsOfOrg(org.orgId)).length;
    await runPmGenerator(t.database, undefined, new Date('2031-05-03T10:00:00Z'));
    const rows = (await rowsOfOrg(org.orgId)).slice(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor_kind: 'system', actor_label: 'system', user_id: null, method: 'JOB', route: 'job:pm-generator', action: 'create' });
    expect(rows[0].records[0]).toMatchObject({ entityType: 'work-order', action: 'created' });
    // A run with nothing due writes nothing.
    await runPmGenerator(t.database, undefined, new Date('2031-05-03T10:00:00Z'));
    expect((await rowsOfOrg(org.orgId)).length).toBe(before + 1);
    expect(await check(org.orgId)).toMatchObject({ ok: true });
  });

  it('the stock reorder job: the drafted purchase order in a "system" row; a run drafting nothing writes none', async () => {
    const org = await createOrg(t, 'Reorder');
    const r = await commercialRows(t, org.orgId);
    const main = (await org.admin.post('/api/stock/add-location', { name: 'Main store', kind: 'storeroom' })).body.location as { id: number };
    expect((await org.admin.put('/api/stock/update-part-stock-settings', { partId: r.part.id, preferredVendorId: r.vendor.id })).status).toBe(200);
    expect(
      (await org.admin.put('/api/stock/update-stock-level', { partId: r.part.id, locationId: main.id, reorderPoint: 5, reorderQuantity: 10 })).status,
    ).toBe(200);
    const before = (await rowsOfOrg(org.orgId)).length;
    expect(await runStockReorder(t.database)).toMatchObject({ failed: 0 });
    const rows = (await rowsOfOrg(org.orgId)).slice(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor_kind: 'system', route: 'job:stock-reorder', method: 'JOB' });
    expect(rows[0].records.map((x) => x.entityType)).toContain('purchase-order');
    await runStockReorder(t.database);
    expect((await rowsOfOrg(org.orgId)).length).toBe(before + 1);
    const listed = await org.admin.get('/api/audit-log/list-audit-log?entityType=purchase-order');
    expect(listed.body.entries[0]).toMatchObject({ actorKind: 'system', user: null });
  });
});

describe('retention anchors under ENCRYPTION_KEY (decision 083)', () => {
  async function prunedOrg(name: string) {
    const org = await createOrg(t, name);
    await org.admin.post('/api/teams/add-team', { name: 'Old', members: [{ workerId: 1 }] });
    expect((await org.admin.put('/api/audit-log/update-audit-settings', { retentionMonths: 1 })).status).toBe(200);
    return org;
  }
  const prune = async (keys = anchorKeysOf(t.config)) => {
    try {
      setClockOffset(40 * 86_400_000);
      await pruneAuditLogs(t.database, keys);
    } finally {
      setClockOffset(0);
    }
  };
  const head = async (orgId: number) =>
    rowsOf<{ anchor_seq: number; anchor_hash: string; anchor_signature: string }>(
      await t.database.db.execute(sql`select anchor_seq, anchor_hash, anchor_signature from audit_heads where org_id = ${orgId}`),
    )[0];

  it('are signed with a key named by its id, not JWT_SECRET: a changed JWT_SECRET still verifies them, a changed key with the old one kept too', async () => {
    const org = await prunedOrg('Anchor');
    await prune();
    const anchor = await head(org.orgId);
    expect(anchor.anchor_seq).toBeGreaterThan(0);
    expect(anchor.anchor_signature).toMatch(/^v2\.[0-9a-f]{8}\.[0-9a-f]{64}$/);
    const keys = t.config.encryptionKeys;
    expect(await check(org.orgId, createAnchorKeys(keys, 'another-jwt-secret-entirely-0123456789'))).toMatchObject({ ok: true, anchorSeq: anchor.anchor_seq });
    const moved = createAnchorKeys({ current: 'a-new-encryption-key-0123456789abcdef', previous: [keys.current] }, t.config.jwtSecret);
    expect(await check(org.orgId, moved)).toMatchObject({ ok: true });
    // Without the key that signed it, the anchor does not verify.
    const lost = createAnchorKeys({ current: 'a-new-encryption-key-0123456789abcdef', previous: [] }, t.config.jwtSecret);
    expect(await check(org.orgId, lost)).toMatchObject({ ok: false, broken: { reason: 'anchor' } });
  });

  it('an anchor signed before (HMAC under JWT_SECRET) still verifies; altered, it fails', async () => {
    const org = await prunedOrg('Legacy');
    await prune();
    const anchor = await head(org.orgId);
    const old = legacyAnchorSignature(t.config.jwtSecret, org.orgId, anchor.anchor_seq, anchor.anchor_hash);
    await t.database.db.execute(sql`update audit_heads set anchor_signature = ${old} where org_id = ${org.orgId}`);
    expect((await org.admin.get('/api/audit-log/check-audit-chain')).body.check).toMatchObject({ ok: true, anchorSeq: anchor.anchor_seq });
    const forged = `${old.slice(0, -1)}${old.endsWith('0') ? '1' : '0'}`;
    await t.database.db.execute(sql`update audit_heads set anchor_signature = ${forged} where org_id = ${org.orgId}`);
    expect((await org.admin.get('/api/audit-log/check-audit-chain')).body.check).toMatchObject({ ok: false, broken: { reason: 'anchor' } });
  });
});
