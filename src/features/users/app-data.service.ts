import type { Tx } from '../../server/db/client';
import type { AccessClaims } from '../auth/tokens';
import { getCompany } from '../organization/organization.service';
import { getUser, listWorkers } from './users.service';

/**
 * GET /user/get-app-data: every key of spec section 7 "Application data". Master data and people come
 * whole (they are small); the big lists only their most recent rows (DESIGN 7): screens page from the server.
 * Each business area adds its loader here.
 */
export async function getAppData(tx: Tx, orgId: number, actor: AccessClaims) {
  const [loggedInUser, company, workers] = await Promise.all([
    getUser(tx, orgId, actor.userId),
    getCompany(tx, orgId),
    listWorkers(tx, orgId),
  ]);
  return {
    loggedInUser,
    company,
    workers,
    assetCategories: [] as unknown[],
    assets: [] as unknown[],
    maintenanceOrders: [] as unknown[],
    services: { services: [] as unknown[] },
    workOrders: [] as unknown[],
    workStations: [] as unknown[],
    parts: [] as unknown[],
    uomCategories: [] as unknown[],
    productCategories: [] as unknown[],
    taxes: [] as unknown[],
    timeTrackReasons: [] as unknown[],
  };
}
