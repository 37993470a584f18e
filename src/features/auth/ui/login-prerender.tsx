import { renderToString } from 'react-dom/server';
import { enSignIn } from '../../../web/i18n/en-sign-in';
import { standaloneLoginElement } from './login-standalone';

/**
 * The sign-in screen as static HTML (decision 050): rendered once by the build (vite.config.ts, loginPrerender)
 * into dist/web/.vite/login.html; the server puts it into #root of an organisation's /login, so the form paints
 * with the first HTML and its stylesheet, before React and the login chunks have arrived. The lean boot then
 * hydrates exactly this tree (English, theme 'auto', signed out).
 */
export function renderLoginHtml(): string {
  return renderToString(standaloneLoginElement({ initialLanguage: 'en', initialCatalog: enSignIn, prerendered: true, goHome: async () => {} }));
}
