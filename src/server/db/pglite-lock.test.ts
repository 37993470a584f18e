import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { migratedDataDir } from '../test/pglite-template';

// Each DATA_DIR holds a copy of the run's migrated database: the lock is what is tested, not a first start.

describe('the embedded database lock', () => {
  it('refuses a second opener of the same DATA_DIR and frees the lock on close', { timeout: 120_000 }, async () => {
    const { dir, remove } = migratedDataDir('cmms-lock-');
    const first = await openDatabase({ dataDir: dir });
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/already in use by process/);
    await first.close();
    const again = await openDatabase({ dataDir: dir });
    await again.close();
    remove();
  });

  it('takes over a lock left by a process that died', { timeout: 120_000 }, async () => {
    const { dir, remove } = migratedDataDir('cmms-lock-');
    writeFileSync(join(dir, 'pglite.lock'), '999999999');
    const db = await openDatabase({ dataDir: dir });
    await db.close();
    remove();
  });
});
