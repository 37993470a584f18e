import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMINS, EVERYONE } from '../../server/plugins/request-context';
import { HttpError } from '../../server/http-error';
import { throttle } from '../../server/rate-limit';
import { publicOrigin } from '../../server/env';
import { secretBoxOf } from '../../server/secret-box';
import { REFRESH_TOKEN_DAYS } from '../auth/auth.service';
import { ssoFinishSchema, ssoReauthStartSchema, ssoSettingsAnswers as answers, ssoSettingsInputSchema } from './sso.schema';
import * as reauth from './sso-reauth.service';
import * as sso from './sso.service';

/** The refresh cookie of the password login (auth.routes.ts): the same name, path and flags. */
const REFRESH_COOKIE = 'refresh_token';
/** The browser's sealed sign-in state: sent back only by this organisation's own pages (SameSite=Strict). */
const STATE_COOKIE = 'sso_state';
const STATE_PATH = '/api/auth';

/**
 * Single sign-on with OpenID Connect (prefix /api/auth, decision 077): the admin's settings, the login page's
 * question, and the two legs of a sign-in (start: the provider's URL; finish: the provider's answer, then a session
 * exactly as the password login gives one).
 */
export async function ssoRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  const { config, database } = app.deps;
  const db = database.db;
  const secure = config.production || config.publicScheme === 'https';

  /** The organisation of the host; sign-in happens on the organisation's own address. */
  const orgOf = (req: FastifyRequest) => {
    if (!req.org) throw new HttpError(404, 'Organization not found');
    return req.org;
  };
  /** The redirect URI: the organisation's public origin (configured scheme, base domain and port; never the Host header). */
  const contextOf = (subdomain: string): sso.SsoContext => ({
    appSecret: config.jwtSecret,
    box: secretBoxOf(config),
    allowHttp: !config.production,
    allowPrivate: config.ssoAllowPrivate,
    redirectUri: `${publicOrigin(config, subdomain)}${sso.SSO_CALLBACK_PATH}`,
  });
  const clearState = (reply: FastifyReply) => reply.clearCookie(STATE_COOKIE, { path: STATE_PATH });

  app.get('/get-sso-settings', { schema: { response: { 200: answers.settings } }, config: { access: ADMINS } }, (req) =>
    req.read((tx) => sso.getSsoSettings(tx, req.auth.orgId, contextOf(orgOf(req).subdomain).redirectUri)),
  );

  app.put(
    '/update-sso-settings',
    { schema: { body: ssoSettingsInputSchema, response: { 200: answers.saved } }, config: { access: ADMINS, apiKeys: false } },
    async (req) => {
      const ctx = contextOf(orgOf(req).subdomain);
      // The provider is asked before the write, outside any transaction.
      await sso.checkProvider(ctx, req.body);
      return req.inTenant((tx) => sso.saveSsoSettings(tx, req.auth.orgId, ctx, req.body));
    },
  );

  app.get('/sso-options', { schema: { response: { 200: answers.options } }, config: { access: 'public' } }, (req) =>
    req.read((tx) => sso.getSsoOptions(tx, orgOf(req).id)),
  );

  app.post(
    '/start-sso',
    { schema: { response: { 200: answers.started } }, config: { access: 'public' }, onRequest: throttle('ssoStart') },
    async (req, reply) => {
      const org = orgOf(req);
      const { authorizationUrl, cookie } = await sso.startSso(db, org.id, contextOf(org.subdomain));
      reply.setCookie(STATE_COOKIE, cookie, { httpOnly: true, sameSite: 'strict', secure, path: STATE_PATH, maxAge: sso.SSO_STATE_SECONDS });
      return { authorizationUrl };
    },
  );

  app.post(
    '/finish-sso',
    { schema: { body: ssoFinishSchema, response: { 200: answers.token } }, config: { access: 'public' }, onRequest: throttle('ssoFinish') },
    async (req, reply) => {
      const org = orgOf(req);
      // The state is spent whatever the outcome: an answer is tried once.
      clearState(reply);
      try {
        const { accessToken, refreshToken } = await sso.finishSso(db, org.id, contextOf(org.subdomain), req.body.search, req.cookies[STATE_COOKIE], {
          ip: req.ip,
          userAgent: req.headers['user-agent'],
        });
        reply.setCookie(REFRESH_COOKIE, refreshToken, { httpOnly: true, sameSite: 'strict', secure, path: '/api', maxAge: REFRESH_TOKEN_DAYS * 86400 });
        return { accessToken };
      } catch (err) {
        logRefusal(req, err);
        throw err;
      }
    },
  );

  // A signer's fresh sign-in (decision 078 addendum): how the caller signs, then the two legs, which end in a proof
  // for one sign-off step instead of a session.
  app.get('/get-reauth-method', { schema: { response: { 200: answers.reauthMethod } }, config: { access: EVERYONE, apiKeys: false } }, (req) =>
    reauth.reauthMethod(db, req.auth.orgId, req.auth.userId),
  );

  app.post(
    '/start-sso-reauth',
    {
      schema: { body: ssoReauthStartSchema, response: { 200: answers.started } },
      config: { access: EVERYONE, apiKeys: false },
      onRequest: throttle('ssoStart'),
    },
    async (req, reply) => {
      const org = orgOf(req);
      const { authorizationUrl, cookie } = await reauth.startSsoReauth(db, org.id, contextOf(org.subdomain), req.auth.userId, req.body);
      reply.setCookie(STATE_COOKIE, cookie, { httpOnly: true, sameSite: 'strict', secure, path: STATE_PATH, maxAge: sso.SSO_STATE_SECONDS });
      return { authorizationUrl };
    },
  );

  app.post(
    '/finish-sso-reauth',
    {
      schema: { body: ssoFinishSchema, response: { 200: answers.reauthProof } },
      config: { access: EVERYONE, apiKeys: false },
      onRequest: throttle('ssoFinish'),
    },
    async (req, reply) => {
      const org = orgOf(req);
      clearState(reply);
      try {
        return await reauth.finishSsoReauth(db, org.id, contextOf(org.subdomain), req.auth.userId, req.body.search, req.cookies[STATE_COOKIE]);
      } catch (err) {
        logRefusal(req, err);
        throw err;
      }
    },
  );
}

/** A refusal's reason in the log (never a token, a code or a secret). */
function logRefusal(req: FastifyRequest, err: unknown) {
  if (err instanceof sso.SsoRefused) req.log.info({ reason: err.reason.slice(0, 300) }, 'single sign-on refused');
}
