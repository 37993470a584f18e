/**
 * A real OpenID provider for the tests and the browser journey (decision 077): `oidc-provider` from the npm registry
 * on a free port of 127.0.0.1, with its own signing key. Its sign-in is programmatic: the interaction signs in the
 * account `nextLogin` names and grants the scopes asked, with no page. `tamper` rewrites the ID token the token
 * endpoint answers (re-signed with the provider's own key, or another) to check what the app refuses.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import Provider from 'oidc-provider';

export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
}

export interface TestClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export interface TestProvider {
  issuer: string;
  accounts: Map<string, TestAccount>;
  /** The account the next interaction signs in (its id in `accounts`). */
  nextLogin: string;
  /** Rewrites the next ID tokens' claims; `key: 'other'` signs with a key the provider never published. */
  tamper: ((claims: JWTPayload) => JWTPayload) | null;
  tamperKey: 'provider' | 'other';
  addClient(client: TestClient): void;
  close(): Promise<void>;
}

export async function startTestProvider(clients: TestClient[] = []): Promise<TestProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const other = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const registered = [...clients];
  const state: TestProvider = {
    issuer,
    accounts: new Map(),
    nextLogin: '',
    tamper: null,
    tamperKey: 'provider',
    addClient(client) {
      registered.push(client);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const provider = new Provider(issuer, {
    // Clients are looked up on each use (the tests register the organisations' redirect URIs as they make them).
    adapter: memoryAdapter(registered),
    jwks: { keys: [jwk] },
    cookies: { keys: ['oidc-test-provider-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    findAccount: (_ctx, id) => {
      const account = state.accounts.get(id);
      return account ? { accountId: id, claims: () => ({ sub: id, ...account }) } : undefined;
    },
  });
  // The interaction: sign `nextLogin` in and grant what was asked, then back to the authorization.
  provider.use(async (ctx, next) => {
    const uid = /^\/interaction\/([^/]+)$/.exec(ctx.path)?.[1];
    if (uid) {
      const details = await provider.interactionDetails(ctx.req, ctx.res);
      const accountId = state.nextLogin;
      const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      const to = await provider.interactionResult(ctx.req, ctx.res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
      ctx.status = 303;
      ctx.redirect(to);
      return;
    }
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === '/token' && state.tamper && body?.id_token) {
      const claims = state.tamper(decodeJwt(body.id_token));
      const header = decodeProtectedHeader(body.id_token);
      const id_token = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: header.kid, typ: header.typ })
        .sign(state.tamperKey === 'other' ? other.privateKey : privateKey);
      ctx.body = { ...body, id_token };
    }
  });
  server.on('request', provider.callback());
  return state;
}

/** oidc-provider's storage in memory, with the clients read from the live list. */
function memoryAdapter(clients: TestClient[]) {
  const store = new Map<string, unknown>();
  return class MemoryAdapter {
    constructor(private readonly name: string) {}
    key(id: string) {
      return `${this.name}:${id}`;
    }
    async upsert(id: string, payload: unknown) {
      store.set(this.key(id), payload);
    }
    async find(id: string) {
      if (this.name === 'Client') {
        const client = clients.find((c) => c.client_id === id);
        if (!client) return undefined;
        return { ...client, grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' } as never;
      }
      return store.get(this.key(id)) as never;
    }
    async findByUserCode() {
      return undefined;
    }
    async findByUid(uid: string) {
      for (const [k, v] of store) if (k.startsWith(`${this.name}:`) && (v as { uid?: string }).uid === uid) return v as never;
      return undefined;
    }
    async consume(id: string) {
      const v = store.get(this.key(id)) as Record<string, unknown> | undefined;
      if (v) v.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [k, v] of store) if ((v as { grantId?: string }).grantId === grantId) store.delete(k);
    }
  };
}

/** Cookies of one browser at the provider (the interaction's), for driving it over HTTP. */
export function cookieJar() {
  const jar = new Map<string, string>();
  return {
    header: () => [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
    take(res: Response) {
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const i = pair.indexOf('=');
        jar.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim());
      }
    },
  };
}

/**
 * Follows the provider's redirects from an authorization URL, as a browser would, until it sends the browser back to
 * the client (`redirectUri`): the query string it came back with (`?code=…&state=…&iss=…`).
 */
export async function driveProvider(authorizationUrl: string, redirectUri: string): Promise<string> {
  const jar = cookieJar();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith(redirectUri)) return new URL(url).search;
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(res);
    const location = res.headers.get('location');
    if (!location) throw new Error(`the provider answered ${res.status} without a redirect: ${(await res.text()).slice(0, 300)}`);
    await res.arrayBuffer();
    url = new URL(location, url).href;
  }
  throw new Error('the provider never sent the browser back');
}
