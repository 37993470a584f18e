import { StrictMode, useEffect, useLayoutEffect, useState } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { refreshSession } from '../../../web/lib/api';
import { getAccessToken, mayHaveSession, onOtherTabAuth, setAccessToken } from '../../../web/lib/session';
import { enSignIn } from '../../../web/i18n/en-sign-in';
import { applyDocumentLanguage, catalogTranslator, rememberLanguage, storedLanguage, type Catalog, type Language } from '../../../web/i18n/language';
import { areaDefault, resolveScheme, storedPreference, THEME_KEY, type ThemePreference } from '../../../web/theme/color-scheme-preference';
import { writeLocal } from '../../../web/lib/local-store';
import { loadMessageCatalog } from '../../../web/i18n/messages/translate-message';
import { LoginScreen } from './login-screen';
import { takeHeldSubmit } from '../../../web/early-submit';
import { homeFor } from './home';
import type { LoginInput } from '../login.schema';

/** The values in the static form's fields (a user may type before the scripts arrive). */
function typedInto(el: HTMLElement): LoginInput {
  const value = (name: string) => el.querySelector<HTMLInputElement>(`input[name="${name}"]`)?.value ?? '';
  return { email: value('email'), password: value('password') };
}

async function catalogFor(lang: Language): Promise<Catalog> {
  if (lang !== 'ar') return enSignIn;
  const [{ ar }] = await Promise.all([import('../../../web/i18n/ar'), loadMessageCatalog(lang)]);
  return ar;
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

/** What the build renders into /login's HTML (login-prerender.tsx) and what the lean boot hydrates: the same tree. */
export interface StandaloneLoginProps {
  initialLanguage: Language;
  initialCatalog: Catalog;
  /** The page arrived with this screen's static HTML (English, theme 'auto', no session): the first render matches it. */
  prerendered: boolean;
  /** What the user typed into the static form before the takeover: kept (hydration alone would clear it). */
  typed?: LoginInput;
  goHome(): Promise<void>;
}

export function StandaloneLogin({ initialLanguage, initialCatalog, prerendered, typed, goHome }: StandaloneLoginProps) {
  const [language, setLanguage] = useState<Language>(initialLanguage);
  const [catalog, setCatalog] = useState<Catalog>(initialCatalog);
  const [preference, setPreference] = useState<ThemePreference>(() => (typeof window === 'undefined' ? 'auto' : (storedPreference() ?? areaDefault('/login'))));
  // without a session of this host in this browser, no refresh call (it could only fail)
  const [status, setStatus] = useState<'loading' | 'signedIn' | 'signedOut'>(() =>
    typeof window === 'undefined' ? 'signedOut' : getAccessToken() ? 'signedIn' : mayHaveSession() ? 'loading' : 'signedOut',
  );
  // The static HTML shows theme 'auto' and no session: hydration renders that, then (before the browser paints
  // again) this browser's own choice. The page's colours were already right: the head script set them (color-scheme.ts).
  const [hydrated, setHydrated] = useState(!prerendered);
  useLayoutEffect(() => {
    setHydrated(true);
    // from here React's own markup says which theme is chosen (login-screen.css styled the static one)
    document.getElementById('root')?.removeAttribute('data-prerendered');
  }, []);
  // A sign-in the user submitted before the takeover (held back by the head script, early-submit.ts): sent now,
  // with what they typed (the form's state started from it).
  useEffect(() => {
    if (prerendered && takeHeldSubmit()) document.querySelector<HTMLFormElement>('#root form')?.requestSubmit();
  }, [prerendered]);

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
      if (type === 'login' && !getAccessToken())
        void refreshSession().then((token) => {
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
      t={catalogTranslator(catalog, enSignIn)}
      language={language}
      onLanguage={(lang) => {
        rememberLanguage(lang);
        void catalogFor(lang).then((c) => {
          setCatalog(c);
          setLanguage(lang);
        });
      }}
      themePreference={hydrated ? preference : 'auto'}
      onThemePreference={(p) => {
        writeLocal(THEME_KEY, p);
        setPreference(p);
      }}
      status={hydrated ? status : 'signedOut'}
      initialValues={typed}
      onSignedIn={async (token) => {
        setAccessToken(token, { broadcast: true });
        await goHome();
      }}
      onError={(message) => void showError(message)}
      withSso
    />
  );
}

/** The element the build's static HTML renders: what the server puts into #root of an organisation's /login. */
export function standaloneLoginElement(props: StandaloneLoginProps) {
  return (
    <StrictMode>
      <StandaloneLogin {...props} />
    </StrictMode>
  );
}

/**
 * /login opened directly on an organisation's host: the lean screen, the load-time refresh (spec section 4),
 * other tabs' sign-in; once signed in, the address becomes /dashboard/work-orders and the full app takes over.
 * When the page came with the screen's static HTML (`#root[data-prerendered]`, src/server/app.ts), React takes
 * that markup over (hydrateRoot), so what a fast user typed stays; for another language than English, or a tab
 * that is signed in already, the static markup (hidden by then, see login-screen.css) is replaced.
 */
export async function bootLogin(el: HTMLElement) {
  const initialLanguage = storedLanguage();
  const prerendered = el.hasAttribute('data-prerendered') && initialLanguage === 'en' && !getAccessToken();
  const initialCatalog = prerendered ? enSignIn : await catalogFor(initialLanguage);
  let root: Root | undefined;
  let leaving = false;

  async function goHome() {
    if (leaving) return;
    leaving = true;
    window.history.replaceState(null, '', homeFor());
    const { mountApp } = await import('../../../web/boot-app');
    await mountApp(el, () => root?.unmount());
  }

  const app = standaloneLoginElement({ initialLanguage, initialCatalog, prerendered, typed: prerendered ? typedInto(el) : undefined, goHome });
  if (prerendered) root = hydrateRoot(el, app);
  else {
    el.replaceChildren();
    root = createRoot(el);
    el.removeAttribute('data-prerendered');
    root.render(app);
  }
}
