import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bucketEnv, ownDatabase, startBundle, stopServer } from './bundle';
import { startTestBucket, type TestBucket } from './s3';
import type { ServerProcess } from './server-process';

/**
 * Two instances of the server bundle on one database and one bucket of their own, each with its own data folder
 * (`scratch`/a and /b), as two machines (issue 38, decision 068). `stop` (in afterAll) stops them and drops what they used.
 */
export function twoBundles(name: string) {
  const scratch = mkdtempSync(join(tmpdir(), `cmms-${name}-`));
  let bucket: TestBucket | undefined;
  let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;
  const servers: ServerProcess[] = [];
  return {
    scratch,
    servers,
    /** Starts both with `env` over the database, the bucket and info logs; together: the start-up migration takes turns (decision 062). */
    async start(env: Record<string, string>) {
      bucket = await startTestBucket();
      database = await ownDatabase(name);
      const shared = { DATABASE_URL: database.appUrl, ...bucketEnv(bucket.s3), LOG_LEVEL: 'info', ...env };
      const [a, b] = await Promise.all([startBundle({ ...shared, DATA_DIR: join(scratch, 'a') }), startBundle({ ...shared, DATA_DIR: join(scratch, 'b') })]);
      servers.push(a, b);
      return { a, b, bucket, database };
    },
    async stop() {
      for (const server of servers) await stopServer(server);
      await database?.drop().catch(() => {});
      await bucket?.close();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
