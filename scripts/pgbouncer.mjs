// A PgBouncer of our own in transaction mode, in front of a PostgreSQL server (decision 062): tests and CI start
// one on a free port with a generated ini, never the system service. Installed from Debian's packages when missing.
//
//   node scripts/pgbouncer.mjs [--pool-size N] -- <command…>
// runs the command with DATABASE_URL pointing through the pooler (PGBOUNCER_UPSTREAM_URL: the original), then stops it.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDebianPackage } from './debian-package.mjs';
import { stopChild } from './stop-child.mjs';

export const PGBOUNCER = process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer';

export function ensurePgbouncer() {
  return ensureDebianPackage(PGBOUNCER, 'pgbouncer', { override: 'PGBOUNCER_PATH' });
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const accepting = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/**
 * The tested configuration (docs/deploy.md): transaction pooling, trust towards a server that trusts
 * 127.0.0.1, no server_reset_query (a transaction pooler does not run it: a setting left on a connection
 * reaches the next client, which is what the tests look for), no protocol-level prepared statements (1.18).
 */
export function pgbouncerIni({ upstream, port, dir, poolSize }) {
  const up = new URL(upstream);
  return `[databases]
* = host=${up.hostname} port=${up.port || 5432}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${join(dir, 'userlist.txt')}
pool_mode = transaction
default_pool_size = ${poolSize}
max_user_connections = ${Math.max(poolSize * 2, 10)}
max_client_conn = 2000
ignore_startup_parameters = extra_float_digits,options
server_reset_query =
query_wait_timeout = 60
log_connections = 0
log_disconnections = 0
log_pooler_errors = 1
`;
}

/** Starts PgBouncer in front of `upstream` (a postgres:// URL); `url` is that URL through the pooler. */
export async function startPgbouncer({ upstream, poolSize = 10 } = {}) {
  const binary = ensurePgbouncer();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'cmms-pgbouncer-'));
  const up = new URL(upstream);
  const user = decodeURIComponent(up.username || 'postgres');
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`);
  writeFileSync(join(dir, 'pgbouncer.ini'), pgbouncerIni({ upstream, port, dir, poolSize }));
  // PgBouncer refuses to run as root: started as root, it switches to the postgres user (-u), which must read its files.
  chmodSync(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  const child = spawn(binary, [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk) => (log = (log + chunk).slice(-4000)));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (let i = 0; i < 100 && child.exitCode === null; i++) {
    if (await accepting(port)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (child.exitCode !== null || !(await accepting(port))) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`PgBouncer did not start:\n${log}`);
  }
  const through = new URL(upstream);
  through.hostname = '127.0.0.1';
  through.port = String(port);
  return {
    port,
    url: through.toString(),
    /** The same server through the pooler, another database. */
    urlOf: (database) => Object.assign(new URL(through), { pathname: `/${database}` }).toString(),
    log: () => log,
    stop: () => stopChild(child, exited, 'SIGINT', 3000, dir),
  };
}

async function main() {
  const args = process.argv.slice(2);
  const sep = args.indexOf('--');
  const options = sep < 0 ? [] : args.slice(0, sep);
  const command = sep < 0 ? args : args.slice(sep + 1);
  const sizeAt = options.indexOf('--pool-size');
  const poolSize = sizeAt >= 0 ? Number(options[sizeAt + 1]) : 20;
  const upstream = process.env.DATABASE_URL;
  if (!upstream || command.length === 0) {
    console.error('usage: DATABASE_URL=postgres://… node scripts/pgbouncer.mjs [--pool-size N] -- <command…>');
    process.exit(2);
  }
  const bouncer = await startPgbouncer({ upstream, poolSize });
  console.log(`PgBouncer (transaction mode, ${poolSize} server connections) on port ${bouncer.port} in front of ${new URL(upstream).host}`);
  const env = { ...process.env, DATABASE_URL: bouncer.url, PGBOUNCER_UPSTREAM_URL: upstream };
  delete env.DATABASE_DIRECT_URL;
  const run = spawn(command[0], command.slice(1), { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => run.kill(signal));
  const code = await new Promise((resolve) => run.once('exit', (c, s) => resolve(c ?? (s ? 1 : 0))));
  await bouncer.stop();
  process.exit(code);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
