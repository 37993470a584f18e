import { describe, expect, it } from 'vitest';
import { solidImage } from '../../server/test/images';
import { createOrg, useTestApp, type Client } from '../../server/test/harness';
import { catalogue } from './test-fixtures';
import { correctiveRequest, PDF, type UploadFile } from '../../server/test/fixtures';
import { seedSampleData } from '../../server/seed/demo';

const t = useTestApp();

const M = {
  title: 'Title is required',
  description: 'Description is required',
  type: 'Maintenance Type is required',
  requester: 'Requester Type is required',
  priority: 'Priority is required',
  assignee: 'Assignee is required',
  dateRequired: 'Due date is required',
  dateInvalid: 'Due date must be a valid date',
  risk: 'Risk Level is required',
  asset: 'Asset Id is required when requester is an employee',
  failure: 'Failure Reason is required for corrective and emergency maintenance',
  urgency: 'Urgency Level is required for corrective and emergency maintenance',
  schedule: 'Schedule Date is required for preventive, predictive, and proactive maintenance',
  frequency: 'Frequency is required for preventive maintenance',
  sensor: 'Sensor Data is required for predictive maintenance',
  condition: 'Condition is required for predictive maintenance',
};
const CONDITIONAL = [M.asset, M.failure, M.urgency, M.schedule, M.frequency, M.sensor, M.condition];

const messages = (body: { issues?: { message: string }[] }) => (body.issues ?? []).map((i) => i.message);

async function setup(name = 'Org') {
  const org = await createOrg(t, name);
  const refs = await catalogue(t, org.orgId, name.slice(0, 3));
  return { org, refs };
}

async function add(c: Client, body: Record<string, unknown>) {
  const res = await c.post('/api/maintenance-requests/add-maintenance-request', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.maintenanceRequest as { id: number; maintenanceRequestId: string; state: string; [k: string]: unknown };
}

/** Files in field `documents`, as the request drawer sends them. */
const upload = (c: Client, id: number, files: Omit<UploadFile, 'field'>[]) =>
  c.upload(
    `/api/maintenance-requests/add-attachments/${id}`,
    files.map((f) => ({ field: 'documents', ...f })),
  );

describe('maintenance request validation (spec doc 2 section 5)', () => {
  it('gives every required message word for word on an empty body', async () => {
    const { org } = await setup();
    const res = await org.admin.post('/api/maintenance-requests/add-maintenance-request', {});
    expect(res.status).toBe(400);
    const got = messages(res.body);
    for (const m of [M.title, M.description, M.type, M.requester, M.priority, M.assignee, M.dateRequired, M.risk]) expect(got).toContain(m);
    // With no type and no requester, no conditional rule applies yet.
    for (const m of CONDITIONAL) expect(got).not.toContain(m);
  });

  it('refuses an invalid date of request, unknown values and unknown fields', async () => {
    const { org, refs } = await setup();
    const bad = await org.admin.post('/api/maintenance-requests/add-maintenance-request', correctiveRequest(refs, { dateOfRequest: 'not a date' }));
    expect(messages(bad.body)).toContain(M.dateInvalid);
    const wrong = await org.admin.post(
      '/api/maintenance-requests/add-maintenance-request',
      correctiveRequest(refs, { maintenanceType: 'cosmetic', requester: 'robot', priority: 'extreme', riskLevel: 'huge', assignedTo: 0 }),
    );
    expect(messages(wrong.body)).toEqual(expect.arrayContaining([M.type, M.requester, M.priority, M.risk, M.assignee]));
    const unknown = await org.admin.post('/api/maintenance-requests/add-maintenance-request', correctiveRequest(refs, { orgId: 2 }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/Unknown field: orgId/);
  });

  it('demands an asset from an employee requester only', async () => {
    const { org, refs } = await setup();
    const employee = await org.admin.post('/api/maintenance-requests/add-maintenance-request', correctiveRequest(refs, { assetId: undefined }));
    expect(employee.status).toBe(400);
    expect(messages(employee.body)).toEqual([M.asset]);
    expect(employee.body.issues[0].path).toBe('assetId');
    const customer = await add(org.admin, correctiveRequest(refs, { assetId: undefined, requester: 'customer', customerId: refs.customer.id }));
    expect(customer.requester).toBe('customer');
    expect(customer.Customer).toEqual({ id: refs.customer.id, name: refs.customer.name });
    expect(customer.assetId).toBeNull();
  });

  const typeCases: [string, string[]][] = [
    ['corrective', [M.failure, M.urgency]],
    ['emergency', [M.failure, M.urgency]],
    ['preventive', [M.schedule, M.frequency]],
    ['predictive', [M.schedule, M.sensor, M.condition]],
    ['proactive', [M.schedule]],
  ];
  for (const [type, expected] of typeCases) {
    it(`${type}: requires exactly ${expected.length} conditional field(s)`, async () => {
      const { org, refs } = await setup();
      const bare = { ...correctiveRequest(refs), maintenanceType: type, failureReason: undefined, urgencyLevel: undefined };
      const res = await org.admin.post('/api/maintenance-requests/add-maintenance-request', bare);
      expect(res.status).toBe(400);
      expect(messages(res.body).sort()).toEqual([...expected].sort());
      // Filling exactly those fields is enough.
      const filled: Record<string, unknown> = { ...bare };
      if (expected.includes(M.failure)) Object.assign(filled, { failureReason: 'Seal leak', urgencyLevel: 'critical' });
      if (expected.includes(M.schedule)) filled.scheduleDate = '2026-04-01T00:00:00.000Z';
      if (expected.includes(M.frequency)) filled.frequency = 'monthly';
      if (expected.includes(M.sensor)) Object.assign(filled, { sensorData: 'Vibration 7.1 mm/s', condition: 'Degrading' });
      const ok = await add(org.admin, filled);
      expect(ok.maintenanceType).toBe(type);
    });
  }

  it('shows the conditional messages together with the required ones', async () => {
    const { org } = await setup();
    const res = await org.admin.post('/api/maintenance-requests/add-maintenance-request', { maintenanceType: 'predictive', requester: 'employee' });
    expect(messages(res.body)).toEqual(expect.arrayContaining([M.title, M.asset, M.schedule, M.sensor, M.condition]));
  });
});

describe('maintenance request calls', () => {
  it('adds, gets, lists with counters, updates and deletes', async () => {
    const { org, refs } = await setup();
    const created = await add(org.admin, correctiveRequest(refs));
    expect(created).toMatchObject({
      id: 1,
      maintenanceRequestId: 'MR-0001',
      state: 'new',
      priority: 'high',
      Worker: { id: 1 },
      asset: { id: refs.asset.id, name: refs.asset.name },
      dateOfRequest: '2026-03-10T08:00:00.000Z',
      maintenanceOrder: null,
    });
    const got = await org.admin.get('/api/maintenance-requests/get-maintenance-request/1');
    expect(got.status).toBe(200);
    expect(got.body.maintenanceRequest.title).toBe('Conveyor belt slipping');

    const upd = await org.admin.put(
      '/api/maintenance-requests/update-maintenance-request/1',
      correctiveRequest(refs, { title: 'Belt slipping (line 2)', priority: 'urgent' }),
    );
    expect(upd.status).toBe(200);
    expect(upd.body.request).toMatchObject({ title: 'Belt slipping (line 2)', priority: 'critical', state: 'new' });
    expect(upd.body.message).toBe('Maintenance request updated successfully');

    const list = await org.admin.get('/api/maintenance-requests/get-maintenance-requests?page=1&pageSize=10');
    expect(list.body.pagination).toEqual({ totalRecords: 1, currentPage: 1, totalPages: 1 });
    expect(list.body.maintenanceRequests[0].maintenanceRequestId).toBe('MR-0001');
    expect(list.body.statistics.totalNewRequests).toBe(1);

    const del = await org.admin.del('/api/maintenance-requests/delete-maintenance-request/1?page=1&pageSize=10');
    expect(del.status).toBe(200);
    expect(del.body.maintenanceRequests).toEqual([]);
    expect(del.body.pagination.totalRecords).toBe(0);
    expect((await org.admin.get('/api/maintenance-requests/get-maintenance-request/1')).status).toBe(404);
  });

  it('accepts the spec aliases (overview envelope, description, assignTo, requestorType, urgent)', async () => {
    const { org, refs } = await setup();
    const { problemDescription, assignedTo, requester, ...rest } = correctiveRequest(refs);
    const res = await org.admin.post('/api/maintenance-requests/add-maintenance-request', {
      overview: { ...rest, description: problemDescription, assignTo: assignedTo, requestorType: requester, priority: 'Urgent' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.maintenanceRequest).toMatchObject({ problemDescription, assignedTo, requester, priority: 'critical' });
    expect(res.body.maintenanceRequests).toHaveLength(1);
    expect(res.body.pagination.totalRecords).toBe(1);
  });

  it('changes the state through update-state with the canonical values and the aliases', async () => {
    const { org, refs } = await setup();
    await add(org.admin, correctiveRequest(refs));
    const cases: [string, string][] = [
      ['approved', 'approved'],
      ['inprogress', 'in-progress'],
      ['In Progress', 'in-progress'],
      ['completed', 'completed'],
      ['cancel', 'cancelled'],
      ['rejected', 'rejected'],
      ['assigned', 'approved'],
      ['New', 'new'],
    ];
    for (const [sent, stored] of cases) {
      const res = await org.admin.put('/api/maintenance-requests/update-state/1', { state: sent });
      expect(res.status, sent).toBe(200);
      expect(res.body.request.state).toBe(stored);
    }
    const bad = await org.admin.put('/api/maintenance-requests/update-state/1', { state: 'exploded' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('State is required');
    const history = await org.admin.get('/api/activities/maintenance-request/1');
    expect(history.body.activities.filter((a: { action: string }) => a.action === 'status').length).toBeGreaterThanOrEqual(7);
  });

  it('filters by state (with the list filter spellings) and title, and pages', async () => {
    const { org, refs } = await setup();
    for (let i = 1; i <= 12; i++) await add(org.admin, correctiveRequest(refs, { title: i % 2 ? `Leak ${i}` : `Noise ${i}` }));
    await org.admin.put('/api/maintenance-requests/update-state/1', { state: 'approved' });
    await org.admin.put('/api/maintenance-requests/update-state/2', { state: 'inprogress' });
    await org.admin.put('/api/maintenance-requests/update-state/3', { state: 'cancel' });
    const assigned = await org.admin.get('/api/maintenance-requests/get-maintenance-requests?status=assigned');
    expect(assigned.body.maintenanceRequests.map((x: { id: number }) => x.id)).toEqual([1]);
    const several = await org.admin.get('/api/maintenance-requests/get-maintenance-requests?status=in-progress&status=cancelled');
    expect(several.body.maintenanceRequests.map((x: { id: number }) => x.id)).toEqual([3, 2]);
    const comma = await org.admin.get('/api/maintenance-requests/get-maintenance-requests?status=inprogress,cancel');
    expect(comma.body.pagination.totalRecords).toBe(2);
    const title = await org.admin.get('/api/maintenance-requests/get-maintenance-requests?title=leak');
    expect(title.body.pagination.totalRecords).toBe(6);
    // A full page of a search is counted; a page that is not full gives the total; past the end counts again.
    for (const page of [1, 2, 3]) {
      const found = await org.admin.get(`/api/maintenance-requests/get-maintenance-requests?title=e&page=${page}&pageSize=10`);
      expect(found.body.pagination).toEqual({ totalRecords: 12, currentPage: page, totalPages: 2 });
      expect(found.body.maintenanceRequests).toHaveLength([10, 2, 0][page - 1]);
    }
    // A number finds its request as well as the titles that contain it ("Noise 12" has no "MR-").
    const byNumber = await org.admin.get('/api/maintenance-requests/get-maintenance-requests?title=MR-0012');
    expect(byNumber.body.maintenanceRequests.map((x: { id: number }) => x.id)).toEqual([12]);
    const page2 = await org.admin.get('/api/maintenance-requests/get-maintenance-requests?page=2&pageSize=10');
    expect(page2.body.maintenanceRequests).toHaveLength(2);
    expect(page2.body.pagination).toEqual({ totalRecords: 12, currentPage: 2, totalPages: 2 });
    expect((await org.admin.get('/api/maintenance-requests/get-maintenance-requests?pageSize=7')).status).toBe(400);
    expect((await org.admin.get('/api/maintenance-requests/get-maintenance-requests?page=0')).status).toBe(400);
    expect((await org.admin.get('/api/maintenance-requests/get-maintenance-requests?status=bogus')).status).toBe(400);
  });

  it('computes the side-panel counters on the server', async () => {
    const { org, refs } = await setup();
    for (let i = 0; i < 3; i++) await add(org.admin, correctiveRequest(refs));
    for (let i = 0; i < 2; i++) await add(org.admin, correctiveRequest(refs, { requester: 'customer', customerId: refs.customer.id, assetId: undefined }));
    await org.admin.put('/api/maintenance-requests/update-state/1', { state: 'approved' });
    await org.admin.put('/api/maintenance-requests/update-state/2', { state: 'approved' });
    await org.admin.put('/api/maintenance-requests/update-state/3', { state: 'rejected' });
    const expected = {
      totalNewRequests: 2,
      totalApprovedRequests: 2,
      approvedVsRejected: { approved: 2, rejected: 1 },
      employeeVsCustomer: { employee: 3, customer: 2 },
      unassignedRequests: 0,
    };
    expect((await org.admin.get('/api/maintenance-requests/get-statistics')).body.statistics).toEqual(expected);
    // Counters cover the whole organisation, not the filtered page.
    expect((await org.admin.get('/api/maintenance-requests/get-maintenance-requests?status=rejected')).body.statistics).toEqual(expected);
    // A page reads them in its own statement; a page past the end, which has no row to carry them, reads them apart.
    for (const page of [1, 9]) {
      const list = await org.admin.get(`/api/maintenance-requests/get-maintenance-requests?page=${page}&pageSize=10`);
      expect(list.body.statistics).toEqual(expected);
      expect(list.body.pagination.totalRecords).toBe(5);
    }
  });

  it('keeps the counters and totals exact through edits and deletes, per organisation', async () => {
    const { org, refs } = await setup();
    const other = await setup('Other');
    for (let i = 0; i < 3; i++) await add(org.admin, correctiveRequest(refs));
    await add(other.org.admin, correctiveRequest(other.refs));
    const edited = await org.admin.put(
      '/api/maintenance-requests/update-maintenance-request/1',
      correctiveRequest(refs, { requester: 'customer', customerId: refs.customer.id, assetId: undefined }),
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await org.admin.put('/api/maintenance-requests/update-state/2', { state: 'approved' });
    expect((await org.admin.del('/api/maintenance-requests/delete-maintenance-request/3')).status).toBe(200);
    const list = await org.admin.get('/api/maintenance-requests/get-maintenance-requests');
    expect(list.body.pagination.totalRecords).toBe(2);
    expect(list.body.statistics).toEqual({
      totalNewRequests: 1,
      totalApprovedRequests: 1,
      approvedVsRejected: { approved: 1, rejected: 0 },
      employeeVsCustomer: { employee: 1, customer: 1 },
      unassignedRequests: 0,
    });
    expect((await org.admin.get('/api/maintenance-requests/get-maintenance-requests?status=approved')).body.pagination.totalRecords).toBe(1);
    expect((await org.admin.get('/api/maintenance-requests/get-maintenance-requests?status=new&status=rejected')).body.pagination.totalRecords).toBe(1);
    const theirs = await other.org.admin.get('/api/maintenance-requests/get-maintenance-requests');
    expect(theirs.body.pagination.totalRecords).toBe(1);
    expect(theirs.body.statistics.employeeVsCustomer).toEqual({ employee: 1, customer: 0 });
  });

  it('offers options with what the maintenance order form fills in', async () => {
    const { org, refs } = await setup();
    await add(org.admin, correctiveRequest(refs, { title: 'Pump cavitation' }));
    await add(org.admin, correctiveRequest(refs, { title: 'Fan imbalance', assetId: refs.asset2.id }));
    const res = await org.admin.get('/api/maintenance-requests/get-maintenance-request-options?pageSize=10&name=pump');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      expect.objectContaining({
        value: 1,
        label: 'MR-0001 Pump cavitation',
        maintenanceType: 'corrective',
        assetId: refs.asset.id,
        asset: { id: refs.asset.id, name: refs.asset.name },
      }),
    ]);
    expect((await org.admin.get('/api/maintenance-requests/get-maintenance-request-options?name=MR-0002')).body[0].value).toBe(2);
  });

  it('checks the ids of the body inside the organisation', async () => {
    const { org, refs } = await setup();
    const other = await setup('Other');
    expect((await org.admin.post('/api/maintenance-requests/add-maintenance-request', correctiveRequest(refs, { assignedTo: 99 }))).body).toMatchObject({
      error: 'Assignee not found',
    });
    const foreignAsset = await org.admin.post(
      '/api/maintenance-requests/add-maintenance-request',
      correctiveRequest(refs, { assetId: other.refs.asset2.id + 10 }),
    );
    expect(foreignAsset.status).toBe(400);
    expect(foreignAsset.body.error).toBe('Asset not found');
    const foreignCustomer = await org.admin.post(
      '/api/maintenance-requests/add-maintenance-request',
      correctiveRequest(refs, { requester: 'customer', customerId: 77, assetId: undefined }),
    );
    expect(foreignCustomer.body.error).toBe('Customer not found');
    const foreignFile = await org.admin.post(
      '/api/maintenance-requests/add-maintenance-request',
      correctiveRequest(refs, { documents: [{ url: `/uploads/org-${other.org.orgId}/0b6c0d1e-1111-4222-8333-944455556666.pdf`, name: 'x.pdf' }] }),
    );
    expect(foreignFile.status).toBe(400);
  });
});

describe('roles', () => {
  it('lets a worker add and edit, but not approve, reject, delete or create orders', async () => {
    const { org, refs } = await setup();
    const worker = await org.as('worker');
    const created = await add(worker, correctiveRequest(refs, { assignedTo: worker.userId }));
    expect((await worker.put(`/api/maintenance-requests/update-state/${created.id}`, { state: 'in-progress' })).status).toBe(200);
    const approve = await worker.put(`/api/maintenance-requests/update-state/${created.id}`, { state: 'approved' });
    expect(approve.status).toBe(403);
    expect(approve.body.error).toBe('Only a manager can approve or reject a request');
    expect(
      (await worker.put(`/api/maintenance-requests/update-maintenance-request/${created.id}`, correctiveRequest(refs, { state: 'rejected' }))).status,
    ).toBe(403);
    expect((await worker.del(`/api/maintenance-requests/delete-maintenance-request/${created.id}`)).status).toBe(403);
    expect((await worker.post(`/api/maintenance-requests/create-order/${created.id}`, {})).status).toBe(403);
    const manager = await org.as('manager');
    expect((await manager.put(`/api/maintenance-requests/update-state/${created.id}`, { state: 'approved' })).status).toBe(200);
    expect((await manager.del(`/api/maintenance-requests/delete-maintenance-request/${created.id}`)).status).toBe(200);
  });
});

describe('Create Order', () => {
  /** What the pre-filled order form sends on Save: the request's type and asset, and the order's own fields. */
  const orderBody = (refs: Awaited<ReturnType<typeof catalogue>>, extra: Record<string, unknown> = {}) => ({
    maintenanceType: 'preventive',
    assetId: refs.asset.id,
    services: [refs.service.id],
    parts: [refs.part.id],
    scheduleDate: '2099-05-01T00:00:00.000Z',
    dueDate: '2099-05-08T00:00:00.000Z',
    completionDate: '2099-05-09T00:00:00.000Z',
    ...extra,
  });

  it("creates the order the pre-filled form describes, under the order's own rules, from an approved request only, once", async () => {
    const { org, refs } = await setup();
    const req = await add(org.admin, correctiveRequest(refs, { maintenanceType: 'preventive', scheduleDate: '2026-05-01T00:00:00.000Z', frequency: 'weekly' }));
    const early = await org.admin.post(`/api/maintenance-requests/create-order/${req.id}`, orderBody(refs));
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('Only an approved request can generate a maintenance order');

    await org.admin.put(`/api/maintenance-requests/update-state/${req.id}`, { state: 'approved' });
    // nothing is created without the order's required fields: the order's own messages
    const empty = await org.admin.post(`/api/maintenance-requests/create-order/${req.id}`, {});
    expect(empty.status).toBe(400);
    expect(Object.fromEntries(empty.body.issues.map((i: { path: string; message: string }) => [i.path, i.message]))).toMatchObject({
      maintenanceType: 'Maintenance Type is required',
      assetId: 'Select Asset',
      services: 'Select at least one service',
      dueDate: 'Due date is required',
    });
    const past = await org.admin.post(`/api/maintenance-requests/create-order/${req.id}`, orderBody(refs, { dueDate: '2020-01-01T00:00:00.000Z' }));
    expect(past.body.issues).toEqual([{ path: 'dueDate', message: 'Due date must be in the future' }]);
    expect((await org.admin.post(`/api/maintenance-requests/create-order/${req.id}`, orderBody(refs, { services: [9999] }))).status).toBe(400);
    expect((await org.admin.get('/api/maintenance-orders/get-maintenance-orders')).body.pagination.totalRecords).toBe(0);

    const res = await org.admin.post(`/api/maintenance-requests/create-order/${req.id}`, orderBody(refs));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe('Maintenance order created successfully');
    expect(res.body.maintenanceOrder).toMatchObject({
      id: 1,
      maintenanceOrderId: 'PM-0001',
      status: 'new',
      maintenanceType: 'preventive',
      assetId: refs.asset.id,
      asset: { id: refs.asset.id, name: refs.asset.name },
      request_id: req.id,
      maintenanceRequest: { id: req.id, maintenanceRequestId: 'MR-0001' },
      scheduleDate: '2099-05-01T00:00:00.000Z',
      dueDate: '2099-05-08T00:00:00.000Z',
      services: [{ id: refs.service.id }],
      parts: [{ id: refs.part.id }],
    });
    const back = await org.admin.get(`/api/maintenance-requests/get-maintenance-request/${req.id}`);
    expect(back.body.maintenanceRequest.maintenanceOrder).toEqual({ id: 1, maintenanceOrderId: 'PM-0001', status: 'new' });
    const order = await org.admin.get('/api/maintenance-orders/get-maintenance-order/1');
    expect(order.body.maintenanceOrder.maintenanceRequest.id).toBe(req.id);
    // the order passes its own update rules as it is (nothing to repair first)
    const { version } = order.body.maintenanceOrder;
    expect(
      (await org.admin.put('/api/maintenance-orders/update-maintenance-order/1', { ...orderBody(refs), maintenanceRequestId: req.id, version })).status,
    ).toBe(200);

    const again = await org.admin.post(`/api/maintenance-requests/create-order/${req.id}`, orderBody(refs));
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('A maintenance order (PM-0001) already exists for this request');
    const del = await org.admin.del(`/api/maintenance-requests/delete-maintenance-request/${req.id}`);
    expect(del.status).toBe(409);
    expect(del.body.error).toBe('This request has a maintenance order (PM-0001) and cannot be deleted');
    expect((await org.admin.post('/api/maintenance-requests/create-order/99', orderBody(refs))).status).toBe(404);
  });

  it('the list filter by Approved finds the requests ready for an order', async () => {
    const { org, refs } = await setup();
    const a = await add(org.admin, correctiveRequest(refs));
    await add(org.admin, correctiveRequest(refs, { title: 'Still new' }));
    await org.admin.put(`/api/maintenance-requests/update-state/${a.id}`, { state: 'approved' });
    const list = await org.admin.get('/api/maintenance-requests/get-maintenance-requests?status=approved');
    expect(list.body.maintenanceRequests.map((r: { id: number }) => r.id)).toEqual([a.id]);
  });
});

describe('attachments', () => {
  it('uploads PDF and images checked by their bytes, lists and removes them', async () => {
    const { org, refs } = await setup();
    const req = await add(org.admin, correctiveRequest(refs));
    const png = await solidImage('png', 8, 8, '#336699');
    const res = await upload(org.admin, req.id, [
      { name: 'manual.pdf', bytes: PDF, type: 'application/pdf' },
      { name: 'photo.png', bytes: png, type: 'image/png' },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const docs = res.body.request.documents as { url: string; name: string }[];
    expect(docs.map((d) => d.name)).toEqual(['manual.pdf', 'photo.png']);
    expect(docs[0].url).toMatch(new RegExp(`^/uploads/org-${org.orgId}/[0-9a-f-]{36}\\.pdf\\?exp=\\d+&sig=[\\w-]+$`)); // signed (decision 024);
    expect(docs[1].url).toMatch(/\.webp\?/);
    const served = await t.app.inject({ method: 'GET', url: docs[0].url, headers: { host: org.host } });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/pdf');

    const fake = await upload(org.admin, req.id, [{ name: 'evil.pdf', bytes: Buffer.from('<script>alert(1)</script>'), type: 'application/pdf' }]);
    expect(fake.status).toBe(415);
    expect(fake.body.error).toBe('Only PDF, JPEG, PNG, and WebP files are allowed.');
    const notMultipart = await org.admin.post(`/api/maintenance-requests/add-attachments/${req.id}`, { documents: [] });
    expect(notMultipart.status).toBe(415);

    // An update that leaves `documents` out keeps them; the list can also be sent back without one.
    await org.admin.put(`/api/maintenance-requests/update-maintenance-request/${req.id}`, correctiveRequest(refs));
    expect((await org.admin.get(`/api/maintenance-requests/get-maintenance-request/${req.id}`)).body.maintenanceRequest.documents).toHaveLength(2);
    const removed = await org.admin.del(`/api/maintenance-requests/delete-attachment/${req.id}?url=${encodeURIComponent(docs[0].url)}`);
    expect(removed.status).toBe(200);
    expect(removed.body.request.documents.map((d: { name: string }) => d.name)).toEqual(['photo.png']);
    expect((await org.admin.del(`/api/maintenance-requests/delete-attachment/${req.id}?url=${encodeURIComponent(docs[0].url)}`)).status).toBe(404);
    const history = await org.admin.get(`/api/activities/maintenance-request/${req.id}`);
    expect(history.body.activities.filter((a: { action: string }) => a.action === 'attachment')).toHaveLength(2);
  });
});

describe('isolation', () => {
  it('gives another organisation 404 on every call by id and changes nothing', async () => {
    const { org: a, refs } = await setup('Alpha');
    const { org: b, refs: bRefs } = await setup('Beta');
    const created = await add(a.admin, correctiveRequest(refs));
    await a.admin.put(`/api/maintenance-requests/update-state/${created.id}`, { state: 'approved' });
    const before = (await a.admin.get(`/api/maintenance-requests/get-maintenance-request/${created.id}`)).body;

    const id = created.id;
    expect((await b.admin.get(`/api/maintenance-requests/get-maintenance-request/${id}`)).status).toBe(404);
    expect((await b.admin.put(`/api/maintenance-requests/update-maintenance-request/${id}`, correctiveRequest(bRefs))).status).toBe(404);
    expect((await b.admin.put(`/api/maintenance-requests/update-state/${id}`, { state: 'rejected' })).status).toBe(404);
    expect((await b.admin.del(`/api/maintenance-requests/delete-maintenance-request/${id}`)).status).toBe(404);
    expect(
      (
        await b.admin.post(`/api/maintenance-requests/create-order/${id}`, {
          maintenanceType: 'corrective',
          assetId: bRefs.asset.id,
          services: [bRefs.service.id],
          scheduleDate: '2099-01-01',
          dueDate: '2099-01-02',
          completionDate: '2099-01-03',
        })
      ).status,
    ).toBe(404);
    expect((await upload(b.admin, id, [{ name: 'a.pdf', bytes: PDF, type: 'application/pdf' }])).status).toBe(404);
    expect((await b.admin.del(`/api/maintenance-requests/delete-attachment/${id}?url=x`)).status).toBe(404);
    const bList = await b.admin.get('/api/maintenance-requests/get-maintenance-requests');
    expect(bList.body.maintenanceRequests).toEqual([]);
    expect(bList.body.statistics.totalApprovedRequests).toBe(0);
    expect((await b.admin.get('/api/maintenance-requests/get-maintenance-request-options')).body).toEqual([]);

    expect((await a.admin.get(`/api/maintenance-requests/get-maintenance-request/${id}`)).body).toEqual(before);
    expect((await a.admin.get('/api/maintenance-orders/get-maintenance-orders')).body.maintenanceOrders).toEqual([]);
  });

  it("refuses another organisation's asset, assignee and customer ids in a body", async () => {
    const { org: a, refs } = await setup('Alpha');
    const b = await createOrg(t, 'Beta');
    const bRefs = await catalogue(t, b.orgId, 'Bx');
    // B has one user (id 1) and assets 1-2; A's ids 1-2 exist in A too, so use ids that only B has.
    const bWorker = await b.as('worker');
    const res = await a.admin.post('/api/maintenance-requests/add-maintenance-request', correctiveRequest(refs, { assignedTo: bWorker.userId }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Assignee not found');
    expect(bRefs.asset.id).toBeGreaterThan(0);
  });
});

describe('demo seed', () => {
  it('seeds requests of every type and state, and orders planned from them', async () => {
    const org = await createOrg(t, 'Seed');
    await catalogue(t, org.orgId, 'Sd');
    await seedSampleData(t.database.db, org.orgId);
    const list = await org.admin.get('/api/maintenance-requests/get-maintenance-requests?pageSize=25');
    expect(list.status).toBe(200);
    const rows = list.body.maintenanceRequests as { maintenanceType: string; state: string; requester: string }[];
    expect(new Set(rows.map((r) => r.maintenanceType))).toEqual(new Set(['corrective', 'preventive', 'predictive', 'emergency', 'proactive']));
    expect(new Set(rows.map((r) => r.state)).size).toBeGreaterThanOrEqual(5);
    expect(list.body.statistics.employeeVsCustomer.customer).toBeGreaterThan(0);
    const orders = await org.admin.get('/api/maintenance-orders/get-maintenance-orders');
    expect(orders.body.maintenanceOrders.map((o: { status: string }) => o.status).sort()).toEqual(['in-progress', 'new', 'validate']);
  });
});
