import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../db/client';
import type { Config } from '../env';
import { folderBlobs } from './folder-blobs';

export const CONTENT_TYPES = {
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  pdf: 'application/pdf',
} as const satisfies Record<string, string>;
export type FileExt = keyof typeof CONTENT_TYPES;

/** A stored file's key: `org-<id>/<uuid>.<ext>` (the folder `org-public` is open to all); its URL is `/uploads/<key>`. */
const FILE = String.raw`org-(\d+|public)/[0-9a-f-]{36}\.(webp|png|jpg|pdf)`;
export const STORED_KEY = new RegExp(`^${FILE}$`);
const STORED_URL = new RegExp(`^/uploads/(${FILE})$`);
/** A URL as a response gives it: the stored URL and its signature (decision 024). */
const SIGNED_URL = new RegExp(`^(/uploads/${FILE})\\?exp=\\d+&sig=[A-Za-z0-9_-]+$`);

/**
 * Where uploaded files live (decision 061): a folder by default, an S3 bucket when `S3_BUCKET` is set. Every
 * caller goes through this interface; files are always served by the app (`routes`), with today's signed URLs.
 */
export interface Storage {
  /** Stores bytes under the organisation and returns the URL path kept in the record (`/uploads/...`). */
  put(orgId: number | 'public', bytes: Buffer, ext: FileExt): Promise<string>;
  /** The bytes behind a URL `put` returned, or null when there is none (e.g. a logo for a printed document). */
  read(url: string): Promise<Buffer | null>;
  /** The file behind a URL `put` returned as a stream, or null when there is none. */
  open(url: string): Promise<Readable | null>;
  /** Deletes the file behind a URL `put` returned; a file already gone, or a URL that is none of ours, is ignored. */
  remove(url: string): Promise<void>;
  /** The organisation's own stored files (its folder only), one at a time, each opened as a stream when read (the organisation archive); null: gone since it was listed. */
  files(orgId: number): AsyncIterable<{ url: string; open(): Promise<Readable | null> }>;
  /** GET /uploads/*: a file, to whoever holds a signed URL for it (`uploadSigner`). */
  routes(signer: UploadSigner): (app: FastifyInstance) => Promise<void>;
  /** Where the files are, for logs: `folder <path>` or `s3://bucket/prefix`. */
  readonly where: string;
  /** Lets go of the connections it holds (the S3 client); the app calls it when it closes. */
  close(): Promise<void>;
}

/**
 * What a place for files does, by key (`org-<id>/<uuid>.<ext>`, checked before it gets here): the folder
 * (`folder-blobs.ts`) and the S3 bucket (`s3-blobs.ts`). `createStorage` puts the URLs, checks and serving on top.
 */
export interface Blobs {
  readonly where: string;
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The whole file, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** The file as a stream and its size when known, or null when there is none. */
  open(key: string): Promise<{ body: Readable; size?: number } | null>;
  /** Deletes the file; one already gone is no error. */
  delete(key: string): Promise<void>;
  /** The names of the plain files right under `<folder>/` (no deeper ones), in name order. */
  list(folder: string): AsyncIterable<string>;
  close(): Promise<void>;
}

/** The storage the configuration asks for: the S3 bucket when `S3_BUCKET` is set, else `<DATA_DIR>/uploads`. */
export async function openStorage(config: Pick<Config, 'dataDir' | 's3'>): Promise<Storage> {
  if (!config.s3) return createStorage(folderBlobs(join(config.dataDir, 'uploads')));
  // Loaded only when asked for: the SDK stays out of the embedded default's start (decision 013).
  const { s3Blobs, checkBucket } = await import('./s3-blobs');
  const blobs = s3Blobs(config.s3);
  // The bucket answers before the app starts (decision 067); a missing or unreachable one stops the start.
  try {
    await checkBucket(config.s3, blobs.client);
  } catch (err) {
    blobs.client.destroy();
    throw err;
  }
  return createStorage(blobs);
}

export function createStorage(blobs: Blobs): Storage {
  const keyOf = (url: string) => STORED_URL.exec(url.split('?')[0])?.[1] ?? null;
  return {
    where: blobs.where,
    async put(orgId, bytes, ext) {
      const key = `org-${orgId}/${randomUUID()}.${ext}`;
      await blobs.put(key, bytes, CONTENT_TYPES[ext]);
      return `/uploads/${key}`;
    },
    async read(url) {
      const key = keyOf(url);
      return key ? blobs.get(key) : null;
    },
    async open(url) {
      const key = keyOf(url);
      return key ? ((await blobs.open(key))?.body ?? null) : null;
    },
    async remove(url) {
      const key = keyOf(url);
      if (key) await blobs.delete(key);
    },
    async *files(orgId) {
      const folder = `org-${orgId}`;
      // Only what put() writes: files named <uuid>.<ext> right in the organisation's own folder. So the archive's
      // names hold no path (no `..`, nothing absolute), and nothing leads it outside that folder.
      for await (const name of blobs.list(folder)) {
        const key = `${folder}/${name}`;
        if (STORED_KEY.test(key)) yield { url: `/uploads/${key}`, open: async () => (await blobs.open(key))?.body ?? null };
      }
    },
    routes(signer) {
      return async (app) => {
        app.get('/*', { config: { access: 'public' } }, async (req, reply) => {
          const rel = (req.params as { '*': string })['*'];
          const match = STORED_KEY.exec(rel);
          const { exp, sig } = req.query as { exp?: string; sig?: string };
          // An <img> cannot send a token: the URL carries a short-lived signature instead, given only to the
          // organisation's signed-in members. Wrong, expired or missing: 404, as for a file that is not there.
          const allowed = match && (match[1] === 'public' || signer.verify(`/uploads/${rel}`, exp, sig));
          const file = allowed ? await blobs.open(rel) : null;
          if (!match || !file) return reply.status(404).send({ error: 'Not found' });
          const secondsLeft = match[1] === 'public' ? 86400 : Math.max(0, Number(exp) - Math.floor(Date.now() / 1000));
          if (file.size !== undefined) reply.header('content-length', file.size);
          return reply
            .header('content-type', CONTENT_TYPES[match[2] as FileExt])
            .header('x-content-type-options', 'nosniff')
            .header('content-security-policy', "default-src 'none'; sandbox")
            .header('cache-control', `private, max-age=${Math.min(86400, secondsLeft)}`)
            .send(file.body);
        });
      };
    },
    close: () => blobs.close(),
  };
}

/** A signed URL works until the end of the next hour: the same URL for an hour, so the browser's cache keeps it. */
const WINDOW_SECONDS = 3600;

export interface UploadSigner {
  /** The stored URL with `?exp=&sig=` (HMAC of the file's path, org included, and the expiry). */
  sign(url: string, now?: number): string;
  verify(path: string, exp: unknown, sig: unknown, now?: number): boolean;
}

/** Signs and checks upload URLs with a key derived from the JWT secret (its own key: a signature is never a token). */
export function uploadSigner(jwtSecret: string): UploadSigner {
  const key = createHmac('sha256', jwtSecret).update('cmms/uploads/v1').digest();
  const mac = (path: string, exp: number) => createHmac('sha256', key).update(`${path}\n${exp}`).digest();
  const nowSeconds = (now: number) => Math.floor(now / 1000);
  return {
    sign(url, now = Date.now()) {
      const exp = (Math.floor(nowSeconds(now) / WINDOW_SECONDS) + 2) * WINDOW_SECONDS;
      return `${url}?exp=${exp}&sig=${mac(url, exp).toString('base64url')}`;
    },
    verify(path, exp, sig, now = Date.now()) {
      if (typeof exp !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(exp)) return false;
      const expiry = Number(exp);
      if (expiry <= nowSeconds(now)) return false;
      const given = Buffer.from(sig, 'base64url');
      const expected = mac(path, expiry);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

/**
 * Signs the caller's organisation's upload URLs in every JSON response to a signed-in member, and takes the
 * signature off the URLs a request sends back (a form saving its attachments), so that records keep the
 * stored URL. Responses keep their keys and shapes (decision 024).
 */
export function signUploadUrls(app: FastifyInstance, signer: UploadSigner) {
  app.addHook('preValidation', async (req) => {
    unsign(req.body);
    unsign(req.query);
  });
  app.addHook('onSend', async (req, _reply, payload) => {
    if (typeof payload !== 'string' || !req.auth || !payload.includes('"/uploads/org-')) return payload;
    // Already signed (an idempotent replay of a stored response): signed afresh.
    const own = new RegExp(`"(/uploads/org-${req.auth.orgId}/[0-9a-f-]{36}\\.(?:webp|png|jpg|pdf))(?:\\?exp=\\d+&sig=[\\w-]+)?"`, 'g');
    const now = Date.now();
    return payload.replace(own, (_all, url: string) => `"${signer.sign(url, now)}"`);
  });
}

/** Turns a request's signed upload URLs back into the stored ones, in place (objects and arrays walked). */
function unsign(value: unknown): unknown {
  if (typeof value === 'string') {
    const match = value.startsWith('/uploads/') ? SIGNED_URL.exec(value) : null;
    return match ? match[1] : value;
  }
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const next = unsign(record[key]);
      if (next !== record[key]) record[key] = next;
    }
  }
  return value;
}

/** The files a write let go of, by its scope's tx (`discardFiles`), until `removingFiles` takes them after the commit. */
const discarded = new WeakMap<object, string[]>();

/**
 * Called by a service in the transaction that deletes a record (or an attachment of it): its files go from
 * storage once that transaction has committed, never before (a refused delete keeps them). Outside
 * `removingFiles` nothing takes them, so a file is never lost by mistake.
 */
export function discardFiles(tx: Tx, urls: readonly (string | null | undefined)[]) {
  let list = discarded.get(tx);
  if (!list) discarded.set(tx, (list = []));
  list.push(...urls.filter((url): url is string => !!url));
}

/**
 * Runs the write that takes files just stored; when it fails (a 409 stale answer, a 404), the files are removed,
 * since nothing points to them, and the failure goes on.
 */
export async function removedUnlessKept<T>(storage: Storage, urls: string[], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    await Promise.all(urls.map((url) => storage.remove(url).catch(() => undefined)));
    throw err;
  }
}

/**
 * Runs a delete route's work in the request's write scope, then, once it has committed, removes the files the
 * work discarded. A file that cannot be removed is logged and left: the record is gone either way.
 */
export async function removingFiles<T>(
  storage: Storage,
  req: { inTenant<R>(fn: (tx: Tx) => Promise<R>): Promise<R>; log: { warn(obj: object, msg: string): void } },
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  let urls: string[] = [];
  const result = await req.inTenant(async (tx) => {
    const answer = await work(tx);
    urls = discarded.get(tx) ?? [];
    return answer;
  });
  await Promise.all(urls.map((url) => storage.remove(url).catch((err: unknown) => req.log.warn({ err, url }, 'uploaded file not removed'))));
  return result;
}
