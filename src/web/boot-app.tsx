import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/tiptap/styles.css';
import '@mantine/charts/styles.css';
import './theme/dates.css';
import './theme/bidi.css';
import { i18n, loadLanguage } from './i18n';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadSignedInRoute } from './app/app-routes';

/** Mounts the whole SPA (Mantine, router, queries, i18n) on `el`, once the interface language is loaded. */
export async function mountApp(el: HTMLElement, beforeRender?: () => void) {
  // A signed-in page: the shell's and page's modules start loading now, instead of once the app has mounted.
  // (The session refresh was started by the entry, main.tsx; AuthProvider joins it.)
  preloadSignedInRoute(window.location.pathname);
  // The installable app's service worker (issue 27), production builds only (the dev server serves none). Here,
  // not in the entry: the sign-in page (100 KB budget) does without it; signing in mounts the app, which registers it.
  if (import.meta.env.PROD && 'serviceWorker' in navigator) void import('./pwa/register-sw').then((m) => m.registerServiceWorker());
  await loadLanguage(i18n.language);
  const root = createRoot(el);
  const render = () =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  if (beforeRender) {
    // after signing in: the login screen is replaced at once
    beforeRender();
    render();
  } else {
    // a cold load: React renders the first screen in slices (a transition) and lets the browser breathe between
    // them, instead of long tasks blocking input while the shell and the page mount
    startTransition(render);
  }
}
