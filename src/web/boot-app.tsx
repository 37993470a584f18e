import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/tiptap/styles.css';
import '@mantine/charts/styles.css';
import { i18n, loadLanguage } from './i18n';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';

/** Mounts the whole SPA (Mantine, router, queries, i18n) on `el`, once the interface language is loaded. */
export async function mountApp(el: HTMLElement, beforeRender?: () => void) {
  await loadLanguage(i18n.language);
  beforeRender?.();
  createRoot(el).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
