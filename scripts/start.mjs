// `npm start`: install what is missing, build the SPA and the server bundle, then run the server (which migrates and seeds).
import { execSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureDeps } from './ensure-deps.mjs';

// The build needs devDependencies (vite, its React plugin, esbuild), which npm leaves out when
// NODE_ENV=production: the install includes them, and a production install made without them is completed.
process.env.npm_config_include = 'dev';
ensureDeps();
const buildTools = ['vite', '@vitejs/plugin-react', 'esbuild'];
if (!buildTools.every((name) => existsSync(`node_modules/${name}/package.json`))) {
  console.log('Installing the build tools (npm install --include=dev)…');
  execSync('npm install --include=dev --no-audit --no-fund', { stdio: 'inherit' });
}
delete process.env.npm_config_include;
console.log('Building the web app…');
execSync('npx vite build --logLevel warn', { stdio: 'inherit' });
execSync(`"${process.execPath}" scripts/build-server.mjs`, { stdio: 'inherit' });
const server = spawn(process.execPath, ['dist/server/main.mjs'], { stdio: 'inherit', env: process.env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
