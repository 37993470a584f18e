/**
 * Two API instances behind nginx on one PostgreSQL database: how the load is shared, and what a client
 * sees when one instance is killed with SIGKILL mid-load (then restarted). Target (issue 9): both share the
 * load; killing one loses only its in-flight requests (nginx retries idempotent reads on the survivor;
 * a create that was in flight on the killed instance may fail, and nothing else does).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/nginx/run.ts [--seconds 20] [--connections 32]
 * Needs nginx (Debian: apt-get install -y nginx-light).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../../src/server/test/server-process';
import { benchOrg, requirePostgres, scratchDatabase, startBenchServer, stopServer, sender } from '../lib/server';
import { fmt } from '../lib/measure';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '20' }, connections: { type: 'string', default: '32' } } });
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find(existsSync);
if (!NGINX) {
  console.error('nginx is missing: apt-get install -y nginx-light');
  process.exit(1);
}

function nginxConfig(dir: string, listen: number, upstreams: number[]) {
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, d), { recursive: true });
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  log_format upstreams '$msec $request_method $status $upstream_addr $upstream_status';
  access_log ${dir}/access.log upstreams;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  upstream api {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=3s;`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${listen};
    location / {
      proxy_pass http://api;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $remote_addr;
      # Reads that meet a dead instance are retried on the other (nginx never retries a POST by itself).
      proxy_next_upstream error timeout http_502 http_503;
    }
  }
}
`;
}

const send = sender(CONNECTIONS);

interface Failure {
  at: number;
  method: string;
  status: number;
}

const adminUrl = requirePostgres();
const scratch = await scratchDatabase(adminUrl, 'cmms_bench_nginx');
const dir = mkdtempSync(join(tmpdir(), 'cmms-bench-nginx-'));
const [portA, portB, portLb] = [await freePort(), await freePort(), await freePort()];
const a = await startBenchServer({ DATABASE_URL: scratch.url }, portA);
let b = await startBenchServer({ DATABASE_URL: scratch.url }, portB);
writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, portLb, [portA, portB]));
const nginx: ChildProcess = spawn(NGINX, ['-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: 'inherit' });
try {
  await new Promise((r) => setTimeout(r, 500));
  const org = await benchOrg(portA, 'pair', 200);
  const reads = ['/api/work-orders/get-work-orders?page=1&limit=25', '/api/work-orders/get-statistics', '/api/user/getCompanyUsers?page=1&limit=25'];

  /** Load through nginx for `seconds`; `during` runs at `atSecond`. */
  async function load(seconds: number, atSecond?: number, during?: () => Promise<void>) {
    const failures: Failure[] = [];
    let ok = 0;
    let n = 0;
    const started = performance.now();
    const until = started + seconds * 1000;
    const event = atSecond === undefined ? undefined : new Promise((r) => setTimeout(r, atSecond * 1000)).then(during);
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (performance.now() < until) {
          const i = n++;
          const write = i % 20 === 19;
          const status = write
            ? await send(portLb, org.host, org.token, 'POST', '/api/work-orders/add-work-order?page=1&limit=1', { title: `Pair ${i}`, priority: 'low' })
            : await send(portLb, org.host, org.token, 'GET', reads[i % reads.length]);
          if (status >= 200 && status < 300) ok++;
          else failures.push({ at: (performance.now() - started) / 1000, method: write ? 'POST' : 'GET', status });
        }
      }),
    );
    await event;
    return { ok, failures, rps: (ok + failures.length) / seconds };
  }

  const share = () => {
    const lines = readFileSync(join(dir, 'access.log'), 'utf8').trim().split('\n').filter(Boolean);
    writeFileSync(join(dir, 'access.log'), '');
    const counts = new Map<string, number>();
    for (const line of lines) {
      const upstream = line.split(' ')[3];
      for (const u of upstream.split(', ')) counts.set(u, (counts.get(u) ?? 0) + 1);
    }
    return [`127.0.0.1:${portA}`, `127.0.0.1:${portB}`].map((u) => counts.get(u) ?? 0);
  };
  share(); // forget set-up traffic

  const steady = await load(SECONDS / 2);
  const [sa, sb] = share();
  let killedAt = 0;
  const killed = await load(SECONDS, SECONDS / 4, async () => {
    killedAt = SECONDS / 4;
    b.child.kill('SIGKILL');
    await b.exited;
  });
  const [ka, kb] = share();
  b = await startBenchServer({ DATABASE_URL: scratch.url }, portB);
  await new Promise((r) => setTimeout(r, 3500)); // nginx's fail_timeout: the instance is tried again
  const back = await load(SECONDS / 2);
  const [ra, rb] = share();

  const pct = (x: number, y: number) => `${fmt((100 * x) / Math.max(1, x + y), 0)}%`;
  console.log(`\nTwo instances behind nginx (${new Date().toISOString().slice(0, 10)}, ${CONNECTIONS} connections, 5% creates)`);
  console.log('| phase | req/s | ok | failed | instance A share | instance B share |');
  console.log('|---|---|---|---|---|---|');
  console.log(`| both up, ${SECONDS / 2} s | ${fmt(steady.rps, 0)} | ${steady.ok} | ${steady.failures.length} | ${pct(sa, sb)} | ${pct(sb, sa)} |`);
  console.log(
    `| B killed (SIGKILL) at ${killedAt} s of ${SECONDS} s | ${fmt(killed.rps, 0)} | ${killed.ok} | ${killed.failures.length} | ${pct(ka, kb)} | ${pct(kb, ka)} |`,
  );
  console.log(`| B restarted, ${SECONDS / 2} s | ${fmt(back.rps, 0)} | ${back.ok} | ${back.failures.length} | ${pct(ra, rb)} | ${pct(rb, ra)} |`);
  const detail = killed.failures.map((f) => `${f.method} ${f.status || 'reset'} at ${fmt(f.at, 2)} s`).join('; ');
  console.log(`\nFailures while B was killed: ${killed.failures.length}${detail ? ` (${detail})` : ''}`);
  console.log(`All failures within 1 s of the kill: ${killed.failures.every((f) => f.at >= killedAt && f.at < killedAt + 1) ? 'yes' : 'no'}`);
} finally {
  nginx.kill('SIGQUIT');
  await Promise.all([stopServer(a), stopServer(b)]);
  rmSync(dir, { recursive: true, force: true });
  await scratch.drop();
}
