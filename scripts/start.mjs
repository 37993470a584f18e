// `npm start`: install what is missing, build the SPA and the server bundle, then run the server (which migrates and seeds).
import { execSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureDeps } from './ensure-deps.mjs';

/**
 * Every line on standard output is JSON (decision 067), as the server's own log (pino's fields: level 30 is info):
 * a log collector reads one format from start to end. The tools' own output goes to standard error.
 */
const log = (msg) => process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg })}\n`);
const tools = { stdio: ['inherit', 2, 'inherit'] };

// The build needs devDependencies (vite, its React plugin, esbuild), which npm leaves out when
// NODE_ENV=production: the install includes them, and a production install made without them is completed.
process.env.npm_config_include = 'dev';
ensureDeps(log, tools.stdio);
const buildTools = ['vite', '@vitejs/plugin-react', 'esbuild'];
if (!buildTools.every((name) => existsSync(`node_modules/${name}/package.json`))) {
  log('Installing the build tools (npm install --include=dev)');
  execSync('npm install --include=dev --no-audit --no-fund', tools);
}
delete process.env.npm_config_include;
log('Building the web app');
execSync('npx vite build --logLevel warn', tools);
execSync(`"${process.execPath}" scripts/build-server.mjs`, tools);
log('Starting the server');
const server = spawn(process.execPath, ['dist/server/main.mjs'], { stdio: 'inherit', env: process.env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
