import { describe, expect, it } from 'vitest';
import { createOrg, expectWalledOff, useTestApp } from '../../server/test/harness';
import { masterRows } from '../assets/test-fixtures';

const t = useTestApp();

const station = (teamId: number, over: Record<string, unknown> = {}) => ({ code: 'PK-01', name: 'Packaging Line 1', city: 'Dayton', teamId, ...over });

describe('work stations', () => {
  it('adds, reads, lists (default pageSize 25), updates and deletes a station', async () => {
    const org = await createOrg(t);
    const m = await masterRows(t, org.orgId);
    const add = await org.admin.post('/api/workstations/add-workstation', station(m.team.id));
    expect(add.status).toBe(201);
    expect(add.body.message).toBe('Work station added successfully');
    expect(add.body.workStation).toMatchObject({
      code: 'PK-01',
      name: 'Packaging Line 1',
      city: 'Dayton',
      teamId: m.team.id,
      Team: { id: m.team.id, name: 'Mechanics A' },
    });
    expect(add.body.workStations).toHaveLength(1);
    expect(add.body.pagination).toEqual({ totalRecords: 1, currentPage: 1, totalPages: 1 });
    const id = add.body.workStation.id;

    const got = await org.admin.get(`/api/workstations/get-workstation/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.workStation.id).toBe(id);

    for (let i = 2; i <= 26; i++) await org.admin.post('/api/workstations/add-workstation', station(m.team2.id, { code: `ST-${i}`, name: `Station ${i}` }));
    const list = await org.admin.get('/api/workstations/get-workstations');
    expect(list.body.workStations).toHaveLength(25);
    expect(list.body.pagination).toEqual({ totalRecords: 26, currentPage: 1, totalPages: 2 });
    const page2 = await org.admin.get('/api/workstations/get-workstations?page=2&pageSize=25');
    expect(page2.body.workStations).toHaveLength(1);
    const byName = await org.admin.get('/api/workstations/get-workstations?name=packaging');
    expect(byName.body.workStations.map((s: { id: number }) => s.id)).toEqual([id]);
    const byCode = await org.admin.get('/api/workstations/get-workstations?name=st-1');
    expect(byCode.body.pagination.totalRecords).toBe(10); // ST-10 .. ST-19
    const byTeam = await org.admin.get(`/api/workstations/get-workstations?teamId=${m.team.id}`);
    expect(byTeam.body.pagination.totalRecords).toBe(1);
    expect((await org.admin.get('/api/workstations/get-workstations?pageSize=7')).status).toBe(400);

    const upd = await org.admin.put(`/api/workstations/update-workstation/${id}`, station(m.team2.id, { name: 'Packaging Line One', city: 'Columbus' }));
    expect(upd.status).toBe(200);
    expect(upd.body.updatedWorkStation).toMatchObject({
      id,
      name: 'Packaging Line One',
      city: 'Columbus',
      teamId: m.team2.id,
      Team: { name: 'Electricians A' },
    });

    const del = await org.admin.del(`/api/workstations/delete-workstation/${id}?pageSize=10`);
    expect(del.status).toBe(200);
    expect(del.body.message).toBe('Work station deleted successfully');
    expect(del.body.workStations).toHaveLength(10);
    expect(del.body.pagination.totalRecords).toBe(25);
    expect((await org.admin.get(`/api/workstations/get-workstation/${id}`)).status).toBe(404);
  });

  it('gives the spec messages: code max 20, name max 100, city required, Team is required', async () => {
    const org = await createOrg(t);
    const m = await masterRows(t, org.orgId);
    const empty = await org.admin.post('/api/workstations/add-workstation', {});
    expect(empty.status).toBe(400);
    const messages = Object.fromEntries(empty.body.issues.map((i: { path: string; message: string }) => [i.path, i.message]));
    expect(messages).toEqual({ code: 'Code is required', name: 'Name is required', city: 'City is required', teamId: 'Team is required' });
    const long = await org.admin.post('/api/workstations/add-workstation', station(m.team.id, { code: 'C'.repeat(21), name: 'N'.repeat(101) }));
    expect(long.body.issues).toEqual(
      expect.arrayContaining([
        { path: 'code', message: 'Code must be at most 20 characters' },
        { path: 'name', message: 'Name must be at most 100 characters' },
      ]),
    );
    const ok = await org.admin.post('/api/workstations/add-workstation', station(m.team.id, { code: 'C'.repeat(20), name: 'N'.repeat(100) }));
    expect(ok.status).toBe(201);
    for (const teamId of [0, 'abc', -1]) {
      const bad = await org.admin.post('/api/workstations/add-workstation', station(m.team.id, { teamId }));
      expect(bad.body.issues).toEqual([{ path: 'teamId', message: 'Team is required' }]);
    }
    const unknownTeam = await org.admin.post('/api/workstations/add-workstation', station(999));
    expect(unknownTeam.status).toBe(400);
    expect(unknownTeam.body.issues).toEqual([{ path: 'teamId', message: 'Team does not exist in this organization' }]);
    const extra = await org.admin.post('/api/workstations/add-workstation', { ...station(m.team.id), orgId: 5 });
    expect(extra.status).toBe(400);
    // the nested spelling is accepted
    const nested = await org.admin.post('/api/workstations/add-workstation', station(0, { code: 'NEST', team: { id: m.team.id }, teamId: undefined }));
    expect(nested.status).toBe(201);
    expect(nested.body.workStation.teamId).toBe(m.team.id);
  });

  it('keeps codes unique per organisation (case-insensitive): 409', async () => {
    const org = await createOrg(t);
    const other = await createOrg(t);
    const m = await masterRows(t, org.orgId);
    const mo = await masterRows(t, other.orgId);
    await org.admin.post('/api/workstations/add-workstation', station(m.team.id));
    const dup = await org.admin.post('/api/workstations/add-workstation', station(m.team.id, { code: 'pk-01' }));
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('A work station with this code already exists');
    expect((await other.admin.post('/api/workstations/add-workstation', station(mo.team.id))).status).toBe(201);
  });

  it('options: { value, label, code } filtered by name', async () => {
    const org = await createOrg(t);
    const m = await masterRows(t, org.orgId);
    await org.admin.post('/api/workstations/add-workstation', station(m.team.id, { code: 'WLD', name: 'Welding Bay' }));
    await org.admin.post('/api/workstations/add-workstation', station(m.team.id, { code: 'ASM', name: 'Assembly Cell' }));
    const all = await org.admin.get('/api/workstations/get-workstation-options');
    expect(all.body.map((o: { label: string }) => o.label)).toEqual(['Assembly Cell', 'Welding Bay']);
    const weld = await org.admin.get('/api/workstations/get-workstation-options?name=weld');
    expect(weld.body).toEqual([{ value: expect.any(Number), label: 'Welding Bay', code: 'WLD' }]);
  });

  it('workers read but do not manage stations', async () => {
    const org = await createOrg(t);
    const m = await masterRows(t, org.orgId);
    const worker = await org.as('worker');
    const manager = await org.as('manager');
    expect((await worker.post('/api/workstations/add-workstation', station(m.team.id))).status).toBe(403);
    const added = await manager.post('/api/workstations/add-workstation', station(m.team.id));
    expect(added.status).toBe(201);
    const id = added.body.workStation.id;
    expect((await worker.get('/api/workstations/get-workstations')).status).toBe(200);
    expect((await worker.get(`/api/workstations/get-workstation/${id}`)).status).toBe(200);
    expect((await worker.put(`/api/workstations/update-workstation/${id}`, station(m.team.id))).status).toBe(403);
    expect((await worker.del(`/api/workstations/delete-workstation/${id}`)).status).toBe(403);
    expect((await manager.del(`/api/workstations/delete-workstation/${id}`)).status).toBe(200);
  });

  it('isolation: another organisation gets 404 and changes nothing; its team ids are refused', async () => {
    const a = await createOrg(t, 'Alpha');
    const b = await createOrg(t, 'Beta');
    const ma = await masterRows(t, a.orgId);
    const mb = await masterRows(t, b.orgId, 'B');
    const added = await a.admin.post('/api/workstations/add-workstation', station(ma.team.id));
    const id = added.body.workStation.id;
    await expectWalledOff(a.admin, `/api/workstations/get-workstation/${id}`, b.admin, [
      ['get', `/api/workstations/get-workstation/${id}`],
      ['put', `/api/workstations/update-workstation/${id}`, station(mb.team.id)],
      ['del', `/api/workstations/delete-workstation/${id}`],
    ]);
    expect((await b.admin.get('/api/workstations/get-workstations')).body.workStations).toEqual([]);
    expect((await b.admin.get('/api/workstations/get-workstation-options')).body).toEqual([]);
    // B's team id 3 does not exist in A (A has teams 1, 2): refused
    const foreign = await a.admin.put(`/api/workstations/update-workstation/${id}`, station(mb.team2.id + 10));
    expect(foreign.status).toBe(400);
  });

  it('a station linked to a service cannot be deleted (409)', async () => {
    const org = await createOrg(t);
    const m = await masterRows(t, org.orgId);
    const s = await org.admin.post('/api/workstations/add-workstation', station(m.team.id));
    const id = s.body.workStation.id;
    const svc = await org.admin.post('/api/services/add-service', {
      title: 'Belt change',
      price: 50,
      workStations: [{ workStationId: id, operation: 'Replace belt', timeRequired: '00:30' }],
    });
    expect(svc.status).toBe(201);
    const del = await org.admin.del(`/api/workstations/delete-workstation/${id}`);
    expect(del.status).toBe(409);
    expect(del.body.error).toBe('This work station is used by services and cannot be deleted');
    expect((await org.admin.get(`/api/workstations/get-workstation/${id}`)).status).toBe(200);
  });

  it('records history for the Note Logs tab', async () => {
    const org = await createOrg(t);
    const m = await masterRows(t, org.orgId);
    const s = await org.admin.post('/api/workstations/add-workstation', station(m.team.id));
    const id = s.body.workStation.id;
    await org.admin.put(`/api/workstations/update-workstation/${id}`, station(m.team.id, { city: 'Akron' }));
    const log = await org.admin.get(`/api/activities/work-station/${id}`);
    expect(log.status).toBe(200);
    expect(log.body.activities.map((a: { action: string }) => a.action)).toEqual(['updated', 'created']);
    expect(log.body.activities[0].changes).toEqual({ city: { from: 'Dayton', to: 'Akron' } });
  });
});
