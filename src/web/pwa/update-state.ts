/**
 * "A new version is ready" (issue 27, decision 041): the service worker's registration (register-sw.ts) sets
 * it when a new worker is installed and waiting; the prompt (update-prompt.tsx) shows it and applies it.
 * The waiting worker takes over only when the user reloads from the prompt: a page never runs half old, half new.
 */
type Listener = () => void;
let apply: (() => Promise<void>) | null = null;
const listeners = new Set<Listener>();

export function setUpdateReady(fn: () => Promise<void>) {
  apply = fn;
  listeners.forEach((l) => l());
}

export const updateReady = () => apply !== null;

export function subscribeUpdate(l: Listener) {
  listeners.add(l);
  return () => void listeners.delete(l);
}

/** Activates the waiting worker and reloads the page on it. */
export async function applyUpdate() {
  await apply?.();
}
