import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE } from '../../server/plugins/request-context';
import { HttpError } from '../../server/http-error';
import { throttle } from '../../server/rate-limit';
import {
  authAnswers as answers,
  completeRegistrationSchema,
  demoRequestSchema,
  loginSchema,
  resetPasswordSchema,
  searchSubdomainSchema,
  signupSchema,
  verifyPasswordSchema,
  verifyTokenQuerySchema,
} from './auth.schema';
import * as auth from './auth.service';

const REFRESH_COOKIE = 'refresh_token';

/** Sign-up, sign-in, sessions, invitations (public side) and the password change. */
export async function authRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  const { config, database } = app.deps;
  const db = database.db;
  const secure = config.production || config.publicScheme === 'https';

  const setRefreshCookie = (reply: FastifyReply, token: string) =>
    reply.setCookie(REFRESH_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure,
      path: '/api',
      maxAge: auth.REFRESH_TOKEN_DAYS * 86400,
    });

  /** The organisation of the host, or 404: sign-in happens on the organisation's own address. */
  const requireOrg = (req: FastifyRequest) => {
    if (!req.org) throw new HttpError(404, 'Organization not found');
    return req.org;
  };

  /** /refresh and /logout accept only the organisation's own origin (a cookie-bearing call). */
  const checkOrigin = (req: FastifyRequest) => {
    const origin = req.headers.origin;
    if (!origin) return;
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      throw new HttpError(403, 'Origin not allowed');
    }
    if (host.toLowerCase() !== String(req.headers.host).toLowerCase()) throw new HttpError(403, 'Origin not allowed');
  };

  /** The sign-in page of an organisation, on the port the caller used (the SPA goes there after signup and from the landing dialog). */
  const loginUrl = (req: FastifyRequest, subdomain: string) => {
    const port = /:(\d+)$/.exec(String(req.headers.host ?? ''))?.[1];
    return `${config.publicScheme}://${subdomain}.${config.baseDomain}${port ? `:${port}` : ''}/login`;
  };

  app.post(
    '/signup',
    { schema: { body: signupSchema, response: { 201: answers.signedUp } }, config: { access: 'public' }, onRequest: throttle('signup') },
    async (req, reply) => {
      const ua = req.headers['user-agent'];
      const result = await auth.signup(db, req.body, { ip: req.ip, userAgent: typeof ua === 'string' ? ua : null });
      return reply.status(201).send({ ...result, loginUrl: loginUrl(req, result.subdomain) });
    },
  );

  app.post(
    '/search-subdomain',
    { schema: { body: searchSubdomainSchema, response: { 200: answers.subdomain } }, config: { access: 'public' }, onRequest: throttle('searchSubdomain') },
    async (req) => {
      const result = await auth.searchSubdomain(db, req.body.subdomain);
      return { ...result, loginUrl: loginUrl(req, result.subdomain) };
    },
  );

  app.post('/login', { schema: { body: loginSchema, response: { 200: answers.login } }, config: { access: 'public' } }, async (req, reply) => {
    const org = requireOrg(req);
    const result = await auth.login(db, org.id, req.body, req.ip, config.jwtSecret, config.loginLimits, { ip: req.ip, userAgent: req.headers['user-agent'] });
    // A second factor to give (or to enrol) first: a challenge, no session yet (decision 076).
    if (result.twoFactor) return { twoFactor: result.twoFactor, challenge: result.challenge };
    setRefreshCookie(reply, result.refreshToken);
    return { accessToken: result.accessToken };
  });

  app.post('/refresh', { schema: { response: { 200: answers.token } }, config: { access: 'public' } }, async (req, reply) => {
    const org = requireOrg(req);
    checkOrigin(req);
    try {
      const result = await auth.refresh(db, org.id, req.cookies[REFRESH_COOKIE], config.jwtSecret);
      if (result.refreshToken) setRefreshCookie(reply, result.refreshToken);
      return { accessToken: result.accessToken };
    } catch (err) {
      reply.clearCookie(REFRESH_COOKIE, { path: '/api' });
      throw err;
    }
  });

  app.post('/logout', { schema: { response: { 200: answers.message } }, config: { access: 'public' } }, async (req, reply) => {
    const org = requireOrg(req);
    checkOrigin(req);
    await auth.logout(db, org.id, req.cookies[REFRESH_COOKIE]);
    reply.clearCookie(REFRESH_COOKIE, { path: '/api' });
    return { message: 'Logged out' };
  });

  app.get(
    '/auth/verify-token',
    { schema: { querystring: verifyTokenQuerySchema, response: { 200: answers.invitation } }, config: { access: 'public' }, onRequest: throttle('tokenCheck') },
    (req) => req.read((tx) => auth.verifyInviteToken(tx, requireOrg(req).id, req.query.token)),
  );

  app.post(
    '/auth/complete-registration',
    { schema: { body: completeRegistrationSchema, response: { 200: answers.message } }, config: { access: 'public' }, onRequest: throttle('tokenCheck') },
    (req) => auth.completeRegistration(db, requireOrg(req).id, req.body),
  );

  // These three hash or check a password: they open their own short transactions around it (decision 021).
  app.post(
    '/user/verify-password',
    {
      schema: { body: verifyPasswordSchema, response: { 200: answers.message } },
      config: { access: EVERYONE, apiKeys: false },
      onRequest: throttle('verifyPassword', 'user'),
    },
    (req) => auth.verifyCurrentPassword(db, req.auth.orgId, req.auth.userId, req.auth.sessionId, req.body.currentPassword),
  );

  app.post(
    '/user/reset-password',
    { schema: { body: resetPasswordSchema, response: { 200: answers.message } }, config: { access: EVERYONE, apiKeys: false } },
    (req) => auth.resetPassword(db, req.auth.orgId, req.auth.userId, req.auth.sessionId, req.body.newPassword),
  );

  app.post(
    '/demo-requests',
    { schema: { body: demoRequestSchema, response: { 201: answers.message } }, config: { access: 'public' }, onRequest: throttle('demoRequest') },
    async (req, reply) => {
      return reply.status(201).send(await auth.addDemoRequest(db, req.body));
    },
  );
}
