import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import Fastify from 'fastify';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage, uploadSigner, type Storage } from './storage';
import { folderBlobs } from './folder-blobs';
import { s3Blobs } from './s3-blobs';
import { startTestBucket, type TestBucket } from '../test/s3';

/** One place for files, as the contract below sees it: the storage, and a way to leave a stray file in it. */
interface Backend {
  storage: Storage;
  /** Writes bytes under a key behind the storage's back (what put() would never write). */
  plant(key: string, bytes: Buffer): Promise<void>;
  close(): Promise<void>;
}

const BACKENDS: [string, () => Promise<Backend>][] = [
  [
    'the folder (embedded default)',
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'storage-contract-'));
      return {
        storage: createStorage(folderBlobs(root)),
        plant: async (key, bytes) => {
          await mkdir(dirname(join(root, key)), { recursive: true });
          await writeFile(join(root, key), bytes);
        },
        close: () => rm(root, { recursive: true, force: true }),
      };
    },
  ],
  [
    'an S3 bucket (s3rver, with a key prefix, listed two keys a page)',
    async () => {
      const bucket: TestBucket = await startTestBucket('cmms/');
      return {
        storage: createStorage(s3Blobs(bucket.s3, undefined, { pageSize: 2 })),
        plant: async (key, bytes) =>
          void (await bucket.client.send(new PutObjectCommand({ Bucket: bucket.s3.bucket, Key: bucket.s3.prefix + key, Body: bytes }))),
        close: bucket.close,
      };
    },
  ],
];

const bytesOf = async (stream: Readable | null) => {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
};
/** Random bytes behind a PDF header: any byte value, and larger than one network chunk. */
const pdfBytes = (size = 300_000) => Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(size)]);

describe.each(BACKENDS)('the storage contract on %s', (_name, make) => {
  let b: Backend;
  beforeAll(async () => {
    b = await make();
  });
  afterAll(() => b.close());
  // Organisation ids of their own per backend and run.
  const org = 7_000_000 + Math.floor(Math.random() * 1_000_000);

  it('gives back the bytes it took, whole and as a stream; a URL that is none of its own reads as nothing', async () => {
    const bytes = pdfBytes();
    const url = await b.storage.put(org, bytes, 'pdf');
    expect(url).toMatch(new RegExp(`^/uploads/org-${org}/[0-9a-f-]{36}\\.pdf$`));
    expect((await b.storage.read(url))?.equals(bytes)).toBe(true);
    expect((await bytesOf(await b.storage.open(url)))?.equals(bytes)).toBe(true);
    // Signed as a response gives it: the signature is not part of the file's name.
    expect((await b.storage.read(`${url}?exp=1&sig=x`))?.equals(bytes)).toBe(true);

    expect(await b.storage.read(`/uploads/org-${org}/${randomUUID()}.pdf`)).toBeNull();
    expect(await b.storage.open(`/uploads/org-${org}/${randomUUID()}.pdf`)).toBeNull();
    for (const foreign of ['/etc/passwd', `/uploads/org-${org}/../../secret.pdf`, `/uploads/org-${org}/notes.txt`, url.replace('/uploads/', '/files/')]) {
      expect(await b.storage.read(foreign)).toBeNull();
      expect(await b.storage.open(foreign)).toBeNull();
      await b.storage.remove(foreign); // ignored
    }
  });

  it('removes a file (twice is no error) and leaves the others', async () => {
    const keep = await b.storage.put(org, Buffer.from('keep'), 'webp');
    const gone = await b.storage.put(org, Buffer.from('gone'), 'webp');
    await b.storage.remove(gone);
    expect(await b.storage.read(gone)).toBeNull();
    expect(await b.storage.open(gone)).toBeNull();
    await b.storage.remove(gone);
    expect((await b.storage.read(keep))?.toString()).toBe('keep');
  });

  it("lists only the organisation's own stored files, every one, each opened when read; never a stray name, a deeper file or org-<id>0's", async () => {
    const id = org + 1;
    const mine = new Map<string, Buffer>();
    for (let i = 0; i < 5; i++) {
      const bytes = pdfBytes(1000 + i);
      mine.set(await b.storage.put(id, bytes, 'pdf'), bytes);
    }
    // Another organisation whose folder's name starts with this one's, and what put() never writes.
    await b.storage.put(Number(`${id}0`), Buffer.from('%PDF-1.4 theirs'), 'pdf');
    await b.plant(`org-${id}/notes.txt`, Buffer.from('stray'));
    await b.plant(`org-${id}/deeper/${randomUUID()}.pdf`, Buffer.from('%PDF-1.4 deeper'));
    await b.plant(`org-${id}-old/${randomUUID()}.pdf`, Buffer.from('%PDF-1.4 beside'));

    const listed: string[] = [];
    for await (const file of b.storage.files(id)) {
      listed.push(file.url);
      expect((await bytesOf(await file.open()))?.equals(mine.get(file.url)!)).toBe(true);
    }
    expect(listed).toEqual([...mine.keys()].sort());

    // A file removed after it was listed opens as nothing (the archive leaves it out).
    const [first] = listed;
    for await (const file of b.storage.files(id)) {
      if (file.url !== first) continue;
      await b.storage.remove(first);
      expect(await file.open()).toBeNull();
    }
    const none: string[] = [];
    for await (const file of b.storage.files(org + 2)) none.push(file.url);
    expect(none).toEqual([]);
  });

  it('serves a file by its signed URL, byte for byte with its type and length; the bare, a tampered or a removed URL is 404; the public folder needs no signature', async () => {
    const signer = uploadSigner('contract-secret');
    const app = Fastify();
    await app.register(b.storage.routes(signer), { prefix: '/uploads' });
    try {
      const bytes = pdfBytes();
      const url = await b.storage.put(org, bytes, 'pdf');
      const get = (u: string) => app.inject({ method: 'GET', url: u });
      const res = await get(signer.sign(url));
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(bytes)).toBe(true);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(Number(res.headers['content-length'])).toBe(bytes.length);
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect((await get(url)).statusCode).toBe(404);
      expect((await get(signer.sign(url).replace(/sig=../, 'sig=AA'))).statusCode).toBe(404);
      expect((await get(signer.sign(`/uploads/org-${org}/${randomUUID()}.pdf`))).statusCode).toBe(404);
      await b.storage.remove(url);
      expect((await get(signer.sign(url))).statusCode).toBe(404);

      const open = await b.storage.put('public', Buffer.from('%PDF-1.4 for all'), 'pdf');
      expect((await get(open)).body).toBe('%PDF-1.4 for all');
      await b.storage.remove(open);
    } finally {
      await app.close();
    }
  });
});
