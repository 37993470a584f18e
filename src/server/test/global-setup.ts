import { migrate, openDatabase } from '../db/client';

/** On PostgreSQL, migrate the run's database once; PGlite test files each migrate their own. */
export default async function setup() {
  if (!process.env.DATABASE_URL) return;
  const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
  await migrate(database);
  await database.close();
}
