// An nginx of our own in front of server instances (decision 068): the tests start Debian's nginx with its own
// prefix, a generated nginx.conf around the configuration docs/deploy.md shows (read from the document itself,
// its instances, ports and certificate replaced) and free ports; never the system service. Installed from
// Debian's packages when missing (scripts/debian-package.mjs, as PgBouncer).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureDebianPackage } from './debian-package.mjs';
import { stopChild } from './stop-child.mjs';

export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const ROOT = resolve(import.meta.dirname, '..');

export function ensureNginx() {
  return ensureDebianPackage(NGINX, 'nginx', { override: 'NGINX_PATH' });
}

/** The first ```nginx block of docs/deploy.md: the documented site configuration. */
export function documentedSite() {
  const doc = readFileSync(join(ROOT, 'docs/deploy.md'), 'utf8');
  const match = /```nginx\n([\s\S]*?)\n```/.exec(doc);
  if (!match) throw new Error('docs/deploy.md shows no nginx configuration');
  return match[1];
}

/** `site` with these instances, loopback ports and certificate in place of the documented ones (each must be found). */
export function siteFor(site, { upstreams, httpPort, httpsPort, certificate, key }) {
  const replace = (text, pattern, by, what) => {
    if (!pattern.test(text)) throw new Error(`the documented nginx configuration has no ${what}`);
    return text.replace(pattern, by);
  };
  let out = site;
  const servers = /^([ \t]*)server\s+[\w.-]+:\d+[^;\n]*;\n/gm;
  let first = true;
  out = replace(
    out,
    servers,
    (_line, indent) => {
      if (!first) return '';
      first = false;
      return upstreams.map((u) => `${indent}server ${u};\n`).join('');
    },
    'upstream server lines',
  );
  out = replace(out, /listen 80;/, `listen 127.0.0.1:${httpPort};`, '"listen 80;"');
  out = replace(out, /listen 443 ssl;/, `listen 127.0.0.1:${httpsPort} ssl;`, '"listen 443 ssl;"');
  out = replace(out, /ssl_certificate\s+\S+;/, `ssl_certificate ${certificate};`, 'ssl_certificate');
  out = replace(out, /ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${key};`, 'ssl_certificate_key');
  return out;
}

/** A self-signed certificate for localhost and *.localhost in `dir`. */
export function selfSignedCertificate(dir) {
  const certificate = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,DNS:*.localhost',
      '-keyout',
      key,
      '-out',
      certificate,
    ],
    { stdio: 'ignore' },
  );
  return { certificate, key };
}

const accepting = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/**
 * Starts nginx with `site` (a site configuration, e.g. `siteFor(documentedSite(), …)`) inside a minimal
 * nginx.conf of its own: access log `<method> <uri> <status> <upstream>` (which instance served each request).
 * Waits until `port` accepts.
 */
export async function startNginx({ site, port }) {
  const binary = ensureNginx();
  const dir = mkdtempSync(join(tmpdir(), 'cmms-nginx-'));
  // Started as root, nginx's workers run as nobody: they write request bodies in these folders.
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    mkdirSync(join(dir, 'tmp', sub), { recursive: true });
    chmodSync(join(dir, 'tmp', sub), 0o777);
  }
  chmodSync(dir, 0o755);
  chmodSync(join(dir, 'tmp'), 0o755);
  writeFileSync(join(dir, 'cmms.conf'), site);
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 256; }
http {
    log_format upstreams '$request_method $request_uri $status $upstream_addr';
    access_log ${join(dir, 'access.log')} upstreams;
    client_body_temp_path ${join(dir, 'tmp/body')};
    proxy_temp_path ${join(dir, 'tmp/proxy')};
    fastcgi_temp_path ${join(dir, 'tmp/fastcgi')};
    uwsgi_temp_path ${join(dir, 'tmp/uwsgi')};
    scgi_temp_path ${join(dir, 'tmp/scgi')};
    include ${join(dir, 'cmms.conf')};
}
`,
  );
  const child = spawn(binary, ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const errors = () => {
    try {
      return `${stderr}${readFileSync(join(dir, 'error.log'), 'utf8')}`;
    } catch {
      return stderr;
    }
  };
  for (let i = 0; i < 100 && child.exitCode === null; i++) {
    if (await accepting(port)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (child.exitCode !== null || !(await accepting(port))) {
    child.kill('SIGKILL');
    const log = errors();
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`nginx did not start:\n${log}`);
  }
  return {
    dir,
    /** The access log's lines: `<method> <uri> <status> <upstream address>`. */
    accessLog: () => {
      try {
        return readFileSync(join(dir, 'access.log'), 'utf8').split('\n').filter(Boolean);
      } catch {
        return [];
      }
    },
    errors,
    stop: () => stopChild(child, exited, 'SIGQUIT', 5000, dir),
  };
}
