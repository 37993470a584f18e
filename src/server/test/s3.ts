import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { s3Settings, type S3Settings } from '../env';
import { s3Client } from '../uploads/s3-blobs';
import { freePort } from './server-process';

export interface TestBucket {
  /** The settings an app takes (`createTestApp({ s3 })`), read from the variables a deployment sets. */
  s3: S3Settings;
  /** The SDK's client on that bucket, to look at it from outside the app. */
  client: S3Client;
  /** The object's bytes, or null when there is none; `key` without the prefix (`org-7/<uuid>.pdf`). */
  object(key: string): Promise<Buffer | null>;
  /** Every key in the bucket, prefix included. */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver, a process of its own on a free port, files in a scratch folder) with a new
 * bucket. Its own process because it pages listings with a DES-encrypted token, a cipher Node 17+ has only with
 * `--openssl-legacy-provider`: given to it, not to the tests. The settings come from the environment a deployment would set; checksums only when required:
 * s3rver stores a streamed upload of a current SDK (its default CRC checksums, `aws-chunked`) corrupted, so
 * `AWS_REQUEST_CHECKSUM_CALCULATION=WHEN_REQUIRED` (and the matching response setting) as MinIO-less
 * deployments on such servers set it (docs/storage.md).
 */
export async function startTestBucket(prefix = ''): Promise<TestBucket> {
  const directory = mkdtempSync(join(tmpdir(), 'cmms-s3rver-'));
  const port = await freePort();
  const bin = createRequire(import.meta.url).resolve('s3rver/bin/s3rver.js');
  const server = spawn(process.execPath, ['--openssl-legacy-provider', bin, '-d', directory, '-a', '127.0.0.1', '-p', String(port), '--silent'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  server.stderr.on('data', (d) => (errors += d));
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  for (;;) {
    if (server.exitCode !== null) throw new Error(`s3rver exited early:\n${errors}`);
    if (
      await fetch(`http://127.0.0.1:${port}/`).then(
        () => true,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const bucket = `cmms-test-${randomBytes(4).toString('hex')}`;
  const s3 = s3Settings({
    S3_BUCKET: bucket,
    S3_PREFIX: prefix,
    AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
  })!;
  const client = s3Client(s3);
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    s3,
    client,
    async object(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: s3.prefix + key }));
        return Buffer.from(await res.Body!.transformToByteArray());
      } catch (err) {
        if ((err as { name?: string }).name === 'NoSuchKey') return null;
        throw err;
      }
    },
    async keys() {
      const res = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (res.Contents ?? []).map((o) => o.Key!).sort();
    },
    async close() {
      client.destroy();
      server.kill();
      await exited;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
