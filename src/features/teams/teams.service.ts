import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { ReadTx, Tx } from '../../server/db/client';
import { teamMembers, teams, users } from '../../server/db/schema';
import { HttpError, notFound } from '../../server/http-error';
import { diffChanges, registerActivityEntity } from '../activity/activity.service';
import type { SimpleListQuery } from '../master-data/master-data.schema';
import { readSimpleTable } from '../../server/db/simple-list';

import type { TeamDto, teamInputSchema } from './teams.schema';
import { orgRow, deleteOrgRow, readOrgRow, readOrgRows } from '../../server/db/org-rows';
import { pick } from '../../shared/pick';

const history = registerActivityEntity('team', teams, 'Team');

type Input = z.output<typeof teamInputSchema>;

/** Attaches members (with their Worker), Workers, teamLeadId, defaultAssigneeId and memberCount. */
async function withMembers(tx: ReadTx, orgId: number, rows: { id: number; name: string; createdAt: Date }[]): Promise<TeamDto[]> {
  const ids = rows.map((r) => r.id);
  const members = ids.length
    ? await tx
        .select({
          ...pick(teamMembers, 'teamId', 'workerId', 'isTeamLead', 'isDefaultAssignee'),
          ...pick(users, 'firstName', 'lastName', 'email'),
        })
        .from(teamMembers)
        .innerJoin(users, and(eq(users.orgId, teamMembers.orgId), eq(users.id, teamMembers.workerId)))
        .where(and(eq(teamMembers.orgId, orgId), inArray(teamMembers.teamId, ids)))
        .orderBy(asc(users.firstName), asc(users.id))
    : [];
  return rows.map((r) => {
    const mine = members
      .filter((m) => m.teamId === r.id)
      .map((m) => ({
        ...pick(m, 'workerId', 'isTeamLead', 'isDefaultAssignee'),
        Worker: { id: m.workerId, firstName: m.firstName, lastName: m.lastName, email: m.email },
      }));
    return {
      id: r.id,
      name: r.name,
      members: mine,
      Workers: mine.map((m) => m.workerId),
      teamLeadId: mine.find((m) => m.isTeamLead)?.workerId ?? null,
      defaultAssigneeId: mine.find((m) => m.isDefaultAssignee)?.workerId ?? null,
      memberCount: mine.length,
      createdAt: r.createdAt.toISOString(),
    };
  });
}

const columns = { id: teams.id, name: teams.name, createdAt: teams.createdAt };

/** The organisation's teams with their members (name filter), sorted by name. */
export async function listTeams(tx: ReadTx, orgId: number, query: SimpleListQuery) {
  const { rows, pagination } = await readSimpleTable(tx, 'teams.list', orgId, query, teams, columns);
  return { teams: await withMembers(tx, orgId, rows), pagination };
}

export async function getTeam(tx: Tx, orgId: number, id: number) {
  const row = await readOrgRow(tx, teams, columns, orgId, id);
  if (!row) throw notFound('Team');
  return (await withMembers(tx, orgId, [row]))[0];
}

/** Every member must be a person of this organisation. */
async function checkWorkers(tx: Tx, orgId: number, input: Input) {
  const ids = input.members.map((m) => m.workerId);
  const found = await readOrgRows(tx, users, { id: users.id }, orgId, ids);
  const known = new Set(found.map((f) => f.id));
  const issues = input.members.flatMap((m, i) => (known.has(m.workerId) ? [] : [{ path: `members.${i}.workerId`, message: 'Worker not found' }]));
  if (issues.length) throw new HttpError(400, 'Worker not found', issues);
}

async function setMembers(tx: Tx, orgId: number, teamId: number, input: Input) {
  await tx.delete(teamMembers).where(and(eq(teamMembers.orgId, orgId), eq(teamMembers.teamId, teamId)));
  await tx.insert(teamMembers).values(input.members.map((m) => ({ orgId, teamId, ...m })));
}

export async function addTeam(tx: Tx, orgId: number, actorId: number, input: Input, query: SimpleListQuery) {
  await checkWorkers(tx, orgId, input);
  const [row] = await tx.insert(teams).values({ orgId, name: input.name }).returning({ id: teams.id });
  await setMembers(tx, orgId, row.id, input);
  await history(tx, orgId, row.id, actorId, 'created');
  return { message: 'Team added successfully', team: await getTeam(tx, orgId, row.id), ...(await listTeams(tx, orgId, query)) };
}

const summary = (t: Pick<TeamDto, 'name' | 'Workers' | 'teamLeadId' | 'defaultAssigneeId'>) => ({
  name: t.name,
  members: [...t.Workers].sort((a, b) => a - b),
  teamLeadId: t.teamLeadId,
  defaultAssigneeId: t.defaultAssigneeId,
});

export async function updateTeam(tx: Tx, orgId: number, actorId: number, id: number, input: Input) {
  const before = await getTeam(tx, orgId, id);
  await checkWorkers(tx, orgId, input);
  await tx
    .update(teams)
    .set({ name: input.name })
    .where(orgRow(teams, orgId, id));
  await setMembers(tx, orgId, id, input);
  const team = await getTeam(tx, orgId, id);
  const changes = diffChanges(summary(before), summary(team), ['name', 'members', 'teamLeadId', 'defaultAssigneeId']);
  if (Object.keys(changes).length) await history(tx, orgId, id, actorId, 'updated', changes);
  return { message: 'Team updated successfully', team };
}

/** Refused (409) while work stations belong to the team. */
export async function deleteTeam(tx: Tx, orgId: number, actorId: number, id: number, query: SimpleListQuery) {
  await getTeam(tx, orgId, id);
  await deleteOrgRow(tx, teams, orgId, id, 'This team is used by work stations and cannot be deleted');
  await history(tx, orgId, id, actorId, 'deleted');
  return { message: 'Team deleted successfully', ...(await listTeams(tx, orgId, query)) };
}
