import { join } from 'node:path';
import { ROOT } from './paths';
import { loadConfig } from './env';
import { startEmbedded } from './db/pglite-thread';

/** Reads the environment, migrates, seeds the demo organisation once, listens; shuts down gracefully. */
async function main() {
  const config = loadConfig();
  // Cold start (decisions 013, 015): the embedded database starts in its own thread before anything else
  // loads; the application's modules load and its routes are built while it starts (or while PostgreSQL
  // connects) and migrates.
  const embedded = config.databaseUrl ? undefined : startEmbedded(config.dataDir);
  const { migrate, openDatabase } = await import('./db/client');
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, embedded });
  const migrated = migrate(database);
  migrated.catch(() => {}); // reported by the await below, once the routes are built
  const { buildApp } = await import('./app');
  const app = await buildApp({ database, config, webRoot: join(ROOT, 'dist/web') });
  await migrated;
  if (config.seedDemo) {
    const { seedDemo } = await import('./seed/demo');
    const seeded = await seedDemo(database.db);
    if (seeded) app.log.info('Seeded the demo organisation');
  }
  const { scheduleVacuum } = await import('./db/maintenance');
  const stopVacuum = scheduleVacuum(database, config.pgliteVacuumMinutes * 60_000, app.log);
  // Keep-alive connections are drained, not reset (decision 025): idle clients get a second to send.
  const { drainOnShutdown } = await import('./graceful-shutdown');
  const drain = drainOnShutdown(app.server, { idleGraceMs: 1000, maxWaitMs: 25_000 });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    stopVacuum();
    // Stop accepting, answer what was sent with `Connection: close`; then app.close runs the onClose hooks.
    await drain();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  // Every line of the log is JSON (decision 067): the banner is one log line whose fields say what it printed.
  const port = config.port === 80 ? '' : `:${config.port}`;
  app.log.info(
    {
      database: database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL',
      landingPage: `http://${config.baseDomain}${port}`,
      uploads: app.deps.storage.where,
      ...(config.seedDemo ? { demo: `http://demo.${config.baseDomain}${port}`, demoSignIn: 'admin@demo.com / Demo1234!' } : {}),
    },
    'CMMS is running',
  );
}

main().catch((err: Error) => {
  // Before (or without) the app's logger: the same JSON line pino would write, at level fatal.
  process.stdout.write(
    `${JSON.stringify({ level: 60, time: Date.now(), pid: process.pid, msg: 'start-up failed', err: { type: err?.name, message: err?.message, stack: err?.stack } })}\n`,
  );
  process.exit(1);
});
