import { describe, expect, it } from 'vitest';
import { createOrg, useTestApp, type Client } from '../../server/test/harness';
import { catalogue } from '../maintenance-requests/test-fixtures';
import { maintenanceOrder, preventiveRequest } from '../../server/test/fixtures';

const t = useTestApp();

const messages = (body: { issues?: { message: string }[] }) => (body.issues ?? []).map((i) => i.message);

/** An organisation with its catalogue and one approved request (MR-0001). */
async function setup(name = 'Org') {
  const org = await createOrg(t, name);
  const refs = await catalogue(t, org.orgId, name.slice(0, 3));
  const res = await org.admin.post('/api/maintenance-requests/add-maintenance-request', preventiveRequest(refs));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { org, refs, requestId: res.body.maintenanceRequest.id as number };
}

const orderBody = (s: Awaited<ReturnType<typeof setup>>, extra: Record<string, unknown> = {}) => maintenanceOrder(s.refs, s.requestId, extra);

async function add(c: Client, body: Record<string, unknown>) {
  const res = await c.post('/api/maintenance-orders/add-maintenance-order', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.maintenanceOrder;
}

describe('maintenance order validation (spec doc 1 section 5)', () => {
  it("gives the spec's messages on an empty body", async () => {
    const { org } = await setup();
    const res = await org.admin.post('/api/maintenance-orders/add-maintenance-order', {});
    expect(res.status).toBe(400);
    expect(messages(res.body)).toEqual(
      expect.arrayContaining([
        'Select Maintenance Request',
        'Maintenance Type is required',
        'Select Asset',
        'Select at least one service',
        'Schedule date is required',
        'Due date is required',
        'Completion date is required',
      ]),
    );
    const empty = await org.admin.post('/api/maintenance-orders/add-maintenance-order', { services: [], maintenanceRequestId: 0, assetId: '' });
    expect(messages(empty.body)).toEqual(expect.arrayContaining(['Select Maintenance Request', 'Select Asset', 'Select at least one service']));
  });

  it('refuses a due date in the past for a new order only', async () => {
    const s = await setup();
    const past = await s.org.admin.post('/api/maintenance-orders/add-maintenance-order', orderBody(s, { dueDate: '2020-01-01T10:00:00.000Z' }));
    expect(past.status).toBe(400);
    expect(past.body.issues).toEqual([{ path: 'dueDate', message: 'Due date must be in the future' }]);
    const hourAgo = await s.org.admin.post(
      '/api/maintenance-orders/add-maintenance-order',
      orderBody(s, { dueDate: new Date(Date.now() - 3_600_000).toISOString() }),
    );
    expect(messages(hourAgo.body)).toEqual(['Due date must be in the future']);
    // A date picker's day (no time) counts from the start of that day: today is accepted.
    const today = new Date().toISOString().slice(0, 10);
    await add(s.org.admin, orderBody(s, { dueDate: today }));
    // Existing history can be edited with its past due date.
    const upd = await s.org.admin.put('/api/maintenance-orders/update-maintenance-order/1', orderBody(s, { dueDate: '2020-01-01T10:00:00.000Z' }));
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body.order.dueDate).toBe('2020-01-01T10:00:00.000Z');
  });

  it('checks every id against the organisation', async () => {
    const s = await setup();
    const cases: [Record<string, unknown>, string][] = [
      [{ maintenanceRequestId: 99 }, 'Maintenance request not found'],
      [{ assetId: 99 }, 'Asset not found'],
      [{ services: [s.refs.service.id, 99] }, 'Service not found'],
      [{ parts: [99] }, 'Part not found'],
    ];
    for (const [extra, error] of cases) {
      const res = await s.org.admin.post('/api/maintenance-orders/add-maintenance-order', orderBody(s, extra));
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(error);
    }
  });
});

describe('maintenance order calls', () => {
  it('adds with the spec keys, gets, lists, updates and deletes', async () => {
    const s = await setup();
    const created = await add(s.org.admin, orderBody(s));
    expect(created).toMatchObject({
      id: 1,
      maintenanceOrderId: 'PM-0001',
      status: 'new',
      maintenanceType: 'preventive',
      asset: { id: s.refs.asset.id, name: s.refs.asset.name },
      services: [{ id: s.refs.service.id, title: s.refs.service.title, WorkStations: [{ id: s.refs.station.id, name: s.refs.station.name }] }],
      parts: [{ id: s.refs.part.id, name: s.refs.part.name }],
      request_id: s.requestId,
      maintenanceRequest: { id: s.requestId, maintenanceRequestId: 'MR-0001', title: 'Quarterly pump service' },
      rootCauseAnalysis: 'Bearing wear from misalignment',
    });
    const got = await s.org.admin.get('/api/maintenance-orders/get-maintenance-order/1');
    expect(got.body.maintenanceOrder).toEqual(created);

    const upd = await s.org.admin.put(
      '/api/maintenance-orders/update-maintenance-order/1',
      orderBody(s, { services: [s.refs.service2.id, s.refs.service.id], parts: [], assetId: s.refs.asset2.id, rootCauseAnalysis: '' }),
    );
    expect(upd.status).toBe(200);
    expect(upd.body.message).toBe('Maintenance order updated successfully');
    expect(upd.body.order.services.map((x: { id: number }) => x.id).sort()).toEqual([s.refs.service.id, s.refs.service2.id].sort());
    expect(upd.body.order).toMatchObject({ parts: [], asset: { id: s.refs.asset2.id }, rootCauseAnalysis: null });

    const list = await s.org.admin.get('/api/maintenance-orders/get-maintenance-orders?page=1&pageSize=10');
    expect(list.body.pagination).toEqual({ totalRecords: 1, currentPage: 1, totalPages: 1 });
    expect(list.body.maintenanceOrders[0].maintenanceOrderId).toBe('PM-0001');

    const history = await s.org.admin.get('/api/activities/maintenance-order/1');
    expect(history.body.activities.map((a: { action: string }) => a.action)).toEqual(['updated', 'created']);

    const del = await s.org.admin.del('/api/maintenance-orders/delete-maintenance-order/1?page=1&pageSize=10');
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ message: 'Maintenance order deleted successfully', maintenanceOrders: [], pagination: { totalRecords: 0 } });
    expect((await s.org.admin.get('/api/maintenance-orders/get-maintenance-order/1')).status).toBe(404);
  });

  it('accepts the response-shaped keys on input (maintenanceRequest, asset, services as objects)', async () => {
    const s = await setup();
    const { maintenanceRequestId, assetId, services, parts, ...rest } = orderBody(s);
    const created = await add(s.org.admin, {
      ...rest,
      maintenanceRequest: maintenanceRequestId,
      asset: String(assetId),
      services: services.map((id) => ({ id })),
      parts: parts.map((id) => ({ value: id })),
      maintenanceType: 'Preventive',
    });
    expect(created).toMatchObject({
      request_id: s.requestId,
      assetId: s.refs.asset.id,
      services: [{ id: s.refs.service.id }],
      parts: [{ id: s.refs.part.id }],
    });
  });

  it('filters the list by status and text, and pages strictly', async () => {
    const s = await setup();
    await add(s.org.admin, orderBody(s));
    await add(s.org.admin, orderBody(s, { assetId: s.refs.asset2.id }));
    await s.org.admin.put('/api/maintenance-orders/update-status/2', { status: 'Inprogress' });
    const inProgress = await s.org.admin.get('/api/maintenance-orders/get-maintenance-orders?status=in-progress');
    expect(inProgress.body.maintenanceOrders.map((x: { id: number }) => x.id)).toEqual([2]);
    const byAsset = await s.org.admin.get(`/api/maintenance-orders/get-maintenance-orders?title=${encodeURIComponent('compressor')}`);
    expect(byAsset.body.maintenanceOrders.map((x: { id: number }) => x.id)).toEqual([2]);
    const byId = await s.org.admin.get('/api/maintenance-orders/get-maintenance-orders?title=PM-0001');
    expect(byId.body.maintenanceOrders.map((x: { id: number }) => x.id)).toEqual([1]);
    expect((await s.org.admin.get('/api/maintenance-orders/get-maintenance-orders?pageSize=5')).status).toBe(400);
  });
});

describe('status and locking', () => {
  it('changes the status with the aliases, and is read-only once validated', async () => {
    const s = await setup();
    await add(s.org.admin, orderBody(s));
    const cases: [string, string][] = [
      ['Inprogress', 'in-progress'],
      ['New', 'new'],
      ['in-progress', 'in-progress'],
      ['Cancel', 'cancel'],
      ['new', 'new'],
      ['approved', 'validate'],
    ];
    for (const [sent, stored] of cases) {
      const res = await s.org.admin.put('/api/maintenance-orders/update-status/1', { status: sent });
      expect(res.status, sent).toBe(200);
      expect(res.body.order.status).toBe(stored);
      expect(res.body.message).toBe('Maintenance order status updated successfully');
    }
    const locked = 'This maintenance order is validated and can no longer be changed';
    const upd = await s.org.admin.put('/api/maintenance-orders/update-maintenance-order/1', orderBody(s));
    expect(upd.status).toBe(409);
    expect(upd.body.error).toBe(locked);
    const st = await s.org.admin.put('/api/maintenance-orders/update-status/1', { status: 'new' });
    expect(st.status).toBe(409);
    expect(st.body.error).toBe(locked);
    expect((await s.org.admin.del('/api/maintenance-orders/delete-maintenance-order/1')).status).toBe(409);
    expect((await s.org.admin.get('/api/maintenance-orders/get-maintenance-order/1')).body.maintenanceOrder.status).toBe('validate');
    const bad = await s.org.admin.put('/api/maintenance-orders/update-status/1', { status: 'done' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Status is required');
  });

  it('accepts Validate in capitals and lets only managers validate or delete', async () => {
    const s = await setup();
    await add(s.org.admin, orderBody(s));
    const worker = await s.org.as('worker');
    expect((await worker.put('/api/maintenance-orders/update-status/1', { status: 'Inprogress' })).status).toBe(200);
    const v = await worker.put('/api/maintenance-orders/update-status/1', { status: 'Validate' });
    expect(v.status).toBe(403);
    expect(v.body.error).toBe('Only a manager can validate a maintenance order');
    expect((await worker.del('/api/maintenance-orders/delete-maintenance-order/1')).status).toBe(403);
    expect((await worker.put('/api/maintenance-orders/update-maintenance-order/1', orderBody(s, { rootCauseAnalysis: 'Found loose coupling' }))).status).toBe(
      200,
    );
    const manager = await s.org.as('manager');
    expect((await manager.put('/api/maintenance-orders/update-status/1', { status: 'Validate' })).body.order.status).toBe('validate');
  });
});

describe('application data', () => {
  it('preloads the most recent maintenance orders', async () => {
    const s = await setup();
    await add(s.org.admin, orderBody(s));
    const res = await s.org.admin.get('/api/user/get-app-data');
    expect(res.status).toBe(200);
    expect(res.body.maintenanceOrders.map((x: { maintenanceOrderId: string }) => x.maintenanceOrderId)).toEqual(['PM-0001']);
  });
});

describe('isolation', () => {
  it('gives another organisation 404 on every call by id and changes nothing', async () => {
    const a = await setup('Alpha');
    const b = await setup('Beta');
    await add(a.org.admin, orderBody(a));
    const before = (await a.org.admin.get('/api/maintenance-orders/get-maintenance-order/1')).body;
    expect((await b.org.admin.get('/api/maintenance-orders/get-maintenance-order/1')).status).toBe(404);
    expect((await b.org.admin.put('/api/maintenance-orders/update-maintenance-order/1', orderBody(b))).status).toBe(404);
    expect((await b.org.admin.put('/api/maintenance-orders/update-status/1', { status: 'validate' })).status).toBe(404);
    expect((await b.org.admin.del('/api/maintenance-orders/delete-maintenance-order/1')).status).toBe(404);
    expect((await b.org.admin.get('/api/maintenance-orders/get-maintenance-orders')).body.maintenanceOrders).toEqual([]);
    expect((await a.org.admin.get('/api/maintenance-orders/get-maintenance-order/1')).body).toEqual(before);
  });

  it("refuses another organisation's request, asset, service and part ids in a body", async () => {
    const a = await setup('Alpha');
    const b = await createOrg(t, 'Beta');
    // B has no requests and no catalogue: every id of A's body is foreign there.
    const res = await b.admin.post('/api/maintenance-orders/add-maintenance-order', orderBody(a));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Maintenance request not found');
  });
});
