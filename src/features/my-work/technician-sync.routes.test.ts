/**
 * The API the technician's offline outbox relies on (issue 27, decision 041): a status change sent with the
 * copy it was made from is refused with 409 and the current order when someone changed it meanwhile; a
 * reassigned order answers 404 and changes nothing; keyed POSTs (labour, notes) retried with the same
 * Idempotency-Key are done once and answered the same; another organisation gets 404 and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { withTenant } from '../../server/db/client';
import { timeTrackingReasons } from '../../server/db/schema';
import { createOrg, useTestApp, type TestOrg } from '../../server/test/harness';

const t = useTestApp();

const BASE = '/api/work-orders';

async function setup() {
  const org = await createOrg(t);
  const worker = await org.as('worker', { firstName: 'Marcus', lastName: 'Lee' });
  const [reason] = await withTenant(t.database.db, org.orgId, (tx) =>
    tx.insert(timeTrackingReasons).values({ orgId: org.orgId, name: 'Repair', type: 'productivity' }).returning(),
  );
  const added = await org.admin.post(`${BASE}/add-work-order`, { title: 'Replace pump seal', assignees: [worker.userId] });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const order = added.body.workOrder as { id: number; updatedAt: string; status: string };
  return { org, worker, reason, order };
}

const labor = (reason: number) => ({ startTime: '2026-05-01T08:00:00.000Z', endTime: '2026-05-01T09:15:00.000Z', reason });

describe('technician sync: the server decides conflicts', () => {
  it('a status change from the current copy passes; from an older copy it is refused with the current order', async () => {
    const { org, worker, order } = await setup();
    const ok = await worker.put(`${BASE}/update-status/${order.id}`, { status: 'in-progress', updatedAt: order.updatedAt });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.workOrder.status).toBe('in-progress');
    expect(ok.body.workOrder.updatedAt).not.toBe(order.updatedAt);

    // the manager cancels the order meanwhile
    const cancelled = await org.admin.put(`${BASE}/update-status/${order.id}`, { status: 'cancelled' });
    expect(cancelled.status).toBe(200);
    const stale = await worker.put(`${BASE}/update-status/${order.id}`, { status: 'completed', updatedAt: ok.body.workOrder.updatedAt });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('This record was changed by someone else');
    expect(stale.body.current).toMatchObject({ id: order.id, status: 'cancelled' });
    expect((await worker.get(`${BASE}/get-work-order/${order.id}`)).body.workOrder.status).toBe('cancelled');
    // without a version, the last writer wins as before (existing API clients)
    expect((await worker.put(`${BASE}/update-status/${order.id}`, { status: 'in-progress' })).status).toBe(200);
  });

  it('an order reassigned meanwhile answers 404 to the former technician and changes nothing', async () => {
    const { org, worker, reason, order } = await setup();
    const other = await org.as('worker', { firstName: 'Ana', lastName: 'Diaz' });
    const moved = await org.admin.put(`${BASE}/update-work-order/${order.id}`, { title: 'Replace pump seal', assignees: [other.userId] });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await worker.put(`${BASE}/update-status/${order.id}`, { status: 'completed', updatedAt: order.updatedAt })).status).toBe(404);
    expect((await worker.post(`${BASE}/add-labor/${order.id}`, labor(reason.id), { 'idempotency-key': 'tech-reassigned-1' })).status).toBe(404);
    const after = await org.admin.get(`${BASE}/get-work-order/${order.id}`);
    expect(after.body.workOrder.status).toBe('assigned');
    expect((await org.admin.get(`${BASE}/get-labors/${order.id}`)).body.labors).toHaveLength(0);
  });

  it('a retried labour or note call with its key is done once and answered the same', async () => {
    const { org, worker, reason, order } = await setup();
    const first = await worker.post(`${BASE}/add-labor/${order.id}`, labor(reason.id), { 'idempotency-key': 'tech-labor-0001' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const retry = await worker.post(`${BASE}/add-labor/${order.id}`, labor(reason.id), { 'idempotency-key': 'tech-labor-0001' });
    expect(retry.status).toBe(201);
    expect(retry.body.labor.id).toBe(first.body.labor.id);
    expect((await org.admin.get(`${BASE}/get-labors/${order.id}`)).body.labors).toHaveLength(1);

    const note = { note: 'Seal worn on the drive side' };
    const n1 = await worker.post(`/api/activities/work-order/${order.id}/notes`, note, { 'idempotency-key': 'tech-note-0001' });
    const n2 = await worker.post(`/api/activities/work-order/${order.id}/notes`, note, { 'idempotency-key': 'tech-note-0001' });
    expect([n1.status, n2.status]).toEqual([201, 201]);
    const history = await org.admin.get(`/api/activities/work-order/${order.id}`);
    expect((history.body.activities as { action: string }[]).filter((a) => a.action === 'note')).toHaveLength(1);
  });

  it('another organisation gets 404 and changes nothing', async () => {
    const { org, order } = await setup();
    const other: TestOrg = await createOrg(t, 'Other');
    expect((await other.admin.put(`${BASE}/update-status/${order.id}`, { status: 'completed', updatedAt: order.updatedAt })).status).toBe(404);
    const after = await org.admin.get(`${BASE}/get-work-order/${order.id}`);
    expect(after.body.workOrder).toMatchObject({ status: 'assigned', updatedAt: order.updatedAt });
  });
});
