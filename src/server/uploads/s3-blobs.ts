import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { S3Settings } from '../env';
import type { Blobs } from './storage';

/** The SDK's answer for a key that is not there: `NoSuchKey` (GET), `NotFound` (HEAD), or a bare 404. */
const notThere = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

/** What `read` gives, or null when the key is not there. */
async function unlessMissing<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    if (notThere(err)) return null;
    throw err;
  }
}

export interface S3Blobs extends Blobs {
  /** Size and ETag of a stored object, or null (the copy command compares them before sending a file again). */
  head(key: string): Promise<{ size: number; etag: string } | null>;
  readonly client: S3Client;
}

/**
 * The files in an S3 bucket (AWS, MinIO, Ceph, R2…): shared by every instance, so any of them serves, deletes and
 * archives what another stored (decision 061). Keys are `<S3_PREFIX><org-id folder>/<uuid>.<ext>`. `pageSize`: keys per listing request (tests; S3's
 * default is 1000).
 */
export function s3Blobs(settings: S3Settings, client = s3Client(settings), { pageSize }: { pageSize?: number } = {}): S3Blobs {
  const { bucket, prefix } = settings;
  const Key = (key: string) => prefix + key;
  return {
    where: `s3://${bucket}/${prefix}`,
    client,
    async put(key, bytes, contentType) {
      // A Buffer, not a stream: its length and checksums are known before it is sent (no chunked upload).
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: Key(key), Body: bytes, ContentType: contentType, ContentLength: bytes.length }));
    },
    get: (key) =>
      unlessMissing(async () => {
        const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: Key(key) }));
        return res.Body ? Buffer.from(await res.Body.transformToByteArray()) : null;
      }),
    open: (key) =>
      unlessMissing(async () => {
        const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: Key(key) }));
        return res.Body ? { body: res.Body as Readable, size: res.ContentLength } : null;
      }),
    head: (key) =>
      unlessMissing(async () => {
        const res = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: Key(key) }));
        return { size: res.ContentLength ?? -1, etag: res.ETag ?? '' };
      }),
    async delete(key) {
      // S3 answers 204 for a key that is not there: deleting twice is no error.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: Key(key) }));
    },
    async *list(folder) {
      const start = `${prefix}${folder}/`;
      let ContinuationToken: string | undefined;
      do {
        // The delimiter keeps deeper keys (`org-7/x/…`) out: only the folder's own files, as in the folder.
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: start, Delimiter: '/', ContinuationToken, MaxKeys: pageSize }));
        for (const object of page.Contents ?? []) if (object.Key) yield object.Key.slice(start.length);
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async close() {
      client.destroy();
    },
  };
}

/** The bucket cannot be used: missing, refused to these keys, or out of reach (`reason` says which). */
export class BucketUnavailable extends Error {
  constructor(
    readonly bucket: string,
    readonly endpoint: string | undefined,
    readonly reason: string,
  ) {
    super(`S3 bucket ${bucket} ${reason}`);
  }
}

/**
 * The start-up check (decision 067): HeadBucket, within `timeoutMs`, so that a wrong bucket, key or endpoint stops
 * the start with a clear line instead of failing the first upload.
 */
export async function checkBucket(settings: S3Settings, client: S3Client, timeoutMs = 15_000) {
  try {
    await client.send(new HeadBucketCommand({ Bucket: settings.bucket }), { abortSignal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    const status = e?.$metadata?.httpStatusCode;
    const reason =
      status === 404 || e?.name === 'NotFound' || e?.name === 'NoSuchBucket'
        ? 'does not exist'
        : status === 403 || status === 401
          ? 'refuses these credentials (access denied)'
          : `is unreachable: ${e?.name ?? 'Error'}: ${e?.message ?? String(err)}`;
    throw new BucketUnavailable(settings.bucket, settings.endpoint, reason);
  }
}

/** The SDK's client for these settings: path-style addressing when an endpoint of one's own is given (MinIO). */
export function s3Client(settings: S3Settings) {
  return new S3Client({
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.region ? { region: settings.region } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    ...(settings.requestChecksumCalculation ? { requestChecksumCalculation: settings.requestChecksumCalculation } : {}),
    ...(settings.responseChecksumValidation ? { responseChecksumValidation: settings.responseChecksumValidation } : {}),
  });
}
