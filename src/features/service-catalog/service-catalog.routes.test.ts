import { describe, expect, it } from 'vitest';
import { createOrg, useTestApp } from '../../server/test/harness';
import { masterRows } from '../assets/test-fixtures';
import { badRequestIssues, issuesOf } from '../../server/test/issues-of';

const t = useTestApp();

/** An organisation and the ids of its three stations: `const [org, s1, s2, s3] = await orgWithStations();`. */
async function orgWithStations(name = 'Org') {
  const org = await createOrg(t, name);
  const m = await masterRows(t, org.orgId);
  const ids: number[] = [];
  for (const [code, station] of [
    ['ASM', 'Assembly Line'],
    ['PKG', 'Packaging Cell'],
    ['CNC', 'CNC Center'],
  ]) {
    const res = await org.admin.post('/api/workstations/add-workstation', { code, name: station, city: 'Dayton', teamId: m.team.id });
    ids.push(res.body.workStation.id);
  }
  return [org, ids[0], ids[1], ids[2]] as const;
}

describe('services', () => {
  it('adds a service linked to two stations with operations, times and order; reads, lists, updates, deletes', async () => {
    const [org, s1, s2, s3] = await orgWithStations();
    const body = {
      title: 'Conveyor Belt Replacement',
      price: 450,
      operations: '<p>Lock out, replace, re-track.</p>',
      workStations: [
        { workStationId: s2, operation: 'Fit the new belt', timeRequired: '02:00', order: 0 },
        { workStationId: s1, operation: 'Align and tension', timeRequired: '00:45', order: 1 },
      ],
    };
    const add = await org.admin.post('/api/services/add-service', body);
    expect(add.status).toBe(201);
    expect(add.body.message).toBe('Service added successfully');
    const svc = add.body.service;
    expect(svc).toMatchObject({
      serviceId: 'SV-0001',
      title: 'Conveyor Belt Replacement',
      price: 450,
      operations: '<p>Lock out, replace, re-track.</p>',
      related_workStation: [s2, s1],
      WorkStation: { id: s2, name: 'Packaging Cell' },
      workStationDetails: [
        { id: s2, operation: 'Fit the new belt', timeRequired: '02:00', order: 0 },
        { id: s1, operation: 'Align and tension', timeRequired: '00:45', order: 1 },
      ],
    });
    expect(svc.WorkStations.map((w: { name: string }) => w.name)).toEqual(['Packaging Cell', 'Assembly Line']);
    expect(add.body.services).toHaveLength(1);
    expect(add.body.pagination).toEqual({ totalRecords: 1, currentPage: 1, totalPages: 1 });

    const got = await org.admin.get(`/api/services/get-service/${svc.id}`);
    expect(got.body.service).toEqual(svc);

    const upd = await org.admin.put(`/api/services/update-service/${svc.id}`, {
      ...body,
      price: '475.50',
      workStations: [{ workStationId: s3, operation: 'Check spindle', timeRequired: '01:00' }],
    });
    expect(upd.status).toBe(200);
    expect(upd.body.message).toBe('Service updated successfully');
    expect(upd.body.service).toMatchObject({
      price: 475.5,
      related_workStation: [s3],
      workStationDetails: [{ id: s3, operation: 'Check spindle', timeRequired: '01:00', order: 0 }],
    });

    await org.admin.post('/api/services/add-service', { ...body, title: 'Motor Bearing Replacement' });
    const list = await org.admin.get('/api/services/get-services?title=bearing');
    expect(list.body.services.map((s: { title: string }) => s.title)).toEqual(['Motor Bearing Replacement']);
    expect((await org.admin.get('/api/services/get-services?name=CONVEYOR')).body.pagination.totalRecords).toBe(1);
    expect((await org.admin.get(`/api/services/get-services?workStationId=${s3}`)).body.services.map((s: { id: number }) => s.id)).toEqual([svc.id]);

    const del = await org.admin.del(`/api/services/delete-service/${svc.id}`);
    expect(del.status).toBe(200);
    expect(del.body.message).toBe('Service deleted successfully');
    expect(del.body.services).toHaveLength(1);
    expect((await org.admin.get(`/api/services/get-service/${svc.id}`)).status).toBe(404);
    // the link went with it: the station can be deleted now
    expect((await org.admin.del(`/api/workstations/delete-workstation/${s3}`)).status).toBe(200);
  });

  it("accepts the spec's own shape: related_workStation ids with workStationDetails", async () => {
    const [org, s1, s2] = await orgWithStations();
    const res = await org.admin.post('/api/services/add-service', {
      title: 'HVAC Filter Change',
      price: '85',
      operations: '',
      related_workStation: [s1, s2],
      workStationDetails: [
        { id: s2, operation: 'Replace compressor filter', timeRequired: '00:30' },
        { id: s1, operation: 'Replace intake filters', timeRequired: '01:00' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.service.workStationDetails).toEqual([
      { id: s1, operation: 'Replace intake filters', timeRequired: '01:00', order: 0 },
      { id: s2, operation: 'Replace compressor filter', timeRequired: '00:30', order: 1 },
    ]);
    const missing = await org.admin.post('/api/services/add-service', {
      title: 'HVAC Filter Change',
      price: 85,
      related_workStation: [s1],
      workStationDetails: [],
    });
    expect(badRequestIssues(missing)).toEqual({
      'workStations.0.operation': 'Operation is required',
      'workStations.0.timeRequired': 'Time required is required',
    });
  });

  it('gives the spec messages', async () => {
    const [org, s1] = await orgWithStations();
    const empty = await org.admin.post('/api/services/add-service', {});
    expect(badRequestIssues(empty)).toEqual({
      title: 'Title is required',
      price: 'Price is required',
      workStations: 'At least one related workstation must be selected',
    });
    const noStations = await org.admin.post('/api/services/add-service', { title: 'X', price: 1, workStations: [] });
    expect(noStations.body.error).toBe('At least one related workstation must be selected');
    const long = await org.admin.post('/api/services/add-service', {
      title: 'T'.repeat(101),
      price: '1'.repeat(501),
      workStations: [{ workStationId: s1, operation: '', timeRequired: '' }],
    });
    expect(issuesOf(long.body)).toEqual({
      title: 'Title must be at most 100 characters',
      price: 'Price must be at most 500 characters',
      'workStations.0.operation': 'Operation is required',
      'workStations.0.timeRequired': 'Time required is required',
    });
    const text = await org.admin.post('/api/services/add-service', {
      title: 'X',
      price: 'abc',
      workStations: [{ workStationId: s1, operation: 'a', timeRequired: '1' }],
    });
    expect(issuesOf(text.body)).toEqual({ price: 'Price must be a valid number' });
    const negative = await org.admin.post('/api/services/add-service', {
      title: 'X',
      price: -5,
      workStations: [{ workStationId: s1, operation: 'a', timeRequired: '1' }],
    });
    expect(issuesOf(negative.body)).toEqual({ price: 'Price must be a positive number' });
    const twice = await org.admin.post('/api/services/add-service', {
      title: 'X',
      price: 1,
      workStations: [
        { workStationId: s1, operation: 'a', timeRequired: '1' },
        { id: s1, operation: 'b', timeRequired: '2' },
      ],
    });
    expect(issuesOf(twice.body)).toEqual({ 'workStations.1.workStationId': 'A work station can be selected only once' });
    const noStation = await org.admin.post('/api/services/add-service', {
      title: 'X',
      price: 1,
      workStations: [{ workStationId: 0, operation: 'a', timeRequired: '1' }],
    });
    expect(issuesOf(noStation.body)).toEqual({ 'workStations.0.workStationId': 'Work station is required' });
    const unknown = await org.admin.post('/api/services/add-service', {
      title: 'X',
      price: 1,
      workStations: [{ workStationId: 999, operation: 'a', timeRequired: '1' }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues).toEqual([{ path: 'workStations', message: 'Work station does not exist in this organization' }]);
    const extra = await org.admin.post('/api/services/add-service', {
      title: 'X',
      price: 1,
      orgId: 2,
      workStations: [{ workStationId: s1, operation: 'a', timeRequired: '1' }],
    });
    expect(extra.status).toBe(400);
  });

  it('options carry the price; name filter; pageSize 10 by default', async () => {
    const [org, s1] = await orgWithStations();
    for (let i = 1; i <= 12; i++) {
      await org.admin.post('/api/services/add-service', {
        title: `Service ${String(i).padStart(2, '0')}`,
        price: i * 10,
        workStations: [{ workStationId: s1, operation: 'Do it', timeRequired: '00:10' }],
      });
    }
    const all = await org.admin.get('/api/services/get-services-options');
    expect(all.body).toHaveLength(10);
    expect(all.body[0]).toEqual({ value: expect.any(Number), label: 'Service 01', price: 10 });
    const some = await org.admin.get('/api/services/get-services-options?name=service 1&pageSize=5');
    expect(some.body.map((o: { label: string }) => o.label)).toEqual(['Service 10', 'Service 11', 'Service 12']);
  });

  it('workers read services; managing them is for managers', async () => {
    const [org, s1] = await orgWithStations();
    const worker = await org.as('worker');
    const manager = await org.as('manager');
    const body = { title: 'Lubrication', price: 40, workStations: [{ workStationId: s1, operation: 'Grease', timeRequired: '00:15' }] };
    expect((await worker.post('/api/services/add-service', body)).status).toBe(403);
    const added = await manager.post('/api/services/add-service', body);
    expect(added.status).toBe(201);
    const id = added.body.service.id;
    expect((await worker.get(`/api/services/get-service/${id}`)).status).toBe(200);
    expect((await worker.get('/api/services/get-services-options')).status).toBe(200);
    expect((await worker.put(`/api/services/update-service/${id}`, body)).status).toBe(403);
    expect((await worker.del(`/api/services/delete-service/${id}`)).status).toBe(403);
  });

  it('isolation: another organisation gets 404, changes nothing, and cannot link its stations', async () => {
    const [a, a1] = await orgWithStations('Alpha');
    const [b, b1] = await orgWithStations('Beta');
    const added = await a.admin.post('/api/services/add-service', {
      title: 'Thermography',
      price: 275,
      workStations: [{ workStationId: a1, operation: 'Scan', timeRequired: '01:30' }],
    });
    const id = added.body.service.id;
    const before = await a.admin.get(`/api/services/get-service/${id}`);
    const body = { title: 'Hijack', price: 1, workStations: [{ workStationId: b1, operation: 'x', timeRequired: '1' }] };
    expect((await b.admin.get(`/api/services/get-service/${id}`)).status).toBe(404);
    expect((await b.admin.put(`/api/services/update-service/${id}`, body)).status).toBe(404);
    expect((await b.admin.del(`/api/services/delete-service/${id}`)).status).toBe(404);
    expect((await b.admin.get('/api/services/get-services')).body.services).toEqual([]);
    expect((await b.admin.get('/api/services/get-services-options')).body).toEqual([]);
    expect((await a.admin.get(`/api/services/get-service/${id}`)).body).toEqual(before.body);
    // A has stations 1..3 only: station 4 (or any foreign number) is refused
    const foreign = await a.admin.post('/api/services/add-service', { ...body, workStations: [{ workStationId: 4, operation: 'x', timeRequired: '1' }] });
    expect(foreign.status).toBe(400);
  });

  it('keeps only formatting in the rich-text operations', async () => {
    const [org, s1] = await orgWithStations();
    const res = await org.admin.post('/api/services/add-service', {
      title: 'Oil change',
      price: 140,
      operations: '<p onclick="x()">Drain <strong>warm</strong></p><script>alert(1)</script><a href="javascript:alert(1)">x</a>',
      workStations: [{ workStationId: s1, operation: 'Drain', timeRequired: '01:00' }],
    });
    expect(res.body.service.operations).not.toMatch(/script|onclick|javascript/);
    expect(res.body.service.operations).toContain('<strong>warm</strong>');
  });

  it('records history, including the station links', async () => {
    const [org, s1, s2] = await orgWithStations();
    const added = await org.admin.post('/api/services/add-service', {
      title: 'Oil change',
      price: 140,
      workStations: [{ workStationId: s1, operation: 'Drain', timeRequired: '01:00' }],
    });
    const id = added.body.service.id;
    await org.admin.put(`/api/services/update-service/${id}`, {
      title: 'Oil change',
      price: 150,
      workStations: [{ workStationId: s2, operation: 'Drain', timeRequired: '01:00' }],
    });
    const log = await org.admin.get(`/api/activities/service/${id}`);
    expect(log.body.activities.map((a: { action: string }) => a.action)).toEqual(['updated', 'created']);
    expect(Object.keys(log.body.activities[0].changes).sort()).toEqual(['price', 'workStations']);
  });
});
