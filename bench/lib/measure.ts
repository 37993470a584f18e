import http from 'node:http';
import { readFileSync } from 'node:fs';
import pg from 'pg';

/** The load of the request benchmarks: `--seconds` per measurement (default 5) and `--concurrency` (default 8), for `parseArgs`. */
export const LOAD_OPTIONS = { seconds: { type: 'string', default: '5' }, concurrency: { type: 'string', default: '8' } } as const;

export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU ms per request: this process (load generator and servers), and the whole machine (PostgreSQL too). */
  cpu?: { process: number; machine: number };
}

/** The machine's busy CPU time in ms so far, from /proc/stat (undefined off Linux). */
function machineBusyMs(): number | undefined {
  try {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    const idle = ticks[3] + ticks[4];
    return ((ticks.slice(0, 8).reduce((a, b) => a + b, 0) - idle) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** Runs `once` from `concurrency` loops for `seconds` (after a short warm-up); req/s and p50/p99 in ms. */
export async function measure(once: () => Promise<boolean>, seconds: number, concurrency: number): Promise<Figures> {
  const warmUntil = Date.now() + 300;
  while (Date.now() < warmUntil) await once();
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  const cpu0 = process.cpuUsage();
  const machine0 = machineBusyMs();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const ok = await once();
        latencies.push(performance.now() - t0);
        if (!ok) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu0);
  const machine1 = machineBusyMs();
  const n = latencies.length || 1;
  const cpu =
    machine0 === undefined || machine1 === undefined ? undefined : { process: (used.user + used.system) / 1000 / n, machine: (machine1 - machine0) / n };
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors, cpu };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** One keep-alive GET; resolves true on a 2xx. */
export function get(port: number, path: string, headers: Record<string, string>): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'GET', headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve((res.statusCode ?? 500) < 300));
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/**
 * Every pg query a GET makes while `fn` runs: the exact text, parameters and options, in order. Queries are
 * grouped by the connection that ran them, and a connection that wrote anything meanwhile (a background job's
 * tick, pg-boss's maintenance) is left out: replayed inside a read-only request transaction its statements
 * failed ("cannot execute UPDATE in a read-only transaction").
 */
export type Captured = { config: unknown; values: unknown };
export async function capture(fn: () => Promise<void>): Promise<Captured[]> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const seen: (Captured & { client: unknown })[] = [];
  proto.query = function (this: unknown, config: unknown, values?: unknown, ...rest: unknown[]) {
    // The values come second (drizzle) or inside the config (the app's kept statements, decision 052).
    const inConfig = typeof config === 'object' && config ? (config as { values?: unknown }).values : undefined;
    seen.push({
      client: this,
      config: typeof config === 'object' && config ? { ...(config as object) } : config,
      values: typeof values === 'function' || values === undefined ? inConfig : values,
    });
    return original.call(this, config, values, ...rest);
  };
  try {
    await fn();
  } finally {
    proto.query = original;
  }
  const textOf = (c: Captured) => (typeof c.config === 'string' ? c.config : String((c.config as { text?: string }).text ?? ''));
  const writers = new Set(
    seen.filter((c) => /^\s*(insert|update|delete|with\b[\s\S]*\b(insert|update|delete)\b)|pgboss\./i.test(textOf(c))).map((c) => c.client),
  );
  return seen.filter((c) => !writers.has(c.client)).map(({ config, values }) => ({ config, values }));
}
