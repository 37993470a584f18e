import { foreignKey, index, integer, numeric, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAtColumn, orgIdColumn, orgRowColumns } from '../../server/db/columns';
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
export const serviceWorkStations = pgTable(
  'service_work_stations',
  {
    orgId: orgIdColumn(),
    serviceId: integer().notNull(),
    workStationId: integer().notNull(),
    operation: text().notNull(),
    timeRequired: text().notNull(),
    position: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.serviceId, t.workStationId] }),
    foreignKey({ columns: [t.orgId, t.serviceId], foreignColumns: [services.orgId, services.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.orgId, t.workStationId], foreignColumns: [workStations.orgId, workStations.id] }),
  ],
);
