// `npm run dev`: the development loop. The API under `tsx watch` (restarts when a server file changes) and the Vite
// dev server (reloads the browser when a web file changes) together; Vite proxies /api and /uploads to the API
// (vite.config.ts, API_URL). Open http://demo.localhost:5173 (admin@demo.com / Demo1234!). Each line of output is
// prefixed with its process's name; Ctrl-C, or either process ending, stops both. `npm run dev:api`: the API alone.
// PORT moves the API (and the proxy with it); arguments after `--` go to Vite (`npm run dev -- --port 5174`).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const apiPort = process.env.PORT ?? '3000';
// Links the API mails or prints come from the configured domain and PUBLIC_PORT, never the Host header (decision
// 060): in this loop people open Vite's port.
const env = { ...process.env, PORT: apiPort, PUBLIC_PORT: process.env.PUBLIC_PORT ?? '5173', API_URL: process.env.API_URL ?? `http://localhost:${apiPort}` };
const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;

const children = [
  { name: 'api', cmd: bin('tsx'), args: ['watch', 'src/server/main.ts'] },
  { name: 'web', cmd: bin('vite'), args: process.argv.slice(2) },
].map(({ name, cmd, args }) => {
  // detached: each child leads its own process group, so stopping it also stops what it started (tsx's server).
  const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    createInterface({ input: stream }).on('line', (line) => out.write(`[${name}] ${line}\n`));
  }
  return { name, child };
});

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const { child } of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  }
  // Whatever has not ended after five seconds is killed.
  setTimeout(() => {
    for (const { child } of children) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    process.exit(code);
  }, 5000).unref();
  let left = children.filter(({ child }) => child.exitCode === null && child.signalCode === null).length;
  if (left === 0) process.exit(code);
  for (const { child } of children) {
    child.once('exit', () => {
      left -= 1;
      if (left === 0) process.exit(code);
    });
  }
}

for (const { name, child } of children) {
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.log(`[dev] ${name} ended (${signal ?? `exit code ${code}`}): stopping the other`);
    stop(code ?? 1);
  });
  child.on('error', (error) => {
    console.error(`[dev] ${name} could not start: ${error.message}`);
    stop(1);
  });
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(0));
console.log(`[dev] API on ${env.API_URL} (tsx watch); open the demo organisation through Vite: http://demo.localhost:5173 (the port Vite prints)`);
