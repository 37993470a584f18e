import { StrictMode, useEffect, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { refreshSession } from '../../../web/lib/api';
import { getAccessToken, mayHaveSession, onOtherTabAuth, setAccessToken } from '../../../web/lib/session';
import { en } from '../../../web/i18n/en';
import { applyDocumentLanguage, catalogTranslator, rememberLanguage, storedLanguage, type Catalog, type Language } from '../../../web/i18n/language';
import { areaDefault, resolveScheme, storedPreference, THEME_KEY, type ThemePreference } from '../../../web/theme/color-scheme-preference';
import { writeLocal } from '../../../web/lib/local-store';
import { LoginScreen } from './login-screen';
import { homeFor } from './home';

async function catalogFor(lang: Language): Promise<Catalog> {
  return lang === 'ar' ? (await import('../../../web/i18n/ar')).ar : en;
}

function applyScheme(pref: ThemePreference) {
  const scheme = resolveScheme(pref);
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
  document.documentElement.style.colorScheme = scheme;
}

/** A toast like the app's (Mantine notifications), loaded only when there is something to say. */
async function showError(message: string) {
  const { showErrorToast } = await import('./login-toast');
  showErrorToast(message);
}

/**
 * /login opened directly on an organisation's host: the lean screen, the load-time refresh (spec section 4),
 * other tabs' sign-in; once signed in, the address becomes /dashboard/work-orders and the full app takes over.
 */
export async function bootLogin(el: HTMLElement) {
  const initialLanguage = storedLanguage();
  const initialCatalog = await catalogFor(initialLanguage);
  const root: Root = createRoot(el);
  let leaving = false;

  async function goHome() {
    if (leaving) return;
    leaving = true;
    window.history.replaceState(null, '', homeFor());
    const { mountApp } = await import('../../../web/boot-app');
    await mountApp(el, () => root.unmount());
  }

  function StandaloneLogin() {
    const [language, setLanguage] = useState<Language>(initialLanguage);
    const [catalog, setCatalog] = useState<Catalog>(initialCatalog);
    const [preference, setPreference] = useState<ThemePreference>(() => storedPreference() ?? areaDefault('/login'));
    // without a session of this host in this browser, no refresh call (it could only fail)
    const [status, setStatus] = useState<'loading' | 'signedIn' | 'signedOut'>(() => (getAccessToken() ? 'signedIn' : mayHaveSession() ? 'loading' : 'signedOut'));

    useEffect(() => {
      if (status === 'signedIn') {
        void goHome();
        return;
      }
      let cancelled = false;
      if (status === 'loading')
        void refreshSession().then((token) => {
          if (cancelled) return;
          if (token) {
            setStatus('signedIn');
            void goHome();
          } else setStatus('signedOut');
        });
      // another tab signed in: this one follows through the refresh cookie
      const stop = onOtherTabAuth((type) => {
        if (type === 'login' && !getAccessToken()) void refreshSession().then((token) => {
            if (token) void goHome();
          });
      });
      return () => {
        cancelled = true;
        stop();
      };
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, []);

    useEffect(() => {
      applyScheme(preference);
      if (preference !== 'auto') return;
      const media = window.matchMedia?.('(prefers-color-scheme: dark)');
      const follow = () => applyScheme('auto');
      media?.addEventListener('change', follow);
      return () => media?.removeEventListener('change', follow);
    }, [preference]);

    useEffect(() => applyDocumentLanguage(language), [language]);

    return (
      <LoginScreen
        t={catalogTranslator(catalog, en)}
        language={language}
        onLanguage={(lang) => {
          rememberLanguage(lang);
          void catalogFor(lang).then((c) => {
            setCatalog(c);
            setLanguage(lang);
          });
        }}
        themePreference={preference}
        onThemePreference={(p) => {
          writeLocal(THEME_KEY, p);
          setPreference(p);
        }}
        status={status}
        onSignedIn={async (token) => {
          setAccessToken(token, { broadcast: true });
          await goHome();
        }}
        onError={(message) => void showError(message)}
      />
    );
  }

  root.render(
    <StrictMode>
      <StandaloneLogin />
    </StrictMode>,
  );
}
