import { createReadStream } from 'node:fs';
import { mkdir, readFile, readdir, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Blobs } from './storage';

const missing = (err: { code?: string }) => err.code === 'ENOENT' || err.code === 'ENOTDIR';

/**
 * The files in a folder of this machine (`<DATA_DIR>/uploads`): the embedded default, for one instance. Keys are
 * checked by `createStorage` before they get here (no `..`, nothing absolute).
 */
export function folderBlobs(root: string): Blobs {
  return {
    where: `folder ${root}`,
    async put(key, bytes) {
      const file = join(root, key);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, bytes);
    },
    get: (key) => readFile(join(root, key)).catch((err: { code?: string }) => (missing(err) || err.code === 'EISDIR' ? null : Promise.reject(err))),
    async open(key) {
      const file = join(root, key);
      const info = await stat(file).catch(() => null);
      return info?.isFile() ? { body: createReadStream(file), size: info.size } : null;
    },
    async delete(key) {
      await unlink(join(root, key)).catch((err: { code?: string }) => (missing(err) ? undefined : Promise.reject(err)));
    },
    async *list(folder) {
      const entries = await readdir(join(root, folder), { withFileTypes: true }).catch((err: { code?: string }) => (missing(err) ? [] : Promise.reject(err)));
      // Plain files only: no link (it could lead outside the folder) and no folder.
      yield* entries
        .filter((e) => e.isFile())
        .map((e) => e.name)
        .sort();
    },
    async close() {},
  };
}
