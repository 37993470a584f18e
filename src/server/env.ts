import { createECDH, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { LoginLimits, RouteLimits } from './rate-limit';
import type { EncryptionKeys } from './secret-box';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  baseDomain: string;
  databaseUrl?: string;
  smtpUrl?: string;
  jwtSecret: string;
  /** ENCRYPTION_KEY (+ ENCRYPTION_KEY_PREVIOUS): seals the secrets stored in the database (decision 083). */
  encryptionKeys: EncryptionKeys;
  logLevel: string;
  production: boolean;
  /** Seed the demo organisation (published password): by default only outside production. */
  seedDemo: boolean;
  /** Fastify's `trustProxy`: whose X-Forwarded-For decides `req.ip` (off by default; decision 022). */
  trustProxy: boolean | number | string[];
  /** Scheme used in links we e-mail (invitations). */
  publicScheme: 'http' | 'https';
  /** Port in links we e-mail or print (PUBLIC_PORT); outside production the server's own by default, none in production. */
  publicPort: number | null;
  loginLimits: LoginLimits;
  /** Per-route limits of the other public or password-checking routes (decision 022). */
  routeLimits: RouteLimits;
  /** How often the embedded database (PGlite, which has no autovacuum) is vacuumed; 0 turns it off. */
  pgliteVacuumMinutes: number;
  /** Outbound webhooks (decision 043). */
  webhooks: WebhookSettings;
  /** SSO_ALLOW_PRIVATE_ADDRESSES=true: identity providers may be on private and loopback addresses (decision 083). */
  ssoAllowPrivate: boolean;
  /** Uploaded files in an S3 bucket (S3_BUCKET) instead of `<DATA_DIR>/uploads` (decision 061); null: the folder. */
  s3: S3Settings | null;
  /** METRICS_PORT: Prometheus metrics on a listener of their own (never the public port; decision 067); null: none. */
  metricsPort: number | null;
  /** METRICS_HOST: the metrics listener's address; HOST by default. */
  metricsHost: string;
  /** Web Push's VAPID key pair (decision 075); always set (required in production, kept in DATA_DIR otherwise). */
  vapid: VapidKeys | null;
}

/** The VAPID keys (RFC 8292) as web-push takes them: P-256, base64url (public uncompressed, private 32 bytes). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** VAPID_SUBJECT: a `mailto:` or `https:` contact for push services; `mailto:push@<BASE_DOMAIN>` by default. */
  subject: string;
}

/** A new VAPID key pair (what web-push's generateVAPIDKeys makes, without loading it at start). */
export function newVapidKeys(): Omit<VapidKeys, 'subject'> {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const priv = ecdh.getPrivateKey();
  // 32 bytes, zero-padded: a key with leading zeros comes back shorter.
  const privateKey = Buffer.concat([Buffer.alloc(32 - priv.length), priv]).toString('base64url');
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey };
}

/**
 * VAPID_PUBLIC_KEY + VAPID_PRIVATE_KEY, or outside production a pair made once and kept in DATA_DIR/vapid-keys.json
 * (mode 600), as the JWT secret is: the same keys across restarts, so devices' subscriptions stay valid. In
 * production they are required, as JWT_SECRET is (decision 075, addendum): several instances must sign with one
 * pair, and a pair made on one instance's disk would die with it and every device's subscription too. A pair that
 * is not a P-256 key pair in base64url (a truncated paste) refuses the start rather than failing every push.
 */
function vapidKeys(env: NodeJS.ProcessEnv, dataDir: string, production: boolean, baseDomain: string): VapidKeys | null {
  const subject = env.VAPID_SUBJECT || `mailto:push@${baseDomain}`;
  if (env.VAPID_PUBLIC_KEY || env.VAPID_PRIVATE_KEY) {
    const publicKey = Buffer.from(env.VAPID_PUBLIC_KEY ?? '', 'base64url');
    const privateKey = Buffer.from(env.VAPID_PRIVATE_KEY ?? '', 'base64url');
    if (publicKey.length !== 65 || publicKey[0] !== 4 || privateKey.length !== 32)
      throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be a P-256 key pair in base64url (npx web-push generate-vapid-keys)');
    return { publicKey: env.VAPID_PUBLIC_KEY!, privateKey: env.VAPID_PRIVATE_KEY!, subject };
  }
  if (production) throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are required in production (npx web-push generate-vapid-keys)');
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'vapid-keys.json');
  if (!existsSync(file)) writeFileSync(file, JSON.stringify(newVapidKeys()), { mode: 0o600 });
  const kept = JSON.parse(readFileSync(file, 'utf8')) as Omit<VapidKeys, 'subject'>;
  return { publicKey: kept.publicKey, privateKey: kept.privateKey, subject };
}

/** Outside production, a secret the environment leaves unset: made once into DATA_DIR/<name> (mode 600), read from there after. */
function keptSecret(dataDir: string, name: string, bytes: number): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, name);
  if (!existsSync(file)) writeFileSync(file, randomBytes(bytes).toString('base64url'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/**
 * ENCRYPTION_KEY, or outside production a key made once and kept in DATA_DIR/encryption-key (mode 600), as the JWT
 * secret is. Required in production (every instance must hold the same one, and it must be backed up with the
 * database: without it the stored two-factor and SSO secrets are lost). ENCRYPTION_KEY_PREVIOUS: comma-separated
 * earlier keys, which still open rows sealed under them (decision 083).
 */
function encryptionKeys(env: NodeJS.ProcessEnv, dataDir: string, production: boolean): EncryptionKeys {
  const previous = (env.ENCRYPTION_KEY_PREVIOUS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
  let current = env.ENCRYPTION_KEY?.trim();
  if (!current) {
    if (production) throw new Error('ENCRYPTION_KEY is required in production (openssl rand -base64 32)');
    current = keptSecret(dataDir, 'encryption-key', 32);
  }
  if (production && Buffer.byteLength(current, 'utf8') < 32) throw new Error('ENCRYPTION_KEY must be at least 32 bytes in production');
  return { current, previous };
}

/**
 * The bucket and, from the AWS SDK's own variables, the endpoint, region, keys and checksum modes. Keys left unset
 * are found by the SDK's usual chain (profile, instance or task role).
 */
export interface S3Settings {
  bucket: string;
  /** S3_PREFIX: the keys' common start (`cmms/`), when the bucket is shared; empty by default. */
  prefix: string;
  /** AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL (MinIO, Ceph, R2…): then path-style addressing. */
  endpoint?: string;
  forcePathStyle: boolean;
  region?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** AWS_REQUEST_CHECKSUM_CALCULATION / AWS_RESPONSE_CHECKSUM_VALIDATION: `WHEN_REQUIRED` for servers that mishandle the SDK's default checksums. */
  requestChecksumCalculation?: 'WHEN_SUPPORTED' | 'WHEN_REQUIRED';
  responseChecksumValidation?: 'WHEN_SUPPORTED' | 'WHEN_REQUIRED';
}

export interface WebhookSettings {
  /** WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true: deliveries may reach private and loopback addresses (tests, on-premises receivers). */
  allowPrivate: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
  /** The first retry's delay; each further one doubles it. */
  retryBaseSeconds: number;
  /** Tries stop this long after the event (or a redelivery). */
  retryHours: number;
  /** An endpoint failing this long without a success is disabled and its admins told. */
  disableAfterHours: number;
}

/** Reads the environment once. JWT_SECRET is generated and kept in DATA_DIR when unset outside production. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const production = env.NODE_ENV === 'production';
  const dataDir = resolve(env.DATA_DIR ?? './data');
  let jwtSecret = env.JWT_SECRET;
  if (!jwtSecret) {
    if (production) throw new Error('JWT_SECRET is required in production');
    jwtSecret = keptSecret(dataDir, 'jwt-secret', 48);
  }
  // HS256 with a key shorter than its hash is guessable offline from one token (RFC 7518, 3.2).
  if (production && Buffer.byteLength(jwtSecret, 'utf8') < 32) throw new Error('JWT_SECRET must be at least 32 bytes in production');
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    baseDomain: (env.BASE_DOMAIN ?? 'localhost').toLowerCase(),
    databaseUrl: env.DATABASE_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    jwtSecret,
    encryptionKeys: encryptionKeys(env, dataDir, production),
    logLevel: env.LOG_LEVEL ?? 'info',
    production,
    seedDemo: env.SEED_DEMO ? env.SEED_DEMO === 'true' : !production,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    publicScheme: env.PUBLIC_SCHEME === 'https' || production ? 'https' : 'http',
    publicPort: env.PUBLIC_PORT ? Number(env.PUBLIC_PORT) : production ? null : Number(env.PORT ?? 3000),
    loginLimits: {
      perIp: Number(env.LOGIN_LIMIT_PER_IP ?? 100),
      perAccount: Number(env.LOGIN_LIMIT_PER_ACCOUNT ?? 10),
      windowSeconds: 15 * 60,
    },
    routeLimits: routeLimits(Number(env.RATE_LIMIT_SCALE ?? 1), env),
    pgliteVacuumMinutes: Number(env.PGLITE_VACUUM_MINUTES ?? 60),
    webhooks: {
      allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES === 'true',
      timeoutMs: Number(env.WEBHOOK_TIMEOUT_MS ?? 10_000),
      maxResponseBytes: Number(env.WEBHOOK_MAX_RESPONSE_BYTES ?? 64 * 1024),
      retryBaseSeconds: Number(env.WEBHOOK_RETRY_BASE_SECONDS ?? 30),
      retryHours: Number(env.WEBHOOK_RETRY_HOURS ?? 24),
      disableAfterHours: Number(env.WEBHOOK_DISABLE_AFTER_HOURS ?? 72),
    },
    ssoAllowPrivate: env.SSO_ALLOW_PRIVATE_ADDRESSES === 'true',
    s3: s3Settings(env),
    metricsPort: env.METRICS_PORT ? Number(env.METRICS_PORT) : null,
    metricsHost: env.METRICS_HOST || (env.HOST ?? '0.0.0.0'),
    vapid: vapidKeys(env, dataDir, production, (env.BASE_DOMAIN ?? 'localhost').toLowerCase()),
  };
}

/** S3_BUCKET and the AWS SDK's standard variables; null when S3_BUCKET is unset (the folder). */
export function s3Settings(env: NodeJS.ProcessEnv): S3Settings | null {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) return null;
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  const checksum = (name: string) => {
    const value = env[name]?.trim().toUpperCase();
    if (!value) return undefined;
    if (value !== 'WHEN_SUPPORTED' && value !== 'WHEN_REQUIRED') throw new Error(`${name} must be WHEN_SUPPORTED or WHEN_REQUIRED`);
    return value;
  };
  const prefix = env.S3_PREFIX?.trim().replace(/^\/+/, '') ?? '';
  return {
    bucket,
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
    endpoint,
    forcePathStyle: !!endpoint,
    // An endpoint of one's own (MinIO) often has no region: the SDK still wants one to sign.
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || (endpoint ? 'us-east-1' : undefined),
    credentials:
      env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
        ? {
            accessKeyId: env.AWS_ACCESS_KEY_ID,
            secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
            ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
          }
        : undefined,
    requestChecksumCalculation: checksum('AWS_REQUEST_CHECKSUM_CALCULATION'),
    responseChecksumValidation: checksum('AWS_RESPONSE_CHECKSUM_VALIDATION'),
  };
}

/**
 * An organisation's own address for links in mail and on labels: its subdomain of the configured base domain,
 * never the request's Host header (a caller chooses that one).
 */
export function publicOrigin(config: Pick<Config, 'publicScheme' | 'publicPort' | 'baseDomain'>, subdomain: string) {
  const port =
    config.publicPort && !((config.publicScheme === 'https' && config.publicPort === 443) || (config.publicScheme === 'http' && config.publicPort === 80))
      ? `:${config.publicPort}`
      : '';
  return `${config.publicScheme}://${subdomain.toLowerCase()}.${config.baseDomain}${port}`;
}

/**
 * The public origin of the organisation a request's host named (the request context found it, and a token or key
 * is accepted only on its own organisation's host): links in mail come from the configured base domain, scheme and
 * port (`publicOrigin`), never from the Host header, whose port and spelling the caller chose (issue 45).
 */
export function requestOrigin(config: Pick<Config, 'publicScheme' | 'publicPort' | 'baseDomain'>, req: { org: { subdomain: string } | null }) {
  if (!req.org) throw new Error('A link needs the organisation of the request');
  return publicOrigin(config, req.org.subdomain);
}

/**
 * TRUST_PROXY as Fastify's `trustProxy` takes it: unset/`false` trusts no proxy (X-Forwarded-For is ignored),
 * `true` trusts every hop, a number trusts that many hops, anything else is a comma-separated list of
 * proxy addresses or CIDRs.
 */
export function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  const v = value?.trim() ?? '';
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * Requests per window of the throttled routes (decision 022), each multiplied by RATE_LIMIT_SCALE: test
 * servers and benchmarks sharing one database and one address raise it.
 */
function routeLimits(scale: number, env: NodeJS.ProcessEnv): RouteLimits {
  const limit = (max: number, minutes: number) => ({ max: Math.max(1, Math.round(max * (scale > 0 ? scale : 1))), windowSeconds: minutes * 60 });
  return {
    signup: limit(10, 60),
    searchSubdomain: limit(30, 15),
    demoRequest: limit(5, 60),
    verifyPassword: limit(10, 15),
    tokenCheck: limit(20, 15),
    // Requests per API key (decision 043), every route together.
    apiKey: limit(Number(env.API_KEY_LIMIT_PER_MINUTE ?? 600), 1),
    // Unknown, revoked or expired keys per client address: past it, the address's key requests wait (no key is read).
    apiKeyUnknown: limit(30, 10),
    // The public request portal (decision 039): sends per address, sends per organisation, reads per address.
    portalSubmit: limit(10, 60),
    portalOrgSubmit: limit(200, 60),
    portalRead: limit(120, 15),
    // A contractor's page (decision 040), per address: its reads, and apart (fewer) its writes (comments, files,
    // time, parts, steps, done), so a flood of writes cannot ride on the reads' budget.
    sharedWorkOrder: limit(300, 15),
    sharedWorkOrderWrite: limit(120, 15),
    // Sending and checking a share's one-time code.
    shareCode: limit(10, 15),
    // Single sign-on (decision 077), per address: starting one, and finishing one (a code exchanged, a session made).
    ssoStart: limit(30, 15),
    ssoFinish: limit(30, 15),
  };
}
