/**
 * The compiler of a language's message dictionary (decision 065): loaded with the dictionary itself, so that the
 * first page (the lean login screen, the boot) carries only translate-message's small lookup, which lets English
 * pass through untranslated. Loaded through ./ar-translator, in the dictionary's chunk.
 */
import type { MessageCatalog, Translator } from './translate-message';

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

/** A language's dictionary as translate-message's translator (installTranslator). */
export function translatorOf(catalog: MessageCatalog): Translator {
  const compiled = compileCatalog(catalog);
  return (text) => lookup(compiled, text, 0);
}
