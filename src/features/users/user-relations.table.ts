import { foreignKey, index, integer, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { orgIdColumn } from '../../server/db/columns';
import { assets } from '../assets/assets.table';
import { services } from '../service-catalog/service-catalog.table';
import { workStations } from '../work-stations/work-stations.table';
import { users } from './users.table';

// A user's related work stations, assets and services (spec section 3: related_workStations, related_assets,
// related_services). A link goes with either end: deleting the user or the record removes it, never blocks.

export const userWorkStations = pgTable(
  'user_work_stations',
  { orgId: orgIdColumn(), userId: integer().notNull(), workStationId: integer().notNull() },
  (t) => [
    primaryKey({ columns: [t.orgId, t.userId, t.workStationId] }),
    foreignKey({ columns: [t.orgId, t.userId], foreignColumns: [users.orgId, users.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.orgId, t.workStationId], foreignColumns: [workStations.orgId, workStations.id] }).onDelete('cascade'),
    index('user_work_stations_station_idx').on(t.orgId, t.workStationId),
  ],
);

export const userAssets = pgTable('user_assets', { orgId: orgIdColumn(), userId: integer().notNull(), assetId: integer().notNull() }, (t) => [
  primaryKey({ columns: [t.orgId, t.userId, t.assetId] }),
  foreignKey({ columns: [t.orgId, t.userId], foreignColumns: [users.orgId, users.id] }).onDelete('cascade'),
  foreignKey({ columns: [t.orgId, t.assetId], foreignColumns: [assets.orgId, assets.id] }).onDelete('cascade'),
  index('user_assets_asset_idx').on(t.orgId, t.assetId),
]);

export const userServices = pgTable('user_services', { orgId: orgIdColumn(), userId: integer().notNull(), serviceId: integer().notNull() }, (t) => [
  primaryKey({ columns: [t.orgId, t.userId, t.serviceId] }),
  foreignKey({ columns: [t.orgId, t.userId], foreignColumns: [users.orgId, users.id] }).onDelete('cascade'),
  foreignKey({ columns: [t.orgId, t.serviceId], foreignColumns: [services.orgId, services.id] }).onDelete('cascade'),
  index('user_services_service_idx').on(t.orgId, t.serviceId),
]);
