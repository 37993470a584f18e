// Stopping a helper server started by a script (nginx, PgBouncer): its own shutdown signal, then SIGKILL.
import { rmSync } from 'node:fs';

/**
 * Sends `signal` to `child` when it still runs, waits up to `graceMs` for `exited` (a promise of its exit), then
 * kills it; finally removes its scratch folder `dir`.
 */
export async function stopChild(child, exited, signal, graceMs, dir) {
  if (child.exitCode === null) {
    child.kill(signal);
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, graceMs))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  rmSync(dir, { recursive: true, force: true });
}
