import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, newVapidKeys, parseTrustProxy } from './env';

const pair = newVapidKeys();
const prod = {
  NODE_ENV: 'production',
  JWT_SECRET: 'x'.repeat(48),
  ENCRYPTION_KEY: 'k'.repeat(32),
  DATA_DIR: '/nonexistent-cmms',
  VAPID_PUBLIC_KEY: pair.publicKey,
  VAPID_PRIVATE_KEY: pair.privateKey,
};

describe('environment (decision 022)', () => {
  it('refuses a JWT_SECRET shorter than 32 bytes in production (issue 38), and takes one of 32', () => {
    expect(() => loadConfig({ ...prod, JWT_SECRET: 'x'.repeat(31) })).toThrow(/at least 32 bytes/);
    expect(() => loadConfig({ ...prod, JWT_SECRET: 'é'.repeat(15) + 'x' })).toThrow(/at least 32 bytes/);
    expect(loadConfig({ ...prod, JWT_SECRET: 'x'.repeat(32) }).jwtSecret).toHaveLength(32);
    // Outside production a short secret still starts (tests and development use their own).
    expect(loadConfig({ ...prod, NODE_ENV: 'development', JWT_SECRET: 'short' }).jwtSecret).toBe('short');
  });

  it('requires ENCRYPTION_KEY of 32 bytes in production; keeps the previous keys (decision 083)', () => {
    expect(() => loadConfig({ ...prod, ENCRYPTION_KEY: '' })).toThrow(/ENCRYPTION_KEY is required/);
    expect(() => loadConfig({ ...prod, ENCRYPTION_KEY: 'k'.repeat(31) })).toThrow(/at least 32 bytes/);
    expect(loadConfig({ ...prod, ENCRYPTION_KEY_PREVIOUS: ' old-one , old-two,' }).encryptionKeys).toEqual({
      current: 'k'.repeat(32),
      previous: ['old-one', 'old-two'],
    });
  });

  it('seeds the demo organisation (published password) in production only when SEED_DEMO=true says so', () => {
    expect(loadConfig(prod).seedDemo).toBe(false);
    expect(loadConfig({ ...prod, SEED_DEMO: '' }).seedDemo).toBe(false);
    expect(loadConfig({ ...prod, SEED_DEMO: '1' }).seedDemo).toBe(false);
    expect(loadConfig({ ...prod, SEED_DEMO: 'true' }).seedDemo).toBe(true);
    const dev = { JWT_SECRET: 'x', DATA_DIR: '/nonexistent-cmms' };
    expect(loadConfig(dev).seedDemo).toBe(true);
    expect(loadConfig({ ...dev, SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('scales the throttled routes by RATE_LIMIT_SCALE', () => {
    const dev = { JWT_SECRET: 'x', DATA_DIR: '/nonexistent-cmms' };
    expect(loadConfig(dev).routeLimits.signup).toEqual({ max: 10, windowSeconds: 3600 });
    expect(loadConfig({ ...dev, RATE_LIMIT_SCALE: '1000' }).routeLimits.signup.max).toBe(10_000);
    expect(loadConfig({ ...dev, RATE_LIMIT_SCALE: 'nonsense' }).routeLimits.signup.max).toBe(10);
  });

  it('trusts no proxy unless TRUST_PROXY names them, in the forms Fastify accepts', () => {
    expect(loadConfig(prod).trustProxy).toBe(false);
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy(' 127.0.0.1, 10.0.0.0/8 ')).toEqual(['127.0.0.1', '10.0.0.0/8']);
  });
});

describe('uploads in S3 (decision 061)', () => {
  it('keeps the folder unless S3_BUCKET is set; takes the endpoint, region, keys and checksum modes from the SDK variables', () => {
    expect(loadConfig(prod).s3).toBeNull();
    expect(loadConfig({ ...prod, S3_BUCKET: ' ' }).s3).toBeNull();
    // AWS itself: virtual-hosted addressing, the SDK's region and key chain.
    expect(loadConfig({ ...prod, S3_BUCKET: 'cmms-files', AWS_REGION: 'eu-west-3' }).s3).toEqual({
      bucket: 'cmms-files',
      prefix: '',
      endpoint: undefined,
      forcePathStyle: false,
      region: 'eu-west-3',
      credentials: undefined,
      requestChecksumCalculation: undefined,
      responseChecksumValidation: undefined,
    });
    // MinIO: the S3 endpoint before the general one, path-style, a region to sign with, the keys given.
    const minio = loadConfig({
      ...prod,
      S3_BUCKET: 'cmms',
      S3_PREFIX: '/site-a',
      AWS_ENDPOINT_URL: 'http://other:9000',
      AWS_ENDPOINT_URL_S3: 'http://minio:9000',
      AWS_ACCESS_KEY_ID: 'id',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_REQUEST_CHECKSUM_CALCULATION: 'when_required',
    }).s3;
    expect(minio).toMatchObject({
      prefix: 'site-a/',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
      region: 'us-east-1',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      requestChecksumCalculation: 'WHEN_REQUIRED',
    });
    expect(loadConfig({ ...prod, S3_BUCKET: 'cmms', AWS_ENDPOINT_URL: 'http://other:9000' }).s3).toMatchObject({
      endpoint: 'http://other:9000',
      forcePathStyle: true,
    });
    expect(() => loadConfig({ ...prod, S3_BUCKET: 'cmms', AWS_RESPONSE_CHECKSUM_VALIDATION: 'never' })).toThrow(/AWS_RESPONSE_CHECKSUM_VALIDATION/);
  });

  it('requires the VAPID key pair in production, as JWT_SECRET (decision 075, addendum), and refuses a broken one', () => {
    const { VAPID_PUBLIC_KEY: _p, VAPID_PRIVATE_KEY: _k, ...withoutKeys } = prod;
    expect(() => loadConfig(withoutKeys)).toThrow(/VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are required in production/);
    expect(() => loadConfig({ ...withoutKeys, VAPID_PUBLIC_KEY: pair.publicKey })).toThrow(/P-256 key pair/);
    expect(() => loadConfig({ ...prod, VAPID_PUBLIC_KEY: pair.publicKey.slice(0, 40) })).toThrow(/P-256 key pair/);
    expect(() => loadConfig({ ...prod, VAPID_PRIVATE_KEY: pair.publicKey })).toThrow(/P-256 key pair/);
    expect(loadConfig({ ...prod, VAPID_SUBJECT: 'mailto:ops@example.com' }).vapid).toEqual({ ...pair, subject: 'mailto:ops@example.com' });
    // Outside production: made once in DATA_DIR (mode 600) and the same at the next start.
    const dir = mkdtempSync(join(tmpdir(), 'cmms-vapid-'));
    const first = loadConfig({ ...withoutKeys, NODE_ENV: 'development', DATA_DIR: dir }).vapid!;
    expect(loadConfig({ ...withoutKeys, NODE_ENV: 'development', DATA_DIR: dir }).vapid).toEqual(first);
    expect(JSON.parse(readFileSync(join(dir, 'vapid-keys.json'), 'utf8'))).toEqual({ publicKey: first.publicKey, privateKey: first.privateKey });
    expect(statSync(join(dir, 'vapid-keys.json')).mode & 0o777).toBe(0o600);
  });
});
