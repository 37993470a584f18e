import { orgLinkTable } from '../../server/db/org-keys';
import { assets } from '../assets/assets.table';
import { services } from '../service-catalog/service-catalog.table';
import { workStations } from '../work-stations/work-stations.table';
import { users } from './users.table';

// A user's related work stations, assets and services (spec section 3: related_workStations, related_assets,
// related_services). A link goes with either end: deleting the user or the record removes it, never blocks.

export const userWorkStations = orgLinkTable('user_work_stations', {
  owner: ['userId', users],
  target: ['workStationId', workStations, 'cascade'],
  index: 'user_work_stations_station_idx',
});

export const userAssets = orgLinkTable('user_assets', { owner: ['userId', users], target: ['assetId', assets, 'cascade'], index: 'user_assets_asset_idx' });

export const userServices = orgLinkTable('user_services', {
  owner: ['userId', users],
  target: ['serviceId', services, 'cascade'],
  index: 'user_services_service_idx',
});
