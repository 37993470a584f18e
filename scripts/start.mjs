// `npm start`: install what is missing, build the SPA and the server bundle, then run the server (which migrates and seeds).
import { execSync, spawn } from 'node:child_process';
import { ensureDeps } from './ensure-deps.mjs';

ensureDeps();
console.log('Building the web app…');
execSync('npx vite build --logLevel warn', { stdio: 'inherit' });
execSync(`"${process.execPath}" scripts/build-server.mjs`, { stdio: 'inherit' });
const server = spawn(process.execPath, ['dist/server/main.mjs'], { stdio: 'inherit', env: process.env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
