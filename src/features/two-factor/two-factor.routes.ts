import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMINS, EVERYONE } from '../../server/plugins/request-context';
import { HttpError } from '../../server/http-error';
import { throttle } from '../../server/rate-limit';
import { secretBoxOf } from '../../server/secret-box';
import { idParamsSchema } from '../../shared/pagination';
import { setRefreshCookie } from '../auth/refresh-cookie';
import {
  challengeSchema,
  confirmEnrolmentSchema,
  confirmSignInEnrolmentSchema,
  disableTwoFactorSchema,
  policySchema,
  regenerateRecoveryCodesSchema,
  twoFactorAnswers as answers,
  verifyTwoFactorSchema,
} from './two-factor.schema';
import * as twoFactor from './two-factor.service';
import { regenerateRecoveryCodes } from './two-factor.recovery';

/** Two-factor sign-in with an authenticator app (decision 076): the sign-in's second step, enrolment, the organisation's rule. */
export async function twoFactorRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  const { config, database } = app.deps;
  const db = database.db;
  const box = secretBoxOf(config);
  const orgOf = (org: { id: number } | undefined | null) => {
    if (!org) throw new HttpError(404, 'Organization not found');
    return org.id;
  };
  const ctx = (req: { ip: string; headers: { 'user-agent'?: string } }) => ({
    ip: req.ip,
    serverSecret: config.jwtSecret,
    box,
    limits: config.loginLimits,
    client: { ip: req.ip, userAgent: req.headers['user-agent'] },
  });

  // --- The sign-in's second step (public: the challenge of /login stands for the password).
  app.post(
    '/auth/verify-two-factor',
    { schema: { body: verifyTwoFactorSchema, response: { 200: answers.token } }, config: { access: 'public' } },
    async (req, reply) => {
      const { accessToken, refreshToken } = await twoFactor.verifySignIn(db, orgOf(req.org), req.body, ctx(req));
      setRefreshCookie(reply, config, refreshToken);
      return { accessToken };
    },
  );

  app.post(
    '/auth/start-two-factor-enrolment',
    { schema: { body: challengeSchema, response: { 200: answers.enrolment } }, config: { access: 'public' }, onRequest: throttle('tokenCheck') },
    (req) => twoFactor.startSignInEnrolment(db, orgOf(req.org), req.body.challenge, ctx(req)),
  );

  app.post(
    '/auth/confirm-two-factor-enrolment',
    { schema: { body: confirmSignInEnrolmentSchema, response: { 200: answers.signedInWithCodes } }, config: { access: 'public' } },
    async (req, reply) => {
      const { accessToken, refreshToken, recoveryCodes } = await twoFactor.confirmSignInEnrolment(db, orgOf(req.org), req.body, ctx(req));
      setRefreshCookie(reply, config, refreshToken);
      return { accessToken, recoveryCodes };
    },
  );

  // --- The signed-in person's own enrolment.
  app.get('/two-factor/get-status', { schema: { response: { 200: answers.status } }, config: { access: EVERYONE, apiKeys: false } }, (req) =>
    req.read((tx) => twoFactor.getStatus(tx, req.auth.orgId, { userId: req.auth.userId, role: req.auth.role })),
  );

  app.post('/two-factor/start-enrolment', { schema: { response: { 200: answers.enrolment } }, config: { access: EVERYONE, apiKeys: false } }, (req) =>
    req.inTenant((tx) => twoFactor.startEnrolment(tx, req.auth.orgId, req.auth.userId, box)),
  );

  app.post(
    '/two-factor/confirm-enrolment',
    {
      schema: { body: confirmEnrolmentSchema, response: { 200: answers.recoveryCodes } },
      config: { access: EVERYONE, apiKeys: false },
      onRequest: throttle('verifyPassword', 'user'),
    },
    (req) => req.inTenant((tx) => twoFactor.confirmEnrolment(tx, req.auth.orgId, req.auth.userId, req.body.code, box)),
  );

  app.post(
    '/two-factor/disable',
    {
      schema: { body: disableTwoFactorSchema, response: { 200: answers.message } },
      config: { access: EVERYONE, apiKeys: false },
      onRequest: throttle('verifyPassword', 'user'),
    },
    (req) => twoFactor.disableTwoFactor(db, req.auth.orgId, { userId: req.auth.userId, role: req.auth.role }, req.body, box),
  );

  app.post(
    '/two-factor/regenerate-recovery-codes',
    {
      schema: { body: regenerateRecoveryCodesSchema, response: { 200: answers.recoveryCodes } },
      config: { access: EVERYONE, apiKeys: false },
      onRequest: throttle('verifyPassword', 'user'),
    },
    (req) => regenerateRecoveryCodes(db, req.auth.orgId, req.auth.userId, req.body.password),
  );

  // --- The organisation's rule and an admin's reset of a person's enrolment.
  app.get('/two-factor/get-policy', { schema: { response: { 200: answers.policy } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => twoFactor.getPolicy(tx, req.auth.orgId)),
  );

  app.put(
    '/two-factor/update-policy',
    { schema: { body: policySchema, response: { 200: answers.policy } }, config: { access: ADMINS, apiKeys: false } },
    (req) => req.inTenant((tx) => twoFactor.updatePolicy(tx, req.auth.orgId, req.auth.userId, req.body.required)),
  );

  app.post(
    '/user/reset-two-factor/:id',
    { schema: { params: idParamsSchema, response: { 200: answers.message } }, config: { access: ADMINS, apiKeys: false } },
    (req) => req.inTenant((tx) => twoFactor.resetTwoFactor(tx, req.auth.orgId, req.params.id)),
  );
}
