import { preferencesStorageAllowed } from '../lib/local-store';

/** The interface language without i18next: what the lean login screen needs, shared with the full app. */
export type Language = 'en' | 'ar';
export const LANGUAGES: { value: Language; label: string }[] = [
  { value: 'en', label: 'English' },
  { value: 'ar', label: 'العربية' },
];
export const LANGUAGE_KEY = 'cmms.language';
/** The choice when the user refused preference storage (cookie settings): it lasts for the page. */
let pageLanguage: Language | undefined;

/** The language remembered on this device (English unless Arabic was chosen). */
export function storedLanguage(): Language {
  if (pageLanguage) return pageLanguage;
  try {
    return window.localStorage.getItem(LANGUAGE_KEY) === 'ar' ? 'ar' : 'en';
  } catch {
    return 'en';
  }
}

/** True once a language was chosen on this device (or, without preference storage, on this page). */
export function languageChosenHere(): boolean {
  if (pageLanguage) return true;
  try {
    return window.localStorage.getItem(LANGUAGE_KEY) !== null;
  } catch {
    return false;
  }
}

export function rememberLanguage(lang: Language) {
  if (!preferencesStorageAllowed()) {
    pageLanguage = lang;
    return;
  }
  try {
    window.localStorage.setItem(LANGUAGE_KEY, lang);
  } catch {
    /* not remembered */
  }
}

/** <html lang dir> for a language. */
export function applyDocumentLanguage(lang: string) {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = lang;
  document.documentElement.dir = lang === 'ar' ? 'rtl' : 'ltr';
}

/** A nested catalog of strings (lists of strings are allowed but never looked up here). */
export type Catalog = { [key: string]: string | readonly string[] | Catalog };

/** A translator over nested catalogs ("auth.login.title"), falling back to the second catalog, then the key. */
export function catalogTranslator(catalog: Catalog, fallback: Catalog): (key: string) => string {
  const find = (c: Catalog, key: string) => {
    let node: Catalog[string] | undefined = c;
    for (const part of key.split('.')) node = typeof node === 'object' && !Array.isArray(node) ? (node as Catalog)[part] : undefined;
    return typeof node === 'string' ? node : undefined;
  };
  return (key) => find(catalog, key) ?? find(fallback, key) ?? key;
}
