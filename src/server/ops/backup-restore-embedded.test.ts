/**
 * The embedded database's backup (docs/operations.md, "The embedded database"): the documented commands, run word
 * for word, on what `npm start` serves with no DATABASE_URL. An organisation with a work order and its photo; the
 * server stopped; the data folder archived; the folder gone; the archive extracted into a new folder; the bundle
 * started there with no JWT_SECRET of its own (the generated secret travels in the folder) signs in, reads the
 * order and serves its photo byte for byte. Runs on every pass: it needs no PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addOrderWithPhoto, call, signUp, startBundle, stopServer } from '../test/bundle';
import type { ServerProcess } from '../test/server-process';
import { runDocBlock } from './doc-blocks';

describe('a backup of the embedded database restores (docs/operations.md) on the server bundle', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'cmms-embedded-backup-'));
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await stopServer(server);
    rmSync(scratch, { recursive: true, force: true });
  });
  const embedded = (dataDir: string) => ({ DATABASE_URL: undefined, PGBOUNCER_UPSTREAM_URL: undefined, DATA_DIR: dataDir, JWT_SECRET: undefined });

  it('the data folder, copied while stopped, brings back the work order, its photo and the sessions', { timeout: 300_000 }, async () => {
    const dataDir = join(scratch, 'data');
    server = await startBundle(embedded(dataDir));
    const org = await signUp(server.port);
    const { orderId, photoUrl } = await addOrderWithPhoto(server.port, org, 'Grease the conveyor', 'belt.jpg', {
      width: 64,
      height: 48,
      background: '#aa6622',
    });
    const photoBytes = (await call(server.port, org.host, photoUrl)).body;
    expect(await stopServer(server)).toBe(0);

    runDocBlock('operations.md', 'backup-embedded', { BACKUP: scratch, DATA_DIR: dataDir });
    rmSync(dataDir, { recursive: true, force: true });
    const restoredDir = join(scratch, 'restored');
    runDocBlock('operations.md', 'restore-embedded', { BACKUP: scratch, DATA_DIR: restoredDir });
    server = await startBundle(embedded(restoredDir));

    // The token signed before the backup holds: the generated secret came back with the folder.
    const read = await call(server.port, org.host, `/api/work-orders/get-work-order/${orderId}`, { token: org.token });
    expect(read.status, read.body.toString()).toBe(200);
    expect(read.json().workOrder.title).toBe('Grease the conveyor');
    const photos = await call(server.port, org.host, `/api/my-work/list-photos/${orderId}`, { token: org.token });
    const [kept] = photos.json().photos as { url: string }[];
    expect((await call(server.port, org.host, kept.url)).body.equals(photoBytes)).toBe(true);
    const next = await call(server.port, org.host, '/api/work-orders/add-work-order', { token: org.token, json: { title: 'After the restore' } });
    expect(next.status).toBe(201);
    expect(next.json().workOrder.id).toBeGreaterThan(orderId);
    expect(await stopServer(server)).toBe(0);
  });
});
