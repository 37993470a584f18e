/// <reference types="vite-plugin-pwa/vanillajs" />
import { registerSW } from 'virtual:pwa-register';
import { setUpdateReady } from './update-state';

/** Registers the service worker (production builds only, main.tsx); a waiting new version raises the prompt. */
export function registerServiceWorker() {
  const update = registerSW({
    onNeedRefresh: () => setUpdateReady(() => update(true)),
    // A long-open tab (a technician's whole shift) looks for a new version every hour.
    onRegisteredSW: (_url, registration) => {
      if (registration) window.setInterval(() => void registration.update().catch(() => undefined), 3600_000);
    },
  });
}
