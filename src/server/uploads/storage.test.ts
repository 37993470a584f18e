import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createStorage } from './storage';
import { folderBlobs } from './folder-blobs';

let root = '';
afterEach(() => rm(root, { recursive: true, force: true }));

describe('Storage.files (the organisation archive reads it)', () => {
  it("lists only the organisation's own stored files: no other name, folder or link, nothing of another organisation", async () => {
    root = await mkdtemp(join(tmpdir(), 'storage-files-'));
    const storage = createStorage(folderBlobs(root));
    const mine = await storage.put(7, Buffer.from('%PDF-1.4 mine'), 'pdf');
    await storage.put(8, Buffer.from('%PDF-1.4 theirs'), 'pdf');
    const dir = join(root, 'org-7');
    const outside = join(root, 'secret.txt');
    await writeFile(outside, 'not an upload');
    await writeFile(join(dir, 'notes.txt'), 'stray');
    // Named as put() names files, but a link out of the folder and a folder.
    await symlink(outside, join(dir, '0b9c3a52-7e44-4b7e-9d4e-2f1f6b0e9a11.pdf'));
    await mkdir(join(dir, '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f.webp'));

    const listed: string[] = [];
    for await (const file of storage.files(7)) listed.push(file.url);
    expect(listed).toEqual([mine]);
    expect(listed.every((url) => /^\/uploads\/org-7\/[0-9a-f-]{36}\.(webp|png|jpg|pdf)$/.test(url))).toBe(true);
  });
});
