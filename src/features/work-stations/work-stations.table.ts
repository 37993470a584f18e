import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { orgRefs } from '../../server/db/org-keys';
import { createdAtColumn, orgRowColumns } from '../../server/db/columns';
import { orgRowKeys } from '../organization/organization.table';
import { teams } from '../teams/teams.table';
import { locations } from '../locations/locations.table';

export const workStations = pgTable(
  'work_stations',
  {
    ...orgRowColumns(),
    code: text().notNull(),
    name: text().notNull(),
    city: text().notNull(),
    teamId: integer().notNull(),
    /** Where it is (decision 072): a work station stays its own record, linked to a location. */
    locationId: integer(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    ...orgRowKeys(t),
    ...orgRefs(t, { teamId: teams, locationId: locations }),
    index('work_stations_org_location_idx').on(t.orgId, t.locationId),
    uniqueIndex('work_stations_org_code_key').on(t.orgId, sql`lower(${t.code})`),
    index('work_stations_org_name_idx').on(t.orgId, t.name),
  ],
);
