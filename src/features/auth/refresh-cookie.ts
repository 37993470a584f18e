import type { FastifyReply } from 'fastify';
import type { Config } from '../../server/env';
import { REFRESH_TOKEN_DAYS } from './sessions.service';

export const REFRESH_COOKIE = 'refresh_token';

/** Sets the refresh cookie as /login does (DESIGN 5), for the other routes that end a sign-in (decision 076). */
export function setRefreshCookie(reply: FastifyReply, config: Pick<Config, 'production' | 'publicScheme'>, token: string) {
  reply.setCookie(REFRESH_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: config.production || config.publicScheme === 'https',
    path: '/api',
    maxAge: REFRESH_TOKEN_DAYS * 86400,
  });
}
