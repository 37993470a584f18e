import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate, openDatabase } from '../db/client';
import { createJobQueue } from '../jobs/queue';
import { scratchRoot } from './pglite-template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The files of a migrated PGlite database, which test files copy (`pglite-template.ts`). */
    pgliteTemplate: string;
  }
}

/**
 * Migrates once per run: the run's PostgreSQL database when DATABASE_URL is set, and always one PGlite data
 * directory that test files copy and open instead of creating (initdb) and migrating a database each
 * (decision 028), with pg-boss's schema made. The PostgreSQL pass needs it too: a few files test the embedded
 * database itself.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
    await migrate(database);
    await database.close();
  }
  const dir = mkdtempSync(join(scratchRoot(), 'cmms-template-'));
  const embedded = await openDatabase({ dataDir: dir });
  await migrate(embedded);
  // pg-boss's schema too, which every app makes on its first start otherwise (half a second of CPU a copy).
  const queue = createJobQueue(embedded);
  await queue.start();
  await queue.stop();
  await embedded.close();
  project.provide('pgliteTemplate', join(dir, 'pglite'));
  return () => rmSync(dir, { recursive: true, force: true });
}
