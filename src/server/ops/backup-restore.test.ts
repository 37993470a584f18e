/**
 * Backups that restore (issue 38, docs/operations.md, decision 068): the documented commands, run word for word,
 * on what `npm start` serves. An organisation with a work order and its photo on the server bundle; `pg_dump` of
 * its database and a tar of its uploads; the database and the runtime role gone (another cluster); `pg_restore`
 * into a NEW database, the uploads into a new data folder; the bundle started there (it creates the runtime role
 * again, decision 062) signs in, reads the work order and serves its photo, byte for byte.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_URL, addOrderWithPhoto, call, ownDatabase, signIn, signUp, startBundle, stopServer } from '../test/bundle';
import type { ServerProcess } from '../test/server-process';
import { runDocBlock } from './doc-blocks';

const admin = async <T>(fn: (client: pg.Client) => Promise<T>) => {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
};

describe.skipIf(!ADMIN_URL)('a backup restores (docs/operations.md) on the server bundle', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'cmms-backup-'));
  // The runtime role of this test alone: roles are the cluster's, shared by every database of the run.
  const role = `cmms_app_bk${process.pid}`;
  const cleanups: (() => Promise<unknown>)[] = [];
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await stopServer(server);
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    await admin((c) => c.query(`drop role if exists ${role}`)).catch(() => {});
    rmSync(scratch, { recursive: true, force: true });
  });

  it('pg_dump, the uploads folder and the secret bring back the work order and its photo in a new database', { timeout: 300_000 }, async () => {
    const source = await ownDatabase('bk_src');
    let sourceDropped = false;
    cleanups.push(() => (sourceDropped ? Promise.resolve() : source.drop()));
    const dataDir = join(scratch, 'data');
    server = await startBundle({ DATABASE_URL: source.appUrl, DATA_DIR: dataDir, DB_RUNTIME_ROLE: role });

    // An organisation, a work order, its photo.
    const org = await signUp(server.port);
    const { orderId, photoUrl } = await addOrderWithPhoto(server.port, org, 'Replace the pump seal', 'seal.jpg', {
      width: 80,
      height: 60,
      background: '#2266aa',
    });
    const before = await call(server.port, org.host, photoUrl);
    expect(before.status).toBe(200);
    const photoBytes = before.body;

    // The backup, while the server runs: the documented commands.
    runDocBlock('operations.md', 'backup-database', { BACKUP: scratch, DATABASE_URL: source.adminUrl }).trim();
    runDocBlock('operations.md', 'backup-uploads-folder', { BACKUP: scratch, DATA_DIR: dataDir });
    expect(await stopServer(server)).toBe(0);

    // The old deployment is gone: its database, its data folder, and the runtime role (a new cluster has none).
    await source.drop();
    sourceDropped = true;
    rmSync(dataDir, { recursive: true, force: true });
    await admin((c) => c.query(`drop role ${role}`));
    expect(await admin(async (c) => (await c.query('select 1 from pg_roles where rolname = $1', [role])).rowCount)).toBe(0);

    // The restore: a new database, a new data folder, the same secret (startBundle's JWT_SECRET).
    const restored = await ownDatabase('bk_new');
    cleanups.push(restored.drop);
    const newDataDir = join(scratch, 'restored-data');
    runDocBlock('operations.md', 'restore-database', { BACKUP: scratch, RESTORED_DATABASE_URL: restored.adminUrl });
    runDocBlock('operations.md', 'restore-uploads-folder', { BACKUP: scratch, DATA_DIR: newDataDir });
    server = await startBundle({ DATABASE_URL: restored.appUrl, DATA_DIR: newDataDir, DB_RUNTIME_ROLE: role });

    // The role is back, with its rights; requests run as it.
    expect(await admin(async (c) => (await c.query('select 1 from pg_roles where rolname = $1', [role])).rowCount)).toBe(1);
    // A token issued before the backup still holds (same JWT_SECRET); a new sign-in works.
    expect((await call(server.port, org.host, `/api/work-orders/get-work-order/${orderId}`, { token: org.token })).status).toBe(200);
    const token = await signIn(server.port, org.host, org.email);
    const read = await call(server.port, org.host, `/api/work-orders/get-work-order/${orderId}`, { token });
    expect(read.status, read.body.toString()).toBe(200);
    expect(read.json().workOrder.title).toBe('Replace the pump seal');
    const photos = await call(server.port, org.host, `/api/my-work/list-photos/${orderId}`, { token });
    expect(photos.status).toBe(200);
    const [kept] = photos.json().photos as { url: string }[];
    const after = await call(server.port, org.host, kept.url);
    expect(after.status).toBe(200);
    expect(after.body.equals(photoBytes)).toBe(true);
    // New work goes on: ids continue after the restored ones (the per-organisation counters came back too).
    const next = await call(server.port, org.host, '/api/work-orders/add-work-order', { token, json: { title: 'After the restore' } });
    expect(next.status, next.body.toString()).toBe(201);
    expect(next.json().workOrder.id).toBeGreaterThan(orderId);
    expect(await stopServer(server)).toBe(0);
  });
});
