// Runs before the first paint: the build turns this module into a small classic script at the top of <head>
// (vite.config.ts, headScript; the CSP allows it by its hash, src/server/inline-scripts.ts), so the page is painted in the
// right theme and direction at once, also when its first HTML already holds a screen (an organisation's /login
// carries the sign-in form's static HTML, decision 050). The dev server runs it as a module, as before.
import { areaDefault, resolveScheme, storedPreference } from './theme/color-scheme-preference';
import { applyDocumentLanguage, storedLanguage } from './i18n/language';
import { holdEarlySubmits } from './early-submit';

const preference = storedPreference() ?? areaDefault(window.location.pathname);
const scheme = resolveScheme(preference);
const html = document.documentElement;
html.setAttribute('data-mantine-color-scheme', scheme);
html.style.colorScheme = scheme;
// the static sign-in form shows 'auto' as the theme chosen; its CSS shows this one until React takes over
html.setAttribute('data-theme-preference', preference);
// another language than the static HTML's English: <html lang dir> now, and the static form stays hidden
// (login-screen.css) until the lean boot renders it in that language
applyDocumentLanguage(storedLanguage());
// a sign-in submitted before the scripts took the static form over waits for them (early-submit.ts)
holdEarlySubmits(document);
