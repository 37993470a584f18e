import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../paths';

/**
 * The code block marked `<!-- tested: <name> -->` in a document of docs/ (the commands an operator runs), so that
 * a test runs the very text the document shows.
 */
export function docBlock(doc: string, name: string): string {
  const text = readFileSync(join(ROOT, 'docs', doc), 'utf8');
  const match = new RegExp(`<!-- tested: ${name} -->\\s*\`\`\`\\w*\\n([\\s\\S]*?)\\n\`\`\``).exec(text);
  if (!match) throw new Error(`docs/${doc} has no block marked "tested: ${name}"`);
  return match[1];
}

/** Runs a documented shell block with bash (-euo pipefail) and these variables; its output. */
export function runDocBlock(doc: string, name: string, env: Record<string, string>): string {
  return execFileSync('bash', ['-euo', 'pipefail', '-c', docBlock(doc, name)], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
