import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from './test/server-process';
import { ensureServerBundle } from '../../scripts/ensure-built.mjs';

/**
 * Decision 067, on the bundle `npm start` runs: every line the server prints on standard output is JSON (the
 * start-up banner is a log line), and METRICS_PORT serves the metrics on a listener of its own, not the public port.
 */
describe('the server bundle started with METRICS_PORT', () => {
  it('prints JSON lines only, banner included, and serves /metrics on METRICS_PORT alone', { timeout: 180_000 }, async () => {
    // The bundle `npm start` serves, built once per run and shared with the other bundle tests and the journeys.
    const outfile = ensureServerBundle();
    const [port, metricsPort] = [await freePort(), await freePort()];
    const child = spawn(process.execPath, [outfile], {
      env: {
        ...process.env,
        DATABASE_URL: '',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'cmms-start-log-')),
        SEED_DEMO: 'false',
        JWT_SECRET: 'start-log-test-secret-start-log-test',
        PORT: String(port),
        HOST: '127.0.0.1',
        METRICS_PORT: String(metricsPort),
        METRICS_HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      while (!stdout.includes('CMMS is running')) {
        if (child.exitCode !== null) throw new Error(`server exited early:\n${stdout}\n${stderr}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
      const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(metrics.status).toBe(200);
      const text = await metrics.text();
      expect(text).toMatch(/^cmms_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_code="200"\} 1$/m);
      expect(text).toContain('process_resident_memory_bytes');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    const lines = stdout.split('\n').filter((line) => line.trim() !== '');
    const entries = lines.map((line) => {
      try {
        return JSON.parse(line) as { level: number; msg: string; landingPage?: string };
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
    const banner = entries.find((e) => e.msg === 'CMMS is running');
    expect(banner).toMatchObject({ level: 30, landingPage: `http://localhost:${port}` });
    expect(entries.some((e) => e.msg === 'metrics served on their own port')).toBe(true);
  });
});
