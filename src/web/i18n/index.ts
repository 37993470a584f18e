import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { ar } from './ar';

export type Language = 'en' | 'ar';
export const LANGUAGES: { value: Language; label: string }[] = [
  { value: 'en', label: 'English' },
  { value: 'ar', label: 'العربية' },
];
const LANGUAGE_KEY = 'cmms.language';

function initialLanguage(): Language {
  try {
    return window.localStorage.getItem(LANGUAGE_KEY) === 'ar' ? 'ar' : 'en';
  } catch {
    return 'en';
  }
}

void i18n.use(initReactI18next).init({
  resources: { en: { common: en }, ar: { common: ar } },
  lng: typeof window === 'undefined' ? 'en' : initialLanguage(),
  fallbackLng: 'en',
  defaultNS: 'common',
  ns: ['common'],
  interpolation: { escapeValue: false },
  returnNull: false,
  react: { bindI18nStore: 'added' },
});

/** Applies a language to i18next, <html lang dir> and remembers it on this device. */
export function setLanguage(lang: Language) {
  void i18n.changeLanguage(lang);
  try {
    window.localStorage.setItem(LANGUAGE_KEY, lang);
  } catch {
    /* not remembered */
  }
}

i18n.on('languageChanged', (lng) => {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = lng;
  document.documentElement.dir = lng === 'ar' ? 'rtl' : 'ltr';
});
if (typeof document !== 'undefined') {
  document.documentElement.lang = i18n.language;
  document.documentElement.dir = i18n.language === 'ar' ? 'rtl' : 'ltr';
}

type Catalog = { [key: string]: string | Catalog };

/**
 * A feature registers its own strings under its namespace (call at module top level of its ui files):
 * `registerTranslations('workOrders', { en: {...}, ar: {...} })`, then `useTranslation('workOrders')`.
 */
export function registerTranslations(namespace: string, catalogs: { en: Catalog; ar: Catalog }) {
  i18n.addResourceBundle('en', namespace, catalogs.en, true, true);
  i18n.addResourceBundle('ar', namespace, catalogs.ar, true, true);
}

export { i18n };
