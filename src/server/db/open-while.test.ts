import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../paths';
import { OpenWhile } from './open-while';

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.(ts|tsx|mjs)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });

describe('the nested-call check (decision 052)', () => {
  it('is open inside its work only', async () => {
    const flag = new OpenWhile();
    expect(await flag.run(async () => [flag.open, await Promise.resolve().then(() => flag.open)])).toEqual([true, true]);
    expect(flag.open).toBe(false);
  });

  it('is the only AsyncLocalStorage of the server (one used once costs every later request, on Node 20)', () => {
    const users = sources(join(ROOT, 'src')).filter((file) => readFileSync(file, 'utf8').includes('AsyncLocalStorage'));
    expect(users.map((file) => relative(ROOT, file))).toEqual(['src/server/db/open-while.ts']);
  });
});
