import { setUpdateReady } from './update-state';

/**
 * Registers the service worker (production builds only, boot-app.tsx); a waiting new version raises the prompt.
 * The browser's own API, as vite-plugin-pwa's `registerSW` (prompt mode) used it through workbox-window (~3 KB
 * of gzipped JavaScript on every signed-in first page, issue 46): registered once the page has loaded; a worker
 * that is installed while another controls the page (or was already waiting) is a new version; applying it asks
 * the waiting worker to skip waiting (the generated sw.js answers `SKIP_WAITING`) and reloads once it controls.
 */
export function registerServiceWorker() {
  const sw = navigator.serviceWorker;
  const offer = (worker: ServiceWorker) =>
    setUpdateReady(async () => {
      sw.addEventListener('controllerchange', () => window.location.reload(), { once: true });
      worker.postMessage({ type: 'SKIP_WAITING' });
    });
  const register = () =>
    sw.register('/sw.js', { scope: '/' }).then(
      (registration: ServiceWorkerRegistration | undefined) => {
        // undefined where the browser blocks service workers (an embedding, a test browser's policy)
        if (!registration) return;
        if (registration.waiting && sw.controller) offer(registration.waiting);
        registration.addEventListener('updatefound', () => {
          const worker = registration.installing;
          worker?.addEventListener('statechange', () => {
            if (worker.state === 'installed' && sw.controller) offer(worker);
          });
        });
        // A long-open tab (a technician's whole shift) looks for a new version every hour.
        window.setInterval(() => void registration.update().catch(() => undefined), 3600_000);
      },
      () => undefined,
    );
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}
