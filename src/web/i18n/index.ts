import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { applyDocumentLanguage, rememberLanguage, storedLanguage, type Language } from './language';
import { loadMessageCatalog } from './messages/translate-message';

export { LANGUAGES, type Language } from './language';

void i18n.use(initReactI18next).init({
  // Arabic is loaded when chosen (loadLanguage): most sessions never need it.
  resources: { en: { common: en } },
  lng: typeof window === 'undefined' ? 'en' : storedLanguage(),
  fallbackLng: 'en',
  defaultNS: 'common',
  ns: ['common'],
  interpolation: { escapeValue: false },
  returnNull: false,
  react: { bindI18nStore: 'added' },
});

let arabicLoaded = false;

/** Makes sure the product's own strings of `lang` are loaded (the app awaits this before its first render). */
export async function loadLanguage(lang: string) {
  // Not "has an Arabic common bundle": a screen's strings merged into `common` (insights-i18n.ts) make one.
  if (lang !== 'ar' || arabicLoaded) return;
  // the API's and the contracts' English messages come with the language (decision 065)
  const [{ ar }] = await Promise.all([import('./ar'), loadMessageCatalog(lang)]);
  i18n.addResourceBundle('ar', 'common', ar, true, true);
  arabicLoaded = true;
}

/** Applies a language to i18next, <html lang dir> and remembers it on this device. */
export function setLanguage(lang: Language) {
  rememberLanguage(lang);
  void loadLanguage(lang).then(() => i18n.changeLanguage(lang));
}

i18n.on('languageChanged', applyDocumentLanguage);
applyDocumentLanguage(i18n.language);

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
