import type { FastifyInstance } from 'fastify';
import { authRoutes } from '../features/auth/auth.routes';
import { invitationRoutes, usersRoutes } from '../features/users/users.routes';
import { organizationRoutes } from '../features/organization/organization.routes';
import { activityRoutes } from '../features/activity/activity.routes';

/**
 * Every feature's routes and their URL prefix under /api. A new business area adds one line here.
 */
export async function registerFeatureRoutes(app: FastifyInstance) {
  await app.register(authRoutes, { prefix: '/api' });
  await app.register(usersRoutes, { prefix: '/api/user' });
  await app.register(invitationRoutes, { prefix: '/api/auth' });
  await app.register(organizationRoutes, { prefix: '/api' });
  await app.register(activityRoutes, { prefix: '/api/activities' });
}
