import { describe, expect, it } from 'vitest';
import { withTenant } from '../../server/db/client';
import { workStations } from '../../server/db/schema';
import { createOrg, expectDeleted, useTestApp } from '../../server/test/harness';

const t = useTestApp();

const messages = (res: { body: { issues?: { path: string; message: string }[] } }) => (res.body.issues ?? []).map((i) => `${i.path}: ${i.message}`);

async function orgWithWorkers() {
  const org = await createOrg(t);
  const w1 = await org.as('worker', { firstName: 'Marcus', lastName: 'Lee' });
  const w2 = await org.as('worker', { firstName: 'Sofia', lastName: 'Garcia' });
  const w3 = await org.as('worker', { firstName: 'Daniel', lastName: 'Okafor' });
  return { org, w1, w2, w3 };
}

describe('teams', () => {
  it('adds a team with members (201, team, refreshed list), lists, updates and deletes', async () => {
    const { org, w1, w2 } = await orgWithWorkers();
    const added = await org.admin.post('/api/teams/add-team?pageSize=25', {
      name: 'Electrical Maintenance',
      members: [
        { workerId: w1.userId, isTeamLead: true, isDefaultAssignee: false },
        { workerId: w2.userId, isTeamLead: false, isDefaultAssignee: true },
      ],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.message).toBe('Team added successfully');
    const team = added.body.team;
    expect(team).toMatchObject({ name: 'Electrical Maintenance', teamLeadId: w1.userId, defaultAssigneeId: w2.userId, memberCount: 2 });
    expect(team.Workers.sort()).toEqual([w1.userId, w2.userId].sort());
    expect(team.members.find((m: { workerId: number }) => m.workerId === w1.userId)).toMatchObject({
      isTeamLead: true,
      isDefaultAssignee: false,
      Worker: { id: w1.userId, firstName: 'Marcus', lastName: 'Lee' },
    });
    expect(added.body.teams).toHaveLength(1);
    expect(added.body.pagination).toEqual({ totalRecords: 1, currentPage: 1, totalPages: 1 });

    const list = await org.admin.get('/api/teams/get-teams');
    expect(list.status).toBe(200);
    expect(list.body.teams[0]).toEqual(team);

    // move the lead to the second member, drop the default assignee
    const updated = await org.admin.put(`/api/teams/update-team/${team.id}`, {
      name: 'Electrical Crew',
      members: [
        { workerId: w1.userId, isTeamLead: false, isDefaultAssignee: false },
        { workerId: w2.userId, isTeamLead: true },
      ],
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.message).toBe('Team updated successfully');
    expect(updated.body.team).toMatchObject({ name: 'Electrical Crew', teamLeadId: w2.userId, defaultAssigneeId: null, memberCount: 2 });

    const filtered = await org.admin.get('/api/teams/get-teams?name=crew');
    expect(filtered.body.teams).toHaveLength(1);
    expect((await org.admin.get('/api/teams/get-teams?name=mechanical')).body.teams).toHaveLength(0);

    const log = await org.admin.get(`/api/activities/team/${team.id}`);
    expect(log.status).toBe(200);

    const deleted = await expectDeleted(org.admin, `/api/teams/delete-team/${team.id}`, 'Team deleted successfully', [
      'del',
      `/api/teams/delete-team/${team.id}`,
    ]);
    expect(deleted.teams).toEqual([]);
  });

  it('validates: name min 3, at least one member, a worker per row, a worker only once, one lead and one default assignee', async () => {
    const { org, w1, w2 } = await orgWithWorkers();
    const add = (body: object) => org.admin.post('/api/teams/add-team', body);
    expect(messages(await add({}))).toEqual(expect.arrayContaining(['name: Name is required', 'members: At least one member is required']));
    expect(messages(await add({ name: 'ab', members: [] }))).toEqual(
      expect.arrayContaining(['name: Name must be at least 3 characters long', 'members: At least one member is required']),
    );
    expect(messages(await add({ name: 'Team', members: [{ workerId: 0 }] }))).toContain('members.0.workerId: Please select a worker');
    expect(messages(await add({ name: 'Team', members: [{ isTeamLead: true }] }))).toContain('members.0.workerId: Please select a worker');
    expect(messages(await add({ name: 'Team', members: [{ workerId: w1.userId }, { workerId: w1.userId }] }))).toContain(
      'members.1.workerId: A worker can be selected only once',
    );
    for (const [flag, role] of [
      ['isTeamLead', 'Team Lead'],
      ['isDefaultAssignee', 'Default Assignee'],
    ]) {
      const twice = await add({ name: 'Team', members: [w1, w2].map((w) => ({ workerId: w.userId, [flag]: true })) });
      expect(messages(twice)).toContain(`members.1.${flag}: Only one member can be the ${role}`);
    }
    const unknown = await add({ name: 'Team', members: [{ workerId: 999 }] });
    expect(unknown.status).toBe(400);
    expect(messages(unknown)).toContain('members.0.workerId: Worker not found');
    const extra = await add({ name: 'Team', members: [{ workerId: w1.userId }], teamLeadId: w1.userId });
    expect(extra.status).toBe(400);
    expect(extra.body.error).toMatch(/Unknown field/);
    expect((await org.admin.get('/api/teams/get-teams')).body.teams).toEqual([]);
  });

  it('lets workers read teams but not manage them', async () => {
    const { org, w1 } = await orgWithWorkers();
    const manager = await org.as('manager');
    const body = { name: 'Mechanics', members: [{ workerId: w1.userId, isTeamLead: true }] };
    const added = await manager.post('/api/teams/add-team', body);
    expect(added.status).toBe(201);
    expect((await w1.get('/api/teams/get-teams')).status).toBe(200);
    expect((await w1.post('/api/teams/add-team', body)).status).toBe(403);
    expect((await w1.put(`/api/teams/update-team/${added.body.team.id}`, body)).status).toBe(403);
    expect((await w1.del(`/api/teams/delete-team/${added.body.team.id}`)).status).toBe(403);
    expect((await org.anonymous.get('/api/teams/get-teams')).status).toBe(401);
  });

  it('refuses deleting a team that work stations use (409), and the station keeps its team', async () => {
    const { org, w1 } = await orgWithWorkers();
    const team = (await org.admin.post('/api/teams/add-team', { name: 'Mechanics', members: [{ workerId: w1.userId }] })).body.team;
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx.insert(workStations).values({ orgId: org.orgId, code: 'WS-01', name: 'Line 1', city: 'Dayton', teamId: team.id }),
    );
    const res = await org.admin.del(`/api/teams/delete-team/${team.id}`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('This team is used by work stations and cannot be deleted');
    const [station] = await withTenant(t.database.db, org.orgId, (tx) => tx.select().from(workStations));
    expect(station.teamId).toBe(team.id);
    expect((await org.admin.get('/api/teams/get-teams')).body.teams).toHaveLength(1);
  });

  it("isolation: another organisation gets 404, cannot use this organisation's workers, and changes nothing", async () => {
    const { org: a, w1, w3 } = await orgWithWorkers();
    const b = await createOrg(t);
    const bWorker = await b.as('worker');
    const team = (await a.admin.post('/api/teams/add-team', { name: 'Mechanics', members: [{ workerId: w1.userId, isTeamLead: true }] })).body.team;
    const before = (await a.admin.get('/api/teams/get-teams')).body;
    const body = { name: 'Hijacked', members: [{ workerId: bWorker.userId }] };
    expect((await b.admin.put(`/api/teams/update-team/${team.id}`, body)).status).toBe(404);
    expect((await b.admin.del(`/api/teams/delete-team/${team.id}`)).status).toBe(404);
    expect((await b.admin.get('/api/teams/get-teams')).body.teams).toEqual([]);
    // ids are per organisation: a's fourth person has no counterpart in b
    const foreign = await b.admin.post('/api/teams/add-team', { name: 'Borrowed', members: [{ workerId: w3.userId }] });
    expect(foreign.status).toBe(400);
    expect((await a.admin.get('/api/teams/get-teams')).body).toEqual(before);
  });
});
