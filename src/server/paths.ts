import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The project root (where package.json is), whether running from src/ through tsx or from the dist/ bundle. */
function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json above ${from}`);
  }
}

export const ROOT = findRoot(import.meta.dirname);

/** Runs a command's `main` when its module (`moduleUrl`) is the file node was started with, not when imported (tests); a failure exits 1. */
export function runWhenMain(moduleUrl: string, main: () => Promise<void>) {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(resolve(process.argv[1])).href) return;
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
