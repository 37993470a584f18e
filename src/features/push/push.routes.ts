import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE } from '../../server/plugins/request-context';
import { badRequest } from '../../server/http-error';
import { PUSH_MESSAGES, pushPublicKeySchema, pushSubscriptionInputSchema, pushSubscriptionListSchema, pushUnsubscribeSchema } from './push.schema';
import { addSubscription, deleteSubscription, listMySubscriptions } from './push.service';

/**
 * Web Push (prefix /api/push, decision 075): the deployment's VAPID public key, and each person's own devices.
 * Everyone manages only their own subscriptions: the routes take no user id.
 */
export async function pushRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  const { vapid, webhooks } = app.deps.config;

  app.get('/get-public-key', { schema: { response: { 200: pushPublicKeySchema } }, config: { access: EVERYONE } }, async () => ({
    publicKey: vapid?.publicKey ?? null,
  }));

  app.get('/list-subscriptions', { schema: { response: { 200: pushSubscriptionListSchema } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listMySubscriptions(tx, req.auth.orgId, req.auth.userId)),
  );

  app.post(
    '/add-subscription',
    { schema: { body: pushSubscriptionInputSchema, response: { 200: pushSubscriptionListSchema } }, config: { access: EVERYONE } },
    (req) => {
      if (!vapid) throw badRequest(PUSH_MESSAGES.off);
      // Real push services are https; plain http only where outbound private addresses are allowed (tests, on-premises).
      if (!req.body.endpoint.startsWith('https://') && !webhooks.allowPrivate) throw badRequest(PUSH_MESSAGES.endpoint, 'endpoint');
      return req.inTenant((tx) => addSubscription(tx, req.auth.orgId, req.auth.userId, req.body));
    },
  );

  app.post(
    '/delete-subscription',
    { schema: { body: pushUnsubscribeSchema, response: { 200: pushSubscriptionListSchema } }, config: { access: EVERYONE } },
    (req) => req.inTenant((tx) => deleteSubscription(tx, req.auth.orgId, req.auth.userId, req.body.endpoint)),
  );
}
