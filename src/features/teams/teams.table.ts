import { boolean, pgTable, text } from 'drizzle-orm/pg-core';
import { orgLinkTable } from '../../server/db/org-keys';
import { orgRowKeys } from '../organization/organization.table';
import { createdAtColumn, orgRowColumns } from '../../server/db/columns';
import { users } from '../users/users.table';

export const teams = pgTable(
  'teams',
  {
    ...orgRowColumns(),
    name: text().notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => orgRowKeys(t),
);

/** A worker in a team; at most one team lead and one default assignee per team (enforced by the service). */
export const teamMembers = orgLinkTable('team_members', {
  owner: ['teamId', teams],
  target: ['workerId', users, 'cascade'],
  columns: {
    isTeamLead: boolean().notNull().default(false),
    isDefaultAssignee: boolean().notNull().default(false),
  },
});
