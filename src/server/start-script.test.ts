import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './paths';

/**
 * `NODE_ENV=production npm start` on a fresh clone (decision 022): npm leaves devDependencies out in
 * production, but the build needs them. scripts/start.mjs runs in a scratch folder with `npm` and `npx`
 * replaced by stubs that record how they were called (npm reads `npm_config_*` variables as options);
 * the stub `npx` fails, which stops the start before the build.
 */
function startInScratch(prepare: (dir: string) => void = () => {}) {
  const dir = mkdtempSync(join(tmpdir(), 'cmms-start-'));
  mkdirSync(join(dir, 'scripts'));
  mkdirSync(join(dir, 'bin'));
  for (const file of ['start.mjs', 'ensure-deps.mjs']) copyFileSync(join(ROOT, 'scripts', file), join(dir, 'scripts', file));
  writeFileSync(join(dir, 'package.json'), '{"name":"scratch","private":true}');
  writeFileSync(join(dir, 'package-lock.json'), '{}');
  const record = join(dir, 'calls.log');
  for (const tool of ['npm', 'npx']) {
    const stub = join(dir, 'bin', tool);
    writeFileSync(stub, `#!/bin/sh\necho "${tool} $* include=$npm_config_include" >> "${record}"\n${tool === 'npx' ? 'exit 1' : 'exit 0'}\n`);
    chmodSync(stub, 0o755);
  }
  prepare(dir);
  const run = spawnSync(process.execPath, ['scripts/start.mjs'], {
    cwd: dir,
    env: { PATH: `${join(dir, 'bin')}:${process.env.PATH}`, NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(48) },
    encoding: 'utf8',
  });
  lastStdout = run.stdout;
  return readFileSync(record, 'utf8').trim().split('\n');
}
let lastStdout = '';

const includesDev = (call: string) => / --include=dev\b/.test(call) || /include=dev$/.test(call);

describe('npm start in production', () => {
  it('installs the devDependencies the build needs on a fresh clone', () => {
    const calls = startInScratch();
    const installs = calls.filter((c) => c.startsWith('npm install'));
    expect(installs.length).toBeGreaterThan(0);
    expect(installs.every(includesDev)).toBe(true);
    expect(calls.some((c) => c.startsWith('npx vite build'))).toBe(true);
  });

  it('completes an install that was made without them', () => {
    const calls = startInScratch((dir) => {
      mkdirSync(join(dir, 'node_modules'));
      writeFileSync(join(dir, 'node_modules', '.package-lock.json'), '{}');
      const later = new Date(Date.now() + 60_000);
      utimesSync(join(dir, 'node_modules', '.package-lock.json'), later, later);
    });
    const installs = calls.filter((c) => c.startsWith('npm install'));
    expect(installs.length).toBe(1);
    expect(includesDev(installs[0])).toBe(true);
  });
});

describe('what npm start prints', () => {
  it('is JSON lines only on standard output (decision 067): its own steps as log lines, the tools on standard error', () => {
    startInScratch();
    const lines = lastStdout.split('\n').filter((line) => line.trim() !== '');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) {
      const entry = JSON.parse(line) as { level: unknown; time: unknown; msg: unknown };
      expect(entry).toMatchObject({ level: 30, time: expect.any(Number), msg: expect.any(String) });
    }
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toContain('Building the web app');
  });
});

describe('engines', () => {
  // semver is installed for its dependants (npm's own range logic); it has no types of its own here.
  const semver = createRequire(import.meta.url)('semver') as {
    subset(sub: string, dom: string): boolean;
    satisfies(version: string, range: string): boolean;
  };
  const ours = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
  // Known and reported (decision 022): cookie 2 (under @fastify/cookie and light-my-request) declares
  // Node >= 22 but runs on Node 20, where the whole suite passes.
  const known = new Set(['node_modules/cookie']);

  it('promises only Node versions every locked package accepts, Node 20 included', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: { node?: string } }> };
    const refusing = Object.entries(lock.packages)
      .filter(([path, pkg]) => path && pkg.engines?.node && !known.has(path) && !semver.subset(ours, pkg.engines.node))
      .map(([path, pkg]) => `${path} (${pkg.engines?.node})`);
    expect(refusing).toEqual([]);
    expect(semver.satisfies('20.20.0', ours)).toBe(true);
  });
});
