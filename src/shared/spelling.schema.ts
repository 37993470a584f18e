import { blankToUndefined } from './reference-fields';

// The lenient spellings the spec's clients send for a choice (case, spaces, other words): one normaliser, so that
// every area reads `In Progress`, ` VAN ` or `urgent` the same way before its enum checks the value.

/** A string trimmed and lower-cased; anything else unchanged. */
export const lowerCased = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : v);

/** The same, with an empty string (and null) as absent: a required choice then says its own message. */
export const lowerCasedOrAbsent = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() || undefined : blankToUndefined(v));

/**
 * A choice's canonical value: trimmed, lower-cased (with `dashes`, runs of spaces and underscores as one '-'),
 * then the spec's other words for it (`aliases`); a value that is not a string is left to the enum.
 */
export const canonicalChoice =
  (aliases: Record<string, string>, options: { dashes?: boolean } = {}) =>
  (v: unknown): unknown => {
    if (typeof v !== 'string') return v;
    const lower = v.trim().toLowerCase();
    const s = options.dashes ? lower.replace(/[\s_]+/g, '-') : lower;
    return aliases[s] ?? s;
  };
