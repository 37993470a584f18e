// Bundles the server into dist/server/main.mjs: production starts one file instead of resolving, reading and
// compiling some hundreds of modules in node_modules and src at every start (cold start, decision 013).
// Kept outside the bundle: native addons, WebAssembly, and packages that read their own files at run time
// (PGlite's wasm and extensions, sharp, argon2, pdfkit's fonts, swagger-ui's assets) or start worker threads
// by file name (pino's transports). Libraries of a few routes (mail, file types) load on first use anyway.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { pathToFileURL } from 'node:url';

export const EXTERNAL = [
  '@electric-sql/pglite',
  'sharp',
  '@node-rs/argon2',
  'pdfkit',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  'pino',
  'pg-native',
  'nodemailer',
  'file-type',
];

export async function buildServer(outfile = 'dist/server/main.mjs') {
  rmSync(dirname(outfile), { recursive: true, force: true }); // no chunks of an earlier build left behind
  await build({
    // The embedded database's thread is started by file name next to the server (decision 015).
    entryPoints: { [basename(outfile, '.mjs')]: 'src/server/main.ts', 'pglite-thread.worker': 'src/server/db/pglite-thread.worker.mjs' },
    outdir: dirname(outfile),
    outExtension: { '.js': '.mjs' },
    // Modules imported dynamically (the application, the seed, PDF…) become chunks read when first
    // imported: the entry is small, so the embedded database's thread starts before they load.
    splitting: true,
    chunkNames: '[name]-[hash]', // beside the entry: relative paths (the database thread's file) hold
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    // CommonJS packages inside an ES module bundle still call require().
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    // Whitespace and syntax only: a third less source to decode and parse at start; names stay for stack traces.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await buildServer(process.argv[2]);
