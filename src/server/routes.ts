import type { FastifyInstance } from 'fastify';
import { authRoutes } from '../features/auth/auth.routes';
import { invitationRoutes, usersRoutes } from '../features/users/users.routes';
import { organizationRoutes } from '../features/organization/organization.routes';
import { activityRoutes } from '../features/activity/activity.routes';
import { masterDataRoutes } from '../features/master-data/master-data.routes';
import { teamsRoutes } from '../features/teams/teams.routes';
import { maintenanceRequestsRoutes } from '../features/maintenance-requests/maintenance-requests.routes';
import { maintenanceOrdersRoutes } from '../features/maintenance-orders/maintenance-orders.routes';
import { customerVendorsRoutes } from '../features/customers-vendors/customers-vendors.routes';
import { workOrdersRoutes } from '../features/work-orders/work-orders.routes';
import { assetsRoutes } from '../features/assets/assets.routes';
import { locationsRoutes } from '../features/locations/locations.routes';
import { partsRoutes } from '../features/parts/parts.routes';
import { stockRoutes } from '../features/stock/stock.routes';
import { serviceCatalogRoutes } from '../features/service-catalog/service-catalog.routes';
import { workStationsRoutes } from '../features/work-stations/work-stations.routes';
import { calendarRoutes } from '../features/calendar/calendar.routes';
import { quotationsRoutes } from '../features/quotations/quotations.routes';
import { purchaseOrdersRoutes } from '../features/purchase-orders/purchase-orders.routes';
import { metersRoutes } from '../features/meters/meters.routes';
import { pmPlansRoutes } from '../features/pm-plans/pm-plans.routes';
import { proceduresRoutes, workOrderProcedureRoutes } from '../features/procedures/procedures.routes';
import { analyticsRoutes } from '../features/analytics/analytics.routes';
import { apiKeysRoutes } from '../features/api-keys/api-keys.routes';
import { webhooksRoutes } from '../features/webhooks/webhooks.routes';
import { dataTransferRoutes } from '../features/data-transfer/data-transfer.routes';
import { requestPortalRoutes } from '../features/request-portal/request-portal.routes';
import { workOrderSharesRoutes } from '../features/work-order-shares/work-order-shares.routes';
import { myWorkRoutes } from '../features/my-work/my-work.routes';
import { dashboardRoutes } from '../features/dashboard/dashboard.routes';

/**
 * Every feature's routes and their URL prefix under /api. A new business area adds one line here.
 */
export async function registerFeatureRoutes(app: FastifyInstance) {
  await app.register(authRoutes, { prefix: '/api' });
  await app.register(usersRoutes, { prefix: '/api/user' });
  await app.register(invitationRoutes, { prefix: '/api/auth' });
  await app.register(organizationRoutes, { prefix: '/api' });
  await app.register(activityRoutes, { prefix: '/api/activities' });
  await app.register(masterDataRoutes, { prefix: '/api' });
  await app.register(teamsRoutes, { prefix: '/api/teams' });
  await app.register(customerVendorsRoutes, { prefix: '/api/customer-vendors' });
  await app.register(quotationsRoutes, { prefix: '/api/quotations' });
  await app.register(purchaseOrdersRoutes, { prefix: '/api/purchase-orders' });
  await app.register(maintenanceRequestsRoutes, { prefix: '/api/maintenance-requests' });
  await app.register(maintenanceOrdersRoutes, { prefix: '/api/maintenance-orders' });
  await app.register(workOrdersRoutes, { prefix: '/api/work-orders' });
  await app.register(workOrderProcedureRoutes, { prefix: '/api/work-orders' });
  await app.register(proceduresRoutes, { prefix: '/api/procedures' });
  await app.register(assetsRoutes, { prefix: '/api/assets' });
  await app.register(locationsRoutes, { prefix: '/api/locations' });
  await app.register(partsRoutes, { prefix: '/api/parts' });
  await app.register(stockRoutes, { prefix: '/api/stock' });
  await app.register(serviceCatalogRoutes, { prefix: '/api/services' });
  await app.register(workStationsRoutes, { prefix: '/api/workstations' });
  await app.register(metersRoutes, { prefix: '/api/meters' });
  await app.register(pmPlansRoutes, { prefix: '/api/pm-plans' });
  await app.register(calendarRoutes, { prefix: '/api/calendar' });
  await app.register(analyticsRoutes, { prefix: '/api/analytics' });
  await app.register(apiKeysRoutes, { prefix: '/api/api-keys' });
  await app.register(webhooksRoutes, { prefix: '/api/webhooks' });
  await app.register(dataTransferRoutes, { prefix: '/api/data-transfer' });
  await app.register(requestPortalRoutes, { prefix: '/api/portal' });
  await app.register(workOrderSharesRoutes, { prefix: '/api/shared-work-orders' });
  await app.register(myWorkRoutes, { prefix: '/api/my-work' });
  await app.register(dashboardRoutes, { prefix: '/api/dashboard' });
}
