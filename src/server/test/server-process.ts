import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { request } from 'node:http';

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface ServerProcess {
  port: number;
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code once the process is gone. */
  exited: Promise<number | null>;
}

/** Starts the real server (src/server/main.ts, or the `script` given, e.g. the bundle) as a child process and waits until it answers. */
export async function startServerProcess(
  env: Record<string, string | undefined>,
  port?: number,
  script = ['--import', 'tsx', 'src/server/main.ts'],
): Promise<ServerProcess> {
  const p = port ?? (await freePort());
  let out = '';
  const child = spawn(process.execPath, script, {
    // Tests sign in from 127.0.0.1 many times over one run: the per-IP login limit is not what they test.
    env: { ...process.env, PORT: String(p), HOST: '127.0.0.1', LOG_LEVEL: 'warn', LOGIN_LIMIT_PER_IP: '1000000', RATE_LIMIT_SCALE: '100000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // Until it answers or exits, however long a loaded machine takes: the test's own timeout is the bound.
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    try {
      const res = await fetch(`http://127.0.0.1:${p}/api/health`).then((r) => ({ ok: r.ok }));
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { port: p, child, output: () => out, exited };
}

/** A minimal response: status and JSON (or text) body. */
export interface SimpleResponse {
  status: number;
  json<T = unknown>(): Promise<T>;
  text(): Promise<string>;
}

/** HTTP against an organisation's host on the child server (node:http, since fetch cannot set Host). */
export function orgFetch(port: number, host: string, token?: string) {
  return (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    new Promise<SimpleResponse>((resolve, reject) => {
      const payload = init.body !== undefined ? JSON.stringify(init.body) : undefined;
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path,
          method: init.method ?? 'GET',
          headers: {
            host,
            ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...init.headers,
          },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: async () => body, json: async <T>() => JSON.parse(body) as T }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
}
