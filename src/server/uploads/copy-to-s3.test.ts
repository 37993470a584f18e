import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage } from './storage';
import { folderBlobs } from './folder-blobs';
import { s3Blobs } from './s3-blobs';
import { copyFolderToBucket } from './copy-to-s3';
import { startTestBucket, type TestBucket } from '../test/s3';
import { bucketEnv } from '../test/bundle';
import { ROOT } from '../paths';

let bucket: TestBucket;
let root = '';
beforeAll(async () => {
  bucket = await startTestBucket('cmms/');
  root = await mkdtemp(join(tmpdir(), 'copy-to-s3-'));
});
afterAll(async () => {
  await bucket?.close();
  await rm(root, { recursive: true, force: true });
});

describe('copying an uploads folder into the bucket (npm run storage:copy-to-s3)', () => {
  it('copies every stored file under its own key, then nothing more on a second run; a file the bucket holds with other bytes is sent again; strays stay behind', async () => {
    const folder = createStorage(folderBlobs(root));
    const files = new Map<string, Buffer>();
    for (const [org, ext] of [
      [5, 'pdf'],
      [5, 'webp'],
      [6, 'webp'],
      ['public', 'png'],
    ] as const) {
      const bytes = randomBytes(50_000);
      files.set(await folder.put(org, bytes, ext), bytes);
    }
    await writeFile(join(root, 'org-5', 'notes.txt'), 'stray');
    await symlink('/etc/hostname', join(root, 'org-5', '0b9c3a52-7e44-4b7e-9d4e-2f1f6b0e9a11.pdf'));
    await mkdir(join(root, 'trash'));

    const blobs = s3Blobs(bucket.s3);
    expect(await copyFolderToBucket(root, blobs)).toEqual({ copied: 4, unchanged: 0, ignored: 3 });
    expect(await bucket.keys()).toEqual([...files.keys()].map((url) => `cmms/${url.slice('/uploads/'.length)}`).sort());
    // The same URLs read the same bytes from the bucket.
    const s3 = createStorage(blobs);
    for (const [url, bytes] of files) expect((await s3.read(url))?.equals(bytes)).toBe(true);

    expect(await copyFolderToBucket(root, blobs)).toEqual({ copied: 0, unchanged: 4, ignored: 3 });
    // An earlier copy cut short left other bytes under one key: sent again.
    const [first, bytes] = [...files][0];
    await bucket.client.send(new PutObjectCommand({ Bucket: bucket.s3.bucket, Key: `cmms/${first.slice('/uploads/'.length)}`, Body: bytes.subarray(0, 100) }));
    expect(await copyFolderToBucket(root, blobs)).toEqual({ copied: 1, unchanged: 3, ignored: 3 });
    expect((await s3.read(first))?.equals(bytes)).toBe(true);
    await blobs.close();
  });

  it('runs as the npm command with the deployment variables and reports its counts; without S3_BUCKET it refuses', async () => {
    const run = (env: Record<string, string>) =>
      promisify(execFile)('npm', ['run', '--silent', 'storage:copy-to-s3', '--', root], { cwd: ROOT, env: { ...process.env, ...env } }).then(
        (r) => ({ code: 0, out: r.stdout + r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
      );
    const env = bucketEnv(bucket.s3);
    const done = await run(env);
    expect(done.out).toContain('copied 0, already there 4, ignored 3');
    expect(done.code).toBe(0);
    const refused = await run({ ...env, S3_BUCKET: '' });
    expect(refused.code).toBe(2);
    expect(refused.out).toContain('S3_BUCKET is not set');
  });
});
