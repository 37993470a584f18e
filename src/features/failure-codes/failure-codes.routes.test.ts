import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { withTenant } from '../../server/db/client';
import { assets, failureCodes, pmOccurrences, pmPlans, webhookDeliveries, workOrders } from '../../server/db/schema';
import { createOrg, useTestApp, type TestOrg } from '../../server/test/harness';
import { setClockOffset } from '../../server/clock';
import { masterRows } from '../assets/test-fixtures';
import { starterLibrary } from './starter-library';
import { FAILURE_CODE_MESSAGES as M } from './failure-codes.schema';

const t = useTestApp();

type Client = TestOrg['admin'];
const at = (iso: string) => new Date(iso);

async function code(c: Client, body: Record<string, unknown>): Promise<number> {
  const res = await c.post('/api/failure-codes/add-failure-code', body);
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.failureCode.id;
}

/** Two categories, an asset in each, and a chain problem > cause > remedy for the pumps. */
async function setUp(org: TestOrg) {
  const m = await masterRows(t, org.orgId, 'F');
  const [pump, motor] = await withTenant(t.database.db, org.orgId, async (tx) =>
    tx
      .insert(assets)
      .values([
        { orgId: org.orgId, name: 'Pump 1', date: '2024-01-01', assetCategoryId: m.assetCategory.id },
        { orgId: org.orgId, name: 'Motor 1', date: '2024-01-01', assetCategoryId: m.assetCategory2.id },
      ])
      .returning(),
  );
  const leak = await code(org.admin, { kind: 'problem', code: 'LEAK', name: 'Leak', assetCategoryId: m.assetCategory.id });
  const seal = await code(org.admin, { kind: 'cause', code: 'SEAL', name: 'Worn seal', parentId: leak });
  const replace = await code(org.admin, { kind: 'remedy', code: 'REPL', name: 'Replace seal', parentId: seal });
  return { m, pump, motor, leak, seal, replace };
}

async function order(c: Client, assetId: number | null, title = 'Repair') {
  const res = await c.post('/api/work-orders/add-work-order', { title, assetId });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.workOrder as { id: number; updatedAt: string };
}

/** Makes `workOrderId` a weekly plan's order on the asset (a preventive order, not reactive), due on `dueDate`. */
async function makePlanned(org: TestOrg, assetId: number, workOrderId: number, title: string, dueDate: string) {
  await withTenant(t.database.db, org.orgId, async (tx) => {
    const [plan] = await tx
      .insert(pmPlans)
      .values({ orgId: org.orgId, name: 'Weekly', title, frequency: 'weekly', startDate: '2026-03-01', activeFrom: '2026-03-01' })
      .returning();
    await tx.insert(pmOccurrences).values({ orgId: org.orgId, planId: plan.id, assetId, dueDate, status: 'created', workOrderId });
  });
}

describe('failure codes', () => {
  it('keeps problem > cause > remedy per category: add, list by category, update, delete with its children; checks the chain', async () => {
    const org = await createOrg(t);
    const s = await setUp(org);
    const general = await code(org.admin, { kind: 'problem', code: 'BRK', name: 'Broken' });
    const forPumps = await org.admin.get(`/api/failure-codes/get-failure-codes?assetCategoryId=${s.m.assetCategory.id}`);
    expect(forPumps.body.failureCodes.map((c: { name: string }) => c.name).sort()).toEqual(['Broken', 'Leak', 'Replace seal', 'Worn seal']);
    const forMotors = await org.admin.get(`/api/failure-codes/get-failure-codes?assetCategoryId=${s.m.assetCategory2.id}`);
    expect(forMotors.body.failureCodes.map((c: { id: number }) => c.id)).toEqual([general]);
    expect((await org.admin.get('/api/failure-codes/get-failure-codes')).body.failureCodes.find((c: { id: number }) => c.id === s.leak)).toMatchObject({
      kind: 'problem',
      parentId: null,
      assetCategoryId: s.m.assetCategory.id,
      assetCategory: 'Pumps F',
      code: 'LEAK',
    });

    // The chain: a cause under a problem, a remedy under a cause, a category only on a problem.
    const bad = async (body: Record<string, unknown>) => (await org.admin.post('/api/failure-codes/add-failure-code', body)).body.error;
    expect(await bad({ kind: 'cause', code: 'X', name: 'X' })).toBe(M.parentRequired);
    expect(await bad({ kind: 'remedy', code: 'X', name: 'X', parentId: s.leak })).toBe(M.parentKind);
    expect(await bad({ kind: 'problem', code: 'X', name: 'X', parentId: s.leak })).toBe(M.parentNone);
    expect(await bad({ kind: 'cause', code: 'X', name: 'X', parentId: s.leak, assetCategoryId: s.m.assetCategory.id })).toBe(M.categoryOnProblem);
    expect(await bad({ kind: 'cause', code: 'X', name: 'Worn SEAL', parentId: s.leak })).toBe(M.nameTaken);
    expect(await bad({ kind: 'problem', code: 'X', name: 'X', assetCategoryId: 999999 })).toBe(M.categoryUnknown);
    expect(
      (await org.admin.post('/api/failure-codes/add-failure-code', { kind: 'x', code: '', name: '' })).body.issues.map((i: { path: string }) => i.path),
    ).toEqual(['kind', 'code', 'name']);

    const upd = await org.admin.put(`/api/failure-codes/update-failure-code/${s.leak}`, { code: 'LK', name: 'Leakage', assetCategoryId: null });
    expect(upd.status).toBe(200);
    expect(upd.body.failureCode).toMatchObject({ code: 'LK', name: 'Leakage', assetCategoryId: null });

    const del = await org.admin.del(`/api/failure-codes/delete-failure-code/${s.leak}`);
    expect(del.status).toBe(200);
    expect(del.body.failureCodes.map((c: { id: number }) => c.id)).toEqual([general]);

    // A worker reads them (closing an order offers them) but does not keep them.
    const worker = await org.as('worker');
    expect((await worker.get('/api/failure-codes/get-failure-codes')).status).toBe(200);
    expect((await worker.post('/api/failure-codes/add-failure-code', { kind: 'problem', code: 'W', name: 'W' })).status).toBe(403);
  });

  it("another organisation gets 404 for a code and changes nothing; cannot hang a code under another organisation's", async () => {
    const a = await createOrg(t, 'A');
    const b = await createOrg(t, 'B');
    const s = await setUp(a);
    expect((await b.admin.put(`/api/failure-codes/update-failure-code/${s.leak}`, { code: 'X', name: 'Mine' })).status).toBe(404);
    expect((await b.admin.del(`/api/failure-codes/delete-failure-code/${s.leak}`)).status).toBe(404);
    expect((await b.admin.post('/api/failure-codes/add-failure-code', { kind: 'cause', code: 'X', name: 'X', parentId: s.leak })).body.error).toBe(
      M.parentUnknown,
    );
    expect((await b.admin.get('/api/failure-codes/get-failure-codes')).body.failureCodes).toEqual([]);
    const mine = (await a.admin.get('/api/failure-codes/get-failure-codes')).body.failureCodes;
    expect(mine.find((c: { id: number }) => c.id === s.leak)).toMatchObject({ code: 'LEAK', name: 'Leak' });
    expect(mine).toHaveLength(3);
  });

  it('imports the starter library in one click (categories matched or created), once, in English or Arabic, and editable', async () => {
    const org = await createOrg(t);
    const m = await masterRows(t, org.orgId, 'S');
    // "Pumps S" does not match: the library's pump category is created; a "HVAC" category is matched by name.
    await org.admin.post('/api/asset-categories/add-asset-category', { name: 'HVAC', code: 'AC1' });
    const expected = starterLibrary.reduce((n, g) => {
      const keys = new Set<string>();
      for (const p of g.problems) {
        keys.add(`p:${p.en}`);
        for (const c of p.causes) {
          keys.add(`c:${p.en}:${c.en}`);
          for (const r of c.remedies) keys.add(`r:${p.en}:${c.en}:${r.en}`);
        }
      }
      return n + keys.size;
    }, 0);
    const first = await org.admin.post('/api/failure-codes/import-starter-library', { language: 'en' });
    expect(first.status).toBe(201);
    expect(first.body.added).toBe(expected);
    expect(first.body.failureCodes).toHaveLength(expected);
    const again = await org.admin.post('/api/failure-codes/import-starter-library', {});
    expect(again.body.added).toBe(0);
    const cats = (await org.admin.get('/api/asset-categories/get-asset-categories?pageSize=100')).body.assetCategories.map((c: { name: string }) => c.name);
    expect(cats).toEqual(expect.arrayContaining(['Pumps', 'Motors', 'Conveyors', 'HVAC', 'Electrical', m.assetCategory.name]));
    expect(cats.filter((c: string) => c === 'HVAC')).toHaveLength(1);
    const leak = first.body.failureCodes.find((c: { name: string }) => c.name === 'Leak');
    expect((await org.admin.put(`/api/failure-codes/update-failure-code/${leak.id}`, { code: 'LEAK', name: 'Seal leak' })).status).toBe(200);

    const ar = await createOrg(t, 'Arabic');
    const arabic = await ar.admin.post('/api/failure-codes/import-starter-library', { language: 'ar' });
    expect(arabic.body.added).toBe(expected);
    expect(arabic.body.failureCodes.map((c: { name: string }) => c.name)).toContain('تسريب');
    expect((await ar.admin.post('/api/failure-codes/import-starter-library', { language: 'fr' })).body.issues[0].message).toBe(M.language);
  });

  it('requires problem, cause and remedy to close a reactive order when the organisation says so: drawer, status route, offline replay', async () => {
    const org = await createOrg(t);
    const s = await setUp(org);
    // Not required: closes without codes.
    const free = await order(org.admin, s.pump.id);
    expect((await org.admin.put(`/api/work-orders/update-status/${free.id}`, { status: 'completed' })).status).toBe(200);

    const set = await org.admin.put('/api/failure-codes/update-failure-code-settings', { requireCodes: true, repeatDays: 30 });
    expect(set.body.settings).toEqual({ requireCodes: true, repeatDays: 30 });
    expect((await org.admin.get('/api/failure-codes/get-failure-code-settings')).body.settings).toEqual({ requireCodes: true, repeatDays: 30 });

    const wo = await order(org.admin, s.pump.id);
    const refused = await org.admin.put(`/api/work-orders/update-status/${wo.id}`, { status: 'completed' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(M.required);
    expect((await org.admin.get(`/api/work-orders/get-work-order/${wo.id}`)).body.workOrder.status).toBe('assigned');
    const partial = await org.admin.put(`/api/work-orders/update-status/${wo.id}`, { status: 'completed', problemCodeId: s.leak });
    expect(partial.body.error).toBe(M.required);
    // The edit route closes under the same rule.
    const edit = await org.admin.put(`/api/work-orders/update-work-order/${wo.id}`, { title: 'Repair', status: 'completed', assetId: s.pump.id });
    expect(edit.body.error).toBe(M.required);
    // The codes must be the asset's category's and a chain.
    const motorWo = await order(org.admin, s.motor.id);
    const wrong = await org.admin.put(`/api/work-orders/update-status/${motorWo.id}`, {
      status: 'completed',
      problemCodeId: s.leak,
      causeCodeId: s.seal,
      remedyCodeId: s.replace,
    });
    expect(wrong.body.error).toBe(M.problemUnknown);
    const other = await code(org.admin, { kind: 'problem', code: 'V', name: 'Vibration', assetCategoryId: s.m.assetCategory.id });
    expect(
      (
        await org.admin.put(`/api/work-orders/update-status/${wo.id}`, {
          status: 'completed',
          problemCodeId: other,
          causeCodeId: s.seal,
          remedyCodeId: s.replace,
        })
      ).body.error,
    ).toBe(M.causeUnknown);

    // The technician's queued completion (offline, replayed with its key and the copy's version) is refused the same way.
    const worker = await org.as('worker');
    await org.admin.put(`/api/work-orders/update-work-order/${wo.id}`, { title: 'Repair', assignees: [worker.userId] });
    const copy = (await worker.get(`/api/work-orders/get-work-order/${wo.id}`)).body.workOrder;
    const replay = await worker.put(
      `/api/work-orders/update-status/${wo.id}`,
      { status: 'completed', updatedAt: copy.updatedAt },
      { 'idempotency-key': 'offline-close-1' },
    );
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe(M.required);
    const ok = await worker.put(
      `/api/work-orders/update-status/${wo.id}`,
      { status: 'completed', updatedAt: copy.updatedAt, problemCodeId: s.leak, causeCodeId: s.seal, remedyCodeId: s.replace },
      { 'idempotency-key': 'offline-close-2' },
    );
    expect(ok.status).toBe(200);
    expect(ok.body.workOrder).toMatchObject({
      status: 'completed',
      problemCodeId: s.leak,
      causeCodeId: s.seal,
      remedyCodeId: s.replace,
      failure: { problem: 'Leak', cause: 'Worn seal', remedy: 'Replace seal' },
    });
    // A code an order was closed with stays.
    expect((await org.admin.del(`/api/failure-codes/delete-failure-code/${s.leak}`)).body.error).toBe(M.used);

    // A preventive order (made by a plan) is not reactive: it closes without codes.
    const pm = await order(org.admin, s.pump.id, 'Grease');
    await makePlanned(org, s.pump.id, pm.id, 'Grease', '2026-03-04');
    expect((await org.admin.get(`/api/work-orders/get-work-order/${pm.id}`)).body.workOrder.reactive).toBe(false);
    expect((await org.admin.put(`/api/work-orders/update-status/${pm.id}`, { status: 'completed' })).status).toBe(200);
  });

  it('flags a repeat failure (same asset and problem within N days) in the bell and as the work-order.repeat-failure webhook', async () => {
    const org = await createOrg(t);
    const s = await setUp(org);
    await org.admin.put('/api/failure-codes/update-failure-code-settings', { requireCodes: false, repeatDays: 7 });
    const hook = await org.admin.post('/api/webhooks/add-webhook', { url: 'https://hooks.example.com/cmms', events: ['work-order.repeat-failure'] });
    expect(hook.status).toBe(201);
    const codes = { problemCodeId: s.leak, causeCodeId: s.seal, remedyCodeId: s.replace };
    const first = await order(org.admin, s.pump.id, 'Leak 1');
    await org.admin.put(`/api/work-orders/update-status/${first.id}`, { status: 'completed', ...codes });
    // Ten days earlier than the next: outside the window of 7.
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .update(workOrders)
        .set({ createdAt: new Date(Date.now() - 10 * 86_400_000) })
        .where(and(eq(workOrders.orgId, org.orgId), eq(workOrders.id, first.id))),
    );
    const second = await order(org.admin, s.pump.id, 'Leak 2');
    await org.admin.put(`/api/work-orders/update-status/${second.id}`, { status: 'completed', ...codes });
    const deliveries = () => withTenant(t.database.db, org.orgId, (tx) => tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.orgId, org.orgId)));
    expect(await deliveries()).toHaveLength(0);

    const third = await order(org.admin, s.pump.id, 'Leak 3');
    await org.admin.put(`/api/work-orders/update-status/${third.id}`, { status: 'completed', ...codes });
    const sent = await deliveries();
    expect(sent).toHaveLength(1);
    expect(sent[0].event).toBe('work-order.repeat-failure');
    expect(sent[0].payload).toMatchObject({
      type: 'work-order.repeat-failure',
      data: { id: third.id, previousWorkOrderId: second.id, problem: 'Leak', withinDays: 7 },
    });
    const bell = (await org.admin.get('/api/activities/recent')).body.activities;
    expect(bell.filter((a: { note: string | null }) => a.note?.startsWith('Repeat failure'))).toEqual([
      expect.objectContaining({
        entityType: 'work-order',
        entityId: third.id,
        note: `Repeat failure: Pump 1 failed again with "Leak" within 7 days (after WO-${String(second.id).padStart(4, '0')})`,
      }),
    ]);
    // Another asset with the same problem is no repeat.
    const [pump2] = await withTenant(t.database.db, org.orgId, (tx) =>
      tx.insert(assets).values({ orgId: org.orgId, name: 'Pump 2', date: '2024-01-01', assetCategoryId: s.m.assetCategory.id }).returning(),
    );
    const fourth = await order(org.admin, pump2.id, 'Leak 4');
    await org.admin.put(`/api/work-orders/update-status/${fourth.id}`, { status: 'completed', ...codes });
    expect(await deliveries()).toHaveLength(1);
  });

  it("a repeat failure is of reactive orders only, of the same problem: a plan's order or another problem is none", async () => {
    const org = await createOrg(t);
    const s = await setUp(org);
    await org.admin.put('/api/failure-codes/update-failure-code-settings', { requireCodes: false, repeatDays: 7 });
    expect((await org.admin.post('/api/webhooks/add-webhook', { url: 'https://hooks.example.com/cmms', events: ['work-order.repeat-failure'] })).status).toBe(
      201,
    );
    const noise = await code(org.admin, { kind: 'problem', code: 'NOISE', name: 'Noise', assetCategoryId: s.m.assetCategory.id });
    const close = async (id: number, problemCodeId: number) =>
      expect((await org.admin.put(`/api/work-orders/update-status/${id}`, { status: 'completed', problemCodeId })).status).toBe(200);
    const deliveries = () => withTenant(t.database.db, org.orgId, (tx) => tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.orgId, org.orgId)));
    const first = await order(org.admin, s.pump.id, 'Leak 1');
    await close(first.id, s.leak);
    // A plan's order on the pump closed with the same problem: no repeat, and not the earlier failure of the next one.
    const planned = await order(org.admin, s.pump.id, 'Weekly check');
    await makePlanned(org, s.pump.id, planned.id, 'Check', '2026-03-08');
    await close(planned.id, s.leak);
    // Another problem on the same asset: no repeat.
    await close((await order(org.admin, s.pump.id, 'Noisy')).id, noise);
    expect(await deliveries()).toHaveLength(0);

    const again = await order(org.admin, s.pump.id, 'Leak 2');
    await close(again.id, s.leak);
    const sent = await deliveries();
    expect(sent).toHaveLength(1);
    expect(sent[0].payload).toMatchObject({ data: { id: again.id, previousWorkOrderId: first.id, problem: 'Leak' } });
  });

  it('puts an order on hold with a reason and resumes it: a flag beside the status, in the backlog, filtered, hold time out of the repair time', async () => {
    const org = await createOrg(t);
    const s = await setUp(org);
    const wo = await order(org.admin, s.pump.id);
    const other = await order(org.admin, s.pump.id, 'Other');
    const noNote = await org.admin.put(`/api/work-orders/hold-work-order/${wo.id}`, { reason: 'other' });
    expect(noNote.body.issues).toEqual([{ path: 'note', message: M.holdOtherNote }]);
    expect((await org.admin.put(`/api/work-orders/hold-work-order/${wo.id}`, { reason: 'later' })).body.issues[0].message).toBe(M.holdReason);
    const held = await org.admin.put(`/api/work-orders/hold-work-order/${wo.id}`, { reason: 'parts', note: 'Seal kit ordered', updatedAt: wo.updatedAt });
    expect(held.status).toBe(200);
    expect(held.body.workOrder).toMatchObject({ status: 'assigned', onHold: true, holdReason: 'parts', holdNote: 'Seal kit ordered' });
    expect(held.body.workOrder.heldAt).toEqual(expect.any(String));
    // An older copy is refused; holding twice is refused.
    expect((await org.admin.put(`/api/work-orders/hold-work-order/${wo.id}`, { reason: 'parts', updatedAt: wo.updatedAt })).status).toBe(409);
    expect((await org.admin.put(`/api/work-orders/hold-work-order/${wo.id}`, { reason: 'vendor' })).body.error).toBe(M.alreadyHeld);
    // The list's filter; the backlog (open orders) still counts it.
    const list = await org.admin.get('/api/work-orders/get-work-orders?onHold=true');
    expect(list.body.workOrders.map((w: { id: number }) => w.id)).toEqual([wo.id]);
    expect((await org.admin.get('/api/work-orders/get-work-orders?status=assigned')).body.workOrders).toHaveLength(2);
    expect((await org.admin.get('/api/work-orders/get-statistics')).body.totalPending).toBe(2);

    // Three hours on hold, then resumed: the hold's span is kept and left out of the repair time.
    setClockOffset(3 * 3_600_000);
    try {
      const resumed = await org.admin.put(`/api/work-orders/resume-work-order/${wo.id}`, {});
      expect(resumed.status).toBe(200);
      expect(resumed.body.workOrder).toMatchObject({ onHold: false, holdReason: null, holdNote: null, heldAt: null });
    } finally {
      setClockOffset(0);
    }
    expect((await org.admin.put(`/api/work-orders/resume-work-order/${wo.id}`, {})).body.error).toBe(M.notHeld);
    const [row] = await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .select({ heldSeconds: workOrders.heldSeconds })
        .from(workOrders)
        .where(and(eq(workOrders.orgId, org.orgId), eq(workOrders.id, wo.id))),
    );
    expect(Math.abs(row.heldSeconds - 3 * 3600)).toBeLessThan(60);
    // Closed four hours after it was made: one hour of repair.
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .update(workOrders)
        .set({ createdAt: new Date(Date.now() - 4 * 3_600_000) })
        .where(and(eq(workOrders.orgId, org.orgId), eq(workOrders.id, wo.id))),
    );
    await org.admin.put(`/api/work-orders/update-status/${wo.id}`, { status: 'completed' });
    const repairs = (await org.admin.get('/api/analytics/get-repair-times?range=7d')).body.mttr.overall;
    expect(repairs.count).toBe(1);
    expect(repairs.meanHours).toBeGreaterThan(0.95);
    expect(repairs.meanHours).toBeLessThan(1.05);
    // A closed order cannot be held; closing a held one ends the hold.
    expect((await org.admin.put(`/api/work-orders/hold-work-order/${wo.id}`, { reason: 'access' })).body.error).toBe(M.holdClosed);
    await org.admin.put(`/api/work-orders/hold-work-order/${other.id}`, { reason: 'shutdown' });
    const closed = await org.admin.put(`/api/work-orders/update-status/${other.id}`, { status: 'cancelled' });
    expect(closed.body.workOrder).toMatchObject({ status: 'cancelled', onHold: false });

    // Another organisation gets 404 and changes nothing.
    const b = await createOrg(t, 'B');
    const third = await order(org.admin, s.pump.id, 'Third');
    expect((await b.admin.put(`/api/work-orders/hold-work-order/${third.id}`, { reason: 'parts' })).status).toBe(404);
    expect((await org.admin.get(`/api/work-orders/get-work-order/${third.id}`)).body.workOrder.onHold).toBe(false);
  });
});

describe('failure-code figures against hand computations', () => {
  it('Pareto of problems (count, share, cumulative share) and MTBF by failure mode per asset', async () => {
    const org = await createOrg(t);
    const s = await setUp(org);
    const o = org.orgId;
    await withTenant(t.database.db, o, async (tx) => {
      const [p2] = await tx.insert(assets).values({ orgId: o, name: 'Pump 2', date: '2024-01-01', assetCategoryId: s.m.assetCategory.id }).returning();
      const [vib] = await tx.insert(failureCodes).values({ orgId: o, kind: 'problem', code: 'VIB', name: 'Vibration' }).returning();
      const [noise] = await tx.insert(failureCodes).values({ orgId: o, kind: 'problem', code: 'NOI', name: 'Noise' }).returning();
      const closed = (title: string, assetId: number, problemCodeId: number, created: string, done: string) =>
        tx
          .insert(workOrders)
          .values({ orgId: o, title, assetId, problemCodeId, status: 'completed', createdAt: at(created), updatedAt: at(done) })
          .returning()
          .then(([r]) => r);
      // Pump 1, Leak: three failures; intervals 03-01 04:00 -> 03-03 04:00 (48 h) and 03-03 08:00 -> 03-04 08:00 (24 h): MTBF 36 h.
      await closed('L1', s.pump.id, s.leak, '2026-03-01T00:00:00Z', '2026-03-01T04:00:00Z');
      await closed('L2', s.pump.id, s.leak, '2026-03-03T04:00:00Z', '2026-03-03T08:00:00Z');
      await closed('L3', s.pump.id, s.leak, '2026-03-04T08:00:00Z', '2026-03-04T10:00:00Z');
      // Pump 1, Vibration: 03-02 01:00 -> 03-07 01:00 = 120 h.
      await closed('V1', s.pump.id, vib.id, '2026-03-02T00:00:00Z', '2026-03-02T01:00:00Z');
      await closed('V2', s.pump.id, vib.id, '2026-03-07T01:00:00Z', '2026-03-07T02:00:00Z');
      // Pump 2: one leak and one noise (no interval).
      await closed('L4', p2.id, s.leak, '2026-03-05T00:00:00Z', '2026-03-05T06:00:00Z');
      await closed('N1', p2.id, noise.id, '2026-03-06T00:00:00Z', '2026-03-06T01:00:00Z');
      // Left out: a plan's order, an order closed before the range, an open order with a code, an order without one.
      const pm = await closed('PM', p2.id, s.leak, '2026-03-08T00:00:00Z', '2026-03-08T01:00:00Z');
      const [plan] = await tx
        .insert(pmPlans)
        .values({ orgId: o, name: 'Weekly', title: 'Check', frequency: 'weekly', startDate: '2026-03-01', activeFrom: '2026-03-01' })
        .returning();
      await tx.insert(pmOccurrences).values({ orgId: o, planId: plan.id, assetId: p2.id, dueDate: '2026-03-08', status: 'created', workOrderId: pm.id });
      await closed('Feb', s.pump.id, s.leak, '2026-02-10T00:00:00Z', '2026-02-10T01:00:00Z');
      await tx.insert(workOrders).values({ orgId: o, title: 'Open', assetId: p2.id, problemCodeId: vib.id, createdAt: at('2026-03-09T00:00:00Z') });
      await tx.insert(workOrders).values({
        orgId: o,
        title: 'Plain',
        assetId: p2.id,
        status: 'completed',
        createdAt: at('2026-03-09T00:00:00Z'),
        updatedAt: at('2026-03-09T01:00:00Z'),
      });
    });
    const q = '?range=custom&from=2026-03-01&to=2026-03-31';
    const pareto = await org.admin.get(`/api/analytics/get-failure-pareto${q}`);
    expect(pareto.status).toBe(200);
    // 7 failures: Leak 4 (57.14 %), Vibration 2 (28.57 %, cumulative 85.71 %), Noise 1 (14.29 %, 100 %).
    expect(pareto.body.total).toBe(7);
    expect(
      pareto.body.problems.map((p: { name: string; count: number; percent: number; cumulativePercent: number }) => [
        p.name,
        p.count,
        p.percent,
        p.cumulativePercent,
      ]),
    ).toEqual([
      ['Leak', 4, 57.14, 57.14],
      ['Vibration', 2, 28.57, 85.71],
      ['Noise', 1, 14.29, 100],
    ]);
    const mtbf = await org.admin.get(`/api/analytics/get-failure-mode-mtbf${q}`);
    expect(mtbf.body.modes).toEqual([
      { assetId: s.pump.id, asset: 'Pump 1', problemCodeId: s.leak, problem: 'Leak', failures: 3, intervals: 2, mtbfHours: 36 },
      expect.objectContaining({ assetId: s.pump.id, problem: 'Vibration', failures: 2, intervals: 1, mtbfHours: 120 }),
    ]);
    // Filters apply as to every figure: one asset category (the motors have none).
    expect((await org.admin.get(`/api/analytics/get-failure-pareto${q}&assetCategoryId=${s.m.assetCategory2.id}`)).body).toMatchObject({
      total: 0,
      problems: [],
    });
    // Managers only.
    const worker = await org.as('worker');
    expect((await worker.get(`/api/analytics/get-failure-pareto${q}`)).status).toBe(403);
  });
});
