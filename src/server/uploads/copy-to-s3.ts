import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadConfig } from '../env';
import { CONTENT_TYPES, STORED_KEY, type FileExt } from './storage';
import { s3Blobs, type S3Blobs } from './s3-blobs';
import { runWhenMain } from '../paths';

export interface CopyCounts {
  /** Sent to the bucket: not there yet, or there with other bytes (an interrupted earlier copy). */
  copied: number;
  /** Already in the bucket with the same size and MD5: left alone. */
  unchanged: number;
  /** In the folder but not a stored upload (another name, a link, a folder): never sent. */
  ignored: number;
}

/**
 * Copies an uploads folder (`<DATA_DIR>/uploads`: `org-<id>/<uuid>.<ext>` and `org-public/…`) into the bucket
 * under the same keys, so the URLs the records hold keep working (decision 061). Idempotent: a file already
 * there with the same bytes is not sent again, so it can run before the switch and once more after it. Nothing
 * is deleted on either side.
 */
export async function copyFolderToBucket(root: string, bucket: S3Blobs, onFile?: (key: string, outcome: keyof CopyCounts) => void): Promise<CopyCounts> {
  const counts: CopyCounts = { copied: 0, unchanged: 0, ignored: 0 };
  const count = (key: string, outcome: keyof CopyCounts) => {
    counts[outcome]++;
    onFile?.(key, outcome);
  };
  const folders = await readdir(root, { withFileTypes: true });
  for (const folder of folders.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!folder.isDirectory() || !/^org-(\d+|public)$/.test(folder.name)) {
      count(folder.name, 'ignored');
      continue;
    }
    const entries = await readdir(join(root, folder.name), { withFileTypes: true });
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const key = `${folder.name}/${entry.name}`;
      // Plain files named as put() names them: no link out of the folder, nothing the app would not serve.
      if (!entry.isFile() || !STORED_KEY.test(key)) {
        count(key, 'ignored');
        continue;
      }
      const bytes = await readFile(join(root, key));
      const there = await bucket.head(key);
      // A single PUT's ETag is the MD5 of its bytes (quoted).
      if (there && there.size === bytes.length && there.etag.replace(/"/g, '') === createHash('md5').update(bytes).digest('hex')) {
        count(key, 'unchanged');
        continue;
      }
      await bucket.put(key, bytes, CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1) as FileExt]);
      count(key, 'copied');
    }
  }
  return counts;
}

/** `npm run storage:copy-to-s3 [-- <folder>]`: the folder (default `<DATA_DIR>/uploads`) into S3_BUCKET. */
async function main() {
  const config = loadConfig();
  if (!config.s3) {
    console.error('S3_BUCKET is not set: nothing to copy to (docs/storage.md).');
    process.exit(2);
  }
  const root = resolve(process.argv[2] ?? join(config.dataDir, 'uploads'));
  const bucket = s3Blobs(config.s3);
  console.log(`Copying ${root} to ${bucket.where}`);
  try {
    const counts = await copyFolderToBucket(root, bucket, (key, outcome) => {
      if (outcome === 'ignored') console.log(`  ignored (not an upload): ${key}`);
    });
    console.log(`copied ${counts.copied}, already there ${counts.unchanged}, ignored ${counts.ignored}`);
  } finally {
    await bucket.close();
  }
}

runWhenMain(import.meta.url, main);
