import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../paths';
import { OpenWhile } from './open-while';

/** The value of NESTED_CALL_CHECK in a process started with `env`. */
const checkWith = (env: Record<string, string | undefined>) =>
  execFileSync(process.execPath, ['--import', 'tsx', '-e', "import('./src/server/db/open-while.ts').then((m) => console.log(m.NESTED_CALL_CHECK))"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: undefined, DB_NESTED_CALL_CHECK: undefined, ...env },
  })
    .toString()
    .trim();

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.(ts|tsx|mjs)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });

describe('the nested-call check (decision 052)', () => {
  it('is off in production and on elsewhere, unless DB_NESTED_CALL_CHECK says', () => {
    expect(checkWith({ NODE_ENV: 'production' })).toBe('false');
    expect(checkWith({ NODE_ENV: 'development' })).toBe('true');
    expect(checkWith({ NODE_ENV: 'development', DB_NESTED_CALL_CHECK: 'off' })).toBe('false');
    expect(checkWith({ NODE_ENV: 'production', DB_NESTED_CALL_CHECK: 'on' })).toBe('true');
  });

  it('is open inside its work only, and never when off', async () => {
    const on = new OpenWhile(true);
    const off = new OpenWhile(false);
    expect(await on.run(async () => [on.open, await Promise.resolve().then(() => on.open)])).toEqual([true, true]);
    expect(on.open).toBe(false);
    expect(await off.run(async () => off.open)).toBe(false);
  });

  it('is the only AsyncLocalStorage of the server (one used once costs every later request, on Node 20)', () => {
    const users = sources(join(ROOT, 'src')).filter((file) => readFileSync(file, 'utf8').includes('AsyncLocalStorage'));
    expect(users.map((file) => relative(ROOT, file))).toEqual(['src/server/db/open-while.ts']);
  });
});
