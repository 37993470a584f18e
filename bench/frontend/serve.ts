/**
 * The real server (as src/server/main.ts: migrate, build the app, listen) serving the SPA from BENCH_WEB_ROOT,
 * the benchmark's own build, so that another build of dist/web in the same checkout cannot change it mid-run.
 */
import { loadConfig } from '../../src/server/env';
import { migrate, openDatabase } from '../../src/server/db/client';
import { buildApp } from '../../src/server/app';

const webRoot = process.env.BENCH_WEB_ROOT;
if (!webRoot) throw new Error('BENCH_WEB_ROOT is required');
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await migrate(database);
const app = await buildApp({ database, config, webRoot });
const stop = async () => {
  await app.close();
  await database.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
await app.listen({ port: config.port, host: config.host });
