import { resolve } from 'node:path';
import { migrate, openDatabase } from './db/client';

/**
 * `npm run migrate`: applies the migrations and the tenancy wall to DATABASE_URL's database (DATABASE_DIRECT_URL
 * when set), or to the embedded one in DATA_DIR, then exits. The server migrates at start-up the same way, under
 * the same lock (decision 062), so running this first is optional; it needs no JWT_SECRET.
 */
async function main() {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const database = await openDatabase({ databaseUrl, dataDir: databaseUrl ? undefined : resolve(process.env.DATA_DIR ?? './data') });
  const started = Date.now();
  try {
    await migrate(database);
    console.log(`Migrated ${database.kind === 'postgres' ? 'PostgreSQL' : 'the embedded database'} in ${Date.now() - started} ms`);
  } finally {
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
