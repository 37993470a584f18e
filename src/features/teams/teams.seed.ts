import { asc, eq } from 'drizzle-orm';
import type { Tx } from '../../server/db/client';
import { teamMembers, teams, users } from '../../server/db/schema';

/**
 * Two demo teams built from the organisation's people: workers first (a lead and a default assignee
 * each), a manager in both. Works on any organisation, even one with only its admin.
 */
export async function seedTeams(tx: Tx, orgId: number) {
  const people = await tx.select({ id: users.id, role: users.role }).from(users).where(eq(users.orgId, orgId)).orderBy(asc(users.id));
  if (!people.length) return;
  const workers = people.filter((p) => p.role === 'worker');
  const pool = workers.length ? workers : people;
  const manager = people.find((p) => p.role === 'manager') ?? people[0];
  const pick = (i: number) => pool[i % pool.length].id;

  const plans = [
    { name: 'Electrical Maintenance', lead: pick(0), assignee: pick(2), others: [manager.id] },
    { name: 'Mechanical Maintenance', lead: pick(1), assignee: pick(1), others: [pick(2), manager.id] },
  ];
  for (const plan of plans) {
    const [team] = await tx.insert(teams).values({ orgId, name: plan.name }).returning({ id: teams.id });
    const ids = [...new Set([plan.lead, plan.assignee, ...plan.others])];
    await tx
      .insert(teamMembers)
      .values(ids.map((workerId) => ({ orgId, teamId: team.id, workerId, isTeamLead: workerId === plan.lead, isDefaultAssignee: workerId === plan.assignee })));
  }
}
