import type { ReadTx } from '../../server/db/client';
import type { AccessClaims } from '../auth/tokens';
import { getCompany } from '../organization/organization.service';
import { getUser, listWorkers } from './users.service';
import { recentMaintenanceOrders } from '../maintenance-orders/maintenance-orders.service';
import { listAssetCategories } from '../master-data/asset-categories.service';
import { listProductCategories } from '../master-data/product-categories.service';
import { listTaxes } from '../master-data/taxes.service';
import { listTimeTrackingReasons } from '../master-data/time-tracking-reasons.service';
import { listUomCategories } from '../master-data/uoms.service';
import { recentAssets } from '../assets/assets.service';
import { recentParts } from '../parts/parts.service';
import { recentServices } from '../service-catalog/service-catalog.service';
import { recentWorkStations } from '../work-stations/work-stations.service';
import { listRecentWorkOrders } from '../work-orders/work-orders.service';

/**
 * GET /user/get-app-data: every key of spec section 7 "Application data". Master data and people come
 * whole (they are small); the big lists only their most recent rows (DESIGN 7): screens page from the server.
 * Each business area adds its loader here.
 */
export async function getAppData(tx: ReadTx, orgId: number, actor: AccessClaims) {
  // Sequential on purpose: a request's scope is one connection, which runs one query at a time.
  const loggedInUser = await getUser(tx, orgId, actor.userId);
  const company = await getCompany(tx, orgId);
  const workers = await listWorkers(tx, orgId, actor);
  return {
    loggedInUser,
    company,
    workers,
    assetCategories: (await listAssetCategories(tx, orgId, { page: 1 })).assetCategories,
    assets: await recentAssets(tx, orgId, 50),
    maintenanceOrders: await recentMaintenanceOrders(tx, orgId, 50),
    services: { services: await recentServices(tx, orgId, 50) },
    workOrders: await listRecentWorkOrders(tx, orgId, actor),
    workStations: await recentWorkStations(tx, orgId, 100),
    parts: await recentParts(tx, orgId, 50),
    uomCategories: (await listUomCategories(tx, orgId, { page: 1 })).uomCategories,
    productCategories: (await listProductCategories(tx, orgId, { page: 1 })).productCategories,
    taxes: (await listTaxes(tx, orgId, { page: 1 })).taxes,
    timeTrackReasons: (await listTimeTrackingReasons(tx, orgId, { page: 1 })).timeTrackingReasons,
  };
}
