/**
 * The API's and the zod contracts' English messages in the reader's language (decision 065). The API keeps
 * answering the spec's English texts (they are the contract); the SPA shows them through a dictionary keyed
 * by the English text. A message that carries values is an entry with placeholders ("{{label}} is required"):
 * the values are taken from the English text, themselves translated when the dictionary knows them (a field's
 * label), and put into the translated sentence. A message the dictionary does not know stays English.
 * No i18next here: the lean login screen uses it too.
 */
export type MessageCatalog = Readonly<Record<string, string>>;

/** A language's translation of a (trimmed) English text; undefined when its dictionary does not know it. */
export type Translator = (text: string) => string | undefined;

// Compiled by ./compile-catalog, which comes with the dictionary (most sessions never need it).
const translators = new Map<string, Translator>();

/** Installs a language's compiled dictionary (./compile-catalog's translatorOf). */
export function installTranslator(lang: string, translate: Translator) {
  translators.set(lang, translate);
}

export function hasMessageCatalog(lang: string) {
  return translators.has(lang);
}

/** The reader's language: the page's `<html lang>` (set with the language, i18n/language.ts). */
function pageLanguage(): string {
  return typeof document === 'undefined' ? 'en' : document.documentElement.lang || 'en';
}

/**
 * `text` (an English message of the API, of a zod schema or of the SPA) in `lang` (default: the page's
 * language); the English text itself when English is read or the dictionary does not know it.
 */
export function translateMessage(text: string, lang: string = pageLanguage()): string {
  if (!text || lang === 'en') return text;
  const translate = translators.get(lang);
  if (!translate) return text;
  return translate(text.trim()) ?? text;
}

/** Loads and installs the dictionary of `lang` (a no-op for English and once loaded). */
export async function loadMessageCatalog(lang: string): Promise<void> {
  if (lang !== 'ar' || translators.has('ar')) return;
  const { arTranslator } = await import('./ar-translator');
  installTranslator('ar', arTranslator);
}
