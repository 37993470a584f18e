import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import * as oidc from 'openid-client';
import type { Db, ReadTx, Tx } from '../../server/db/client';
import { withTenant } from '../../server/db/client';
import { HttpError } from '../../server/http-error';
import type { SecretBox } from '../../server/secret-box';
import { issueSession, type SignInClient } from '../auth/sessions.service';
import { userForSingleSignOn } from '../users/users.service';
import { seal, unseal } from './sso.crypto';
import { guardedFetch } from './sso.fetch';
import { ForbiddenAddressError } from '../webhooks/outbound';

/** A refusal by the address guard, however deep openid-client wrapped it. */
const isForbidden = (err: unknown): boolean =>
  err instanceof ForbiddenAddressError || (err instanceof Error && (err.name === 'ForbiddenAddressError' || isForbidden(err.cause)));
import { ssoSettings } from './sso.table';
import { SSO_MESSAGES, type SsoSettingsDto, type ssoSettingsInputSchema } from './sso.schema';

/** What the service needs of the app's configuration. */
export interface SsoContext {
  /** JWT_SECRET: the key of the sealed state cookie is derived from it (and sessions are signed with it). */
  appSecret: string;
  /** ENCRYPTION_KEY's box: the client secret at rest (decision 083). */
  box: SecretBox;
  /** Outside production a provider may answer over plain http (tests, a provider on the same machine). */
  allowHttp: boolean;
  /** SSO_ALLOW_PRIVATE_ADDRESSES: the provider may be on a private or loopback address (decision 083). */
  allowPrivate: boolean;
  /** The organisation's redirect URI: `publicOrigin(config, subdomain)` + SSO_CALLBACK_PATH. */
  redirectUri: string;
}

/** The SPA page the provider sends the browser back to, on the organisation's own host. */
export const SSO_CALLBACK_PATH = '/sso/callback';
/** The browser's sign-in state (state, nonce, PKCE verifier) lives this long in its sealed cookie. */
export const SSO_STATE_SECONDS = 10 * 60;
/** How long a provider may take to answer one request. */
const PROVIDER_TIMEOUT_SECONDS = 10;

type Row = typeof ssoSettings.$inferSelect;

const toDto = (row: Row | undefined, redirectUri: string): SsoSettingsDto =>
  row
    ? {
        configured: true,
        enabled: row.enabled,
        displayName: row.displayName,
        issuer: row.issuer,
        clientId: row.clientId,
        clientSecretSet: row.clientSecretEncrypted !== '',
        defaultRole: row.defaultRole,
        createUsers: row.createUsers,
        ssoOnly: row.ssoOnly,
        redirectUri,
      }
    : {
        configured: false,
        enabled: false,
        displayName: '',
        issuer: '',
        clientId: '',
        clientSecretSet: false,
        defaultRole: 'worker',
        createUsers: false,
        ssoOnly: false,
        redirectUri,
      };

async function readRow(tx: ReadTx, orgId: number) {
  const [row] = await tx.select().from(ssoSettings).where(eq(ssoSettings.orgId, orgId));
  return row;
}

export async function getSsoSettings(tx: ReadTx, orgId: number, redirectUri: string) {
  return { settings: toDto(await readRow(tx, orgId), redirectUri) };
}

/** The login page's question (public): a button, its name, and whether password sign-in is for admins only. */
export async function getSsoOptions(tx: ReadTx, orgId: number) {
  const row = await readRow(tx, orgId);
  const enabled = !!row?.enabled;
  return { enabled, displayName: enabled ? row!.displayName : null, ssoOnly: enabled && row!.ssoOnly };
}

/** The provider's configuration for a client; `discovery` reads and checks its metadata (the issuer must match). */
async function discover(ctx: Pick<SsoContext, 'allowHttp' | 'allowPrivate'>, issuer: string, clientId: string, clientSecret: string) {
  const url = new URL(issuer);
  const insecure = url.protocol === 'http:';
  if (insecure && !ctx.allowHttp) throw new HttpError(400, SSO_MESSAGES.issuerInvalid, [{ path: 'issuer', message: SSO_MESSAGES.issuerInvalid }]);
  const config = await oidc.discovery(url, clientId, { client_secret: clientSecret }, undefined, {
    timeout: PROVIDER_TIMEOUT_SECONDS,
    ...(ctx.allowPrivate ? {} : { [oidc.customFetch]: guardedFetch }),
    // The ID token's signature is checked against the provider's keys too, not only its claims (decision 077).
    execute: [...(insecure ? [oidc.allowInsecureRequests] : []), oidc.enableNonRepudiationChecks],
  });
  // Client authentication as the provider offers it: HTTP Basic (OpenID Connect's default), else the form body.
  const methods = config.serverMetadata().token_endpoint_auth_methods_supported;
  const auth = methods && !methods.includes('client_secret_basic') && methods.includes('client_secret_post') ? 'post' : 'basic';
  if (auth === 'basic') {
    // The configuration's client authentication is fixed at construction: build it again with Basic.
    return guarded(ctx, withBasic(config, clientId, clientSecret, insecure));
  }
  return guarded(ctx, config);
}

/** Token and key requests of the configuration go through the same guard as its discovery. */
function guarded(ctx: Pick<SsoContext, 'allowPrivate'>, config: oidc.Configuration) {
  if (!ctx.allowPrivate) config[oidc.customFetch] = guardedFetch as never;
  return config;
}

function withBasic(discovered: oidc.Configuration, clientId: string, clientSecret: string, insecure: boolean) {
  const config = new oidc.Configuration(discovered.serverMetadata(), clientId, { client_secret: clientSecret }, oidc.ClientSecretBasic(clientSecret));
  config.timeout = PROVIDER_TIMEOUT_SECONDS;
  if (insecure) oidc.allowInsecureRequests(config);
  oidc.enableNonRepudiationChecks(config);
  return config;
}

/** Discovered configurations per organisation, for as long as their settings stay the same (and ten minutes at most). */
const configurations = new Map<number, { key: string; until: number; config: Promise<oidc.Configuration> }>();
const CONFIGURATION_MS = 10 * 60_000;

function configurationOf(ctx: SsoContext, orgId: number, row: Row) {
  const key = `${row.updatedAt.getTime()}:${row.issuer}:${row.clientId}`;
  const hit = configurations.get(orgId);
  if (hit && hit.key === key && hit.until > Date.now()) return hit.config;
  const secret = ctx.box.open('sso-client-secret', row.clientSecretEncrypted);
  if (secret === null) throw new HttpError(503, SSO_MESSAGES.notSetUp);
  const config = discover(ctx, row.issuer, row.clientId, secret);
  if (configurations.size > 1000) configurations.clear();
  configurations.set(orgId, { key, until: Date.now() + CONFIGURATION_MS, config });
  // A failed discovery is not kept: the next sign-in tries again.
  config.catch(() => configurations.delete(orgId));
  return config;
}

/** The organisation's provider configuration for a sign-in: a provider out of reach is a 502 (our own refusals go on as they are). */
async function reachableConfiguration(ctx: SsoContext, orgId: number, row: Row) {
  try {
    return await configurationOf(ctx, orgId, row);
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw new HttpError(502, SSO_MESSAGES.unreachable);
  }
}

/**
 * Checks that the issuer answers as an OpenID provider (its discovery document, whose issuer must be the one
 * entered) before anything is saved; a provider out of reach is a 400 on the issuer field. Outside any transaction.
 */
export async function checkProvider(ctx: Pick<SsoContext, 'allowHttp' | 'allowPrivate'>, input: z.output<typeof ssoSettingsInputSchema>) {
  try {
    await discover(ctx, input.issuer, input.clientId, input.clientSecret ?? 'unused');
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const message = isForbidden(err) ? SSO_MESSAGES.privateAddress : SSO_MESSAGES.unreachable;
    throw new HttpError(400, message, [{ path: 'issuer', message }]);
  }
}

export async function saveSsoSettings(tx: Tx, orgId: number, ctx: Pick<SsoContext, 'box' | 'redirectUri'>, input: z.output<typeof ssoSettingsInputSchema>) {
  const current = await readRow(tx, orgId);
  if (!input.clientSecret && !current?.clientSecretEncrypted) {
    throw new HttpError(400, SSO_MESSAGES.secretRequired, [{ path: 'clientSecret', message: SSO_MESSAGES.secretRequired }]);
  }
  const values = {
    enabled: input.enabled,
    displayName: input.displayName,
    issuer: input.issuer,
    clientId: input.clientId,
    clientSecretEncrypted: input.clientSecret ? ctx.box.seal('sso-client-secret', input.clientSecret) : current!.clientSecretEncrypted,
    defaultRole: input.defaultRole,
    createUsers: input.createUsers,
    ssoOnly: input.ssoOnly,
    updatedAt: new Date(),
  };
  const [row] = await tx
    .insert(ssoSettings)
    .values({ orgId, ...values })
    .onConflictDoUpdate({ target: ssoSettings.orgId, set: values })
    .returning();
  configurations.delete(orgId);
  return { message: 'Single sign-on settings saved', settings: toDto(row, ctx.redirectUri) };
}

interface BrowserState {
  orgId: number;
  state: string;
  nonce: string;
  verifier: string;
  expiresAt: number;
  /** Set for a signer's fresh sign-in (sso-reauth.service.ts): who asked, for which step, and when (seconds). */
  reauth?: ReauthRequest;
}

/** A signer's fresh sign-in asked: the person, the procedure step and the time of the request (Unix seconds). */
export interface ReauthRequest {
  userId: number;
  workOrderId: number;
  stepId: number;
  requestedAt: number;
}

async function enabledRow(db: Db, orgId: number) {
  const row = await withTenant(db, orgId, (tx) => readRow(tx, orgId), { readOnly: true });
  if (!row?.enabled) throw new HttpError(404, SSO_MESSAGES.notSetUp);
  return row;
}

/**
 * The first leg: the provider's authorization URL (code flow, PKCE S256, state and nonce) and the sealed cookie that
 * binds them to this browser. Nothing is written. For a signer's re-authentication (`reauth`) the provider is asked
 * for a new sign-in whatever session it holds (`prompt=login`, `max_age=0`).
 */
export async function startSso(db: Db, orgId: number, ctx: SsoContext, reauth?: ReauthRequest) {
  const row = await enabledRow(db, orgId);
  const config = await reachableConfiguration(ctx, orgId, row);
  const browser: BrowserState = {
    orgId,
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    verifier: oidc.randomPKCECodeVerifier(),
    expiresAt: Date.now() + SSO_STATE_SECONDS * 1000,
    ...(reauth ? { reauth } : {}),
  };
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: ctx.redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    state: browser.state,
    nonce: browser.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(browser.verifier),
    code_challenge_method: 'S256',
    ...(reauth ? { prompt: 'login', max_age: '0' } : {}),
  });
  return { authorizationUrl: url.href, cookie: seal(ctx.appSecret, 'sso-state', JSON.stringify(browser)) };
}

/** Why a sign-in was refused, for the log (never a token, a code or a secret). */
export class SsoRefused extends HttpError {
  constructor(
    status: number,
    message: string,
    readonly reason: string,
  ) {
    super(status, message);
  }
}

function browserStateOf(ctx: SsoContext, orgId: number, cookie: string | undefined): BrowserState {
  const text = unseal(ctx.appSecret, 'sso-state', cookie);
  if (!text) throw new SsoRefused(400, SSO_MESSAGES.notCompleted, 'no state cookie');
  const state = JSON.parse(text) as BrowserState;
  if (state.orgId !== orgId) throw new SsoRefused(400, SSO_MESSAGES.notCompleted, 'state of another organisation');
  if (state.expiresAt < Date.now()) throw new SsoRefused(400, SSO_MESSAGES.notCompleted, 'state expired');
  return state;
}

const text = (v: unknown, max = 100) => (typeof v === 'string' ? v.trim().slice(0, max) : '');

/**
 * The second leg: the provider's answer (`search`, the callback's query string) is checked against this browser's
 * state, the code exchanged with the PKCE verifier, the ID token verified (signature with the provider's keys,
 * issuer, audience, expiry, nonce), the person found by their verified e-mail (or created when the admin allows),
 * and a session started as the password login starts one.
 */
export async function finishSso(db: Db, orgId: number, ctx: SsoContext, search: string, cookie: string | undefined, client: SignInClient = {}) {
  const { row, browser, email, person } = await verifiedAnswer(db, orgId, ctx, search, cookie);
  // A signer's re-authentication opens no session.
  if (browser.reauth) throw new SsoRefused(400, SSO_MESSAGES.notCompleted, 'state of a re-authentication');
  const firstName = text(person.given_name) || text(person.name) || email.split('@')[0].slice(0, 100);
  const lastName = text(person.family_name);
  const result = await withTenant(db, orgId, async (tx) => {
    const user = await userForSingleSignOn(tx, orgId, { email, firstName, lastName }, row.createUsers ? { role: row.defaultRole } : null);
    return user ?? null;
  });
  if (!result) throw new SsoRefused(403, SSO_MESSAGES.notInvited, 'not invited');
  // the session as every sign-in ends (decision 076): the device recorded for the person's list
  const session = await issueSession(db, orgId, result, ctx.appSecret, client);
  return { accessToken: session.accessToken, refreshToken: session.refreshToken };
}

/**
 * The provider's answer checked (state against this browser's cookie, code exchanged with the PKCE verifier, ID
 * token verified) and the person's verified e-mail: what a sign-in and a signer's re-authentication share.
 */
export async function verifiedAnswer(db: Db, orgId: number, ctx: SsoContext, search: string, cookie: string | undefined) {
  const row = await enabledRow(db, orgId);
  const browser = browserStateOf(ctx, orgId, cookie);
  const config = await reachableConfiguration(ctx, orgId, row);
  const callback = new URL(ctx.redirectUri);
  callback.search = search.startsWith('?') ? search : `?${search}`;
  // The answer must be to this browser's own request (its state), and a success: otherwise the sign-in did not
  // complete (a refusal at the provider, an answer carried to another browser). Checked again by the library.
  const answered = callback.searchParams;
  if (answered.get('state') !== browser.state) throw new SsoRefused(401, SSO_MESSAGES.notCompleted, 'state differs');
  if (answered.has('error')) throw new SsoRefused(401, SSO_MESSAGES.notCompleted, `provider error ${text(answered.get('error'))}`);
  let claims: oidc.IDToken;
  let accessToken: string;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: browser.verifier,
      expectedState: browser.state,
      expectedNonce: browser.nonce,
      idTokenExpected: true,
    });
    const found = tokens.claims();
    if (!found) throw new Error('no ID token');
    claims = found;
    accessToken = tokens.access_token;
  } catch (err) {
    const code = (err as { code?: string }).code ?? (err as Error).name;
    throw new SsoRefused(401, SSO_MESSAGES.notVerified, `${code}: ${(err as Error).message}`);
  }
  let person: Record<string, unknown> = claims;
  if (typeof claims.email !== 'string') {
    // Some providers put the e-mail in the UserInfo answer only.
    try {
      person = { ...(await oidc.fetchUserInfo(config, accessToken, claims.sub)), ...claims };
    } catch {
      throw new SsoRefused(401, SSO_MESSAGES.noEmail, 'userinfo failed');
    }
  }
  const email = text(person.email, 254).toLowerCase();
  // An address the provider says it has not verified names nobody: anyone could have typed it there.
  if (!email || !email.includes('@') || person.email_verified === false) throw new SsoRefused(401, SSO_MESSAGES.noEmail, 'no verified e-mail');
  return { row, browser, email, person, claims };
}
