import { index, integer, numeric, pgTable, text } from 'drizzle-orm/pg-core';
import { orgLinkTable } from '../../server/db/org-keys';
import { createdAtColumn, orgRowColumns } from '../../server/db/columns';
import { orgRowKeys } from '../organization/organization.table';
import { workStations } from '../work-stations/work-stations.table';

/** Services the organisation performs or sells (URL prefix /api/services). */
export const services = pgTable(
  'services',
  {
    ...orgRowColumns(),
    title: text().notNull(),
    // Major units with up to 4 decimals; the organisation currency's own are checked on input (decision 035).
    price: numeric({ precision: 16, scale: 4, mode: 'number' }).notNull(),
    operations: text(),
    createdAt: createdAtColumn(),
  },
  (t) => [...orgRowKeys(t), index('services_org_title_idx').on(t.orgId, t.title)],
);

/** The many-to-many link of a service to its work stations, with the operation, time required and order. */
export const serviceWorkStations = orgLinkTable('service_work_stations', {
  owner: ['serviceId', services],
  target: ['workStationId', workStations],
  columns: {
    operation: text().notNull(),
    timeRequired: text().notNull(),
    position: integer().notNull().default(0),
  },
});
