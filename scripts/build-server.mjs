// Bundles the server into dist/server/main.mjs (npm packages stay external): production starts one
// file instead of transpiling some hundred TypeScript modules at every start (cold start, bench/cold-start).
import { build } from 'esbuild';

await build({
  entryPoints: ['src/server/main.ts'],
  outfile: 'dist/server/main.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
