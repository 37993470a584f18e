import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { inject } from 'vitest';
import { openDatabase } from '../db/client';

/**
 * Where tests keep scratch data directories: in memory (tmpfs) where the system has one, since PGlite writes
 * its files as a disk database does, else the system's temporary folder.
 */
export function scratchRoot() {
  return existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
}

/**
 * The run's own scratch folder (the template's), which the global setup's teardown deletes: for what a test
 * worker keeps until it exits.
 */
export function runScratchRoot() {
  return dirname(inject('pgliteTemplate'));
}

/** A new empty scratch folder (a DATA_DIR) in `root`; `remove` deletes it. */
export function scratchDataDir(prefix = 'cmms-test-', root = scratchRoot()) {
  const dir = mkdtempSync(join(root, prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A new scratch DATA_DIR whose embedded database (`<dir>/pglite`, where the server and `openDatabase` look)
 * is a copy of the run's migrated template (global-setup.ts): opening it starts PostgreSQL on existing files,
 * with no initdb and no migration. `remove` deletes it; call it after the database is closed.
 */
export function migratedDataDir(prefix = 'cmms-test-', root = scratchRoot()) {
  const scratch = scratchDataDir(prefix, root);
  cpSync(inject('pgliteTemplate'), join(scratch.dir, 'pglite'), { recursive: true });
  return scratch;
}

/** A DATA_DIR for a server or app on the run's database: with the migrated template on PGlite, empty on PostgreSQL. */
export function runDataDir(prefix = 'cmms-test-') {
  return process.env.DATABASE_URL ? scratchDataDir(prefix) : migratedDataDir(prefix);
}

/** A migrated PGlite database of its own, from the template; `close` also deletes its files. */
export async function openMigratedPGlite() {
  const { dir, remove } = migratedDataDir();
  const database = await openDatabase({ dataDir: dir });
  return {
    ...database,
    close: async () => {
      await database.close();
      remove();
    },
  };
}
