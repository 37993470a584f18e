import { boolean, foreignKey, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAtColumn, orgIdColumn, orgRowColumns } from '../../server/db/columns';
import { organizations } from '../organization/organization.table';
import { users } from '../users/users.table';

export const teams = pgTable(
  'teams',
  {
    ...orgRowColumns(),
    name: text().notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.id] }), foreignKey({ columns: [t.orgId], foreignColumns: [organizations.id] }).onDelete('cascade')],
);

/** A worker in a team; at most one team lead and one default assignee per team (enforced by the service). */
export const teamMembers = pgTable(
  'team_members',
  {
    orgId: orgIdColumn(),
    teamId: integer().notNull(),
    workerId: integer().notNull(),
    isTeamLead: boolean().notNull().default(false),
    isDefaultAssignee: boolean().notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.teamId, t.workerId] }),
    foreignKey({ columns: [t.orgId, t.teamId], foreignColumns: [teams.orgId, teams.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.orgId, t.workerId], foreignColumns: [users.orgId, users.id] }).onDelete('cascade'),
  ],
);
