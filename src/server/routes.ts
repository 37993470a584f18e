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
  await app.register(maintenanceRequestsRoutes, { prefix: '/api/maintenance-requests' });
  await app.register(maintenanceOrdersRoutes, { prefix: '/api/maintenance-orders' });
}
