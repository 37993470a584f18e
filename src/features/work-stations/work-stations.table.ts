import { sql } from 'drizzle-orm';
import { foreignKey, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn, orgIdColumn, orgScopedId } from '../../server/db/columns';
import { organizations } from '../organization/organization.table';
import { teams } from '../teams/teams.table';

export const workStations = pgTable(
  'work_stations',
  {
    orgId: orgIdColumn(),
    id: orgScopedId(),
    code: text().notNull(),
    name: text().notNull(),
    city: text().notNull(),
    teamId: integer().notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.id] }),
    foreignKey({ columns: [t.orgId], foreignColumns: [organizations.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.orgId, t.teamId], foreignColumns: [teams.orgId, teams.id] }),
    uniqueIndex('work_stations_org_code_key').on(t.orgId, sql`lower(${t.code})`),
    index('work_stations_org_name_idx').on(t.orgId, t.name),
  ],
);
