/**
 * The API's and the zod contracts' English messages in the reader's language (decision 065). The API keeps
 * answering the spec's English texts (they are the contract); the SPA shows them through a dictionary keyed
 * by the English text. A message that carries values is an entry with placeholders ("{{label}} is required"):
 * the values are taken from the English text, themselves translated when the dictionary knows them (a field's
 * label), and put into the translated sentence. A message the dictionary does not know stays English.
 * No i18next here: the lean login screen uses it too.
 */
export type MessageCatalog = Readonly<Record<string, string>>;

interface Pattern {
  regex: RegExp;
  names: string[];
  translated: string;
  /** Literal characters: the more, the more specific (tried first). */
  weight: number;
}

interface Compiled {
  exact: Map<string, string>;
  patterns: Pattern[];
}

const catalogs = new Map<string, Compiled>();
const PLACEHOLDER = /\{\{(\w+)\}\}/g;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Compiles a language's dictionary (English text -> translation); exact texts first, then patterns. */
export function compileCatalog(catalog: MessageCatalog): Compiled {
  const exact = new Map<string, string>();
  const patterns: Pattern[] = [];
  for (const [english, translated] of Object.entries(catalog)) {
    if (!english.includes('{{')) {
      exact.set(english, translated);
      continue;
    }
    const names: string[] = [];
    const parts = english.split(PLACEHOLDER);
    let source = '';
    parts.forEach((part, i) => {
      if (i % 2 === 0) source += escape(part);
      else {
        names.push(part);
        source += '(.+?)';
      }
    });
    patterns.push({ regex: new RegExp(`^${source}$`, 's'), names, translated, weight: english.replace(PLACEHOLDER, '').length });
  }
  patterns.sort((a, b) => b.weight - a.weight);
  return { exact, patterns };
}

/** Installs a language's dictionary (loaded with the language: most sessions never need Arabic's). */
export function setMessageCatalog(lang: string, catalog: MessageCatalog) {
  catalogs.set(lang, compileCatalog(catalog));
}

export function hasMessageCatalog(lang: string) {
  return catalogs.has(lang);
}

/** The reader's language: the page's `<html lang>` (set with the language, i18n/language.ts). */
function pageLanguage(): string {
  return typeof document === 'undefined' ? 'en' : document.documentElement.lang || 'en';
}

function lookup(compiled: Compiled, text: string, depth: number): string | undefined {
  const exact = compiled.exact.get(text);
  if (exact !== undefined) return exact;
  if (depth > 2) return undefined;
  for (const p of compiled.patterns) {
    const match = p.regex.exec(text);
    if (!match) continue;
    const values: Record<string, string> = {};
    p.names.forEach((name, i) => {
      const value = match[i + 1];
      // a value is translated when it is itself a known text (a field's label, an entity's name)
      values[name] = lookup(compiled, value, depth + 1) ?? compiled.exact.get(value.toLowerCase()) ?? value;
    });
    return p.translated.replace(PLACEHOLDER, (_, name: string) => values[name] ?? '');
  }
  return undefined;
}

/**
 * `text` (an English message of the API, of a zod schema or of the SPA) in `lang` (default: the page's
 * language); the English text itself when English is read or the dictionary does not know it.
 */
export function translateMessage(text: string, lang: string = pageLanguage()): string {
  if (!text || lang === 'en') return text;
  const compiled = catalogs.get(lang);
  if (!compiled) return text;
  return lookup(compiled, text.trim(), 0) ?? text;
}

/** Loads and installs the dictionary of `lang` (a no-op for English and once loaded). */
export async function loadMessageCatalog(lang: string): Promise<void> {
  if (lang !== 'ar' || catalogs.has('ar')) return;
  const { arMessages } = await import('./ar-messages');
  setMessageCatalog('ar', arMessages);
}
