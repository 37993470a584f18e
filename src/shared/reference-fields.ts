import { z } from './zod-setup';

/** Blank form values ('' and null) mean "not given". */
export const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** A select's id: a number, a numeric string, or an `{ id }` / `{ value }` object (nested spec shapes). */
export const toId = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? ((v as { id?: unknown }).id ?? (v as { value?: unknown }).value) : v);

const MAX_INT = 2147483647;

/** A numeric string as form inputs send them ("12", " -3.5 "). */
export const isNumericText = (v: unknown): v is string => typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v);

/** A number given as a number or a numeric string; NaN for anything else. */
export const numberFrom = (v: unknown) => (typeof v === 'number' ? v : isNumericText(v) ? Number(v) : NaN);

/** A required reference (select value). 0 is the select's "Add New" entry, so it counts as missing. */
export const requiredRef = (message: string) =>
  z.preprocess(
    (v) => {
      const id = toId(blankToUndefined(v));
      return id === 0 || id === '0' ? undefined : id;
    },
    z.coerce.number({ error: message }).int(message).min(1, message).max(MAX_INT, message),
  );

/** An optional reference: blank, null or 0 clear it (null). */
export const optionalRef = (message: string) =>
  z.preprocess(
    (v) => {
      const id = toId(v);
      return id === '' || id === null || id === undefined || id === 0 || id === '0' ? null : id;
    },
    z.coerce.number({ error: message }).int(message).min(1, message).max(MAX_INT, message).nullable(),
  );

/**
 * Other spellings of a body's fields (DESIGN 11): each alias fills its canonical field when that is absent,
 * and is then removed so the closed schema does not refuse it.
 */
export function renameAliases(aliases: Record<string, string>) {
  return (v: unknown) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const body = { ...(v as Record<string, unknown>) };
    for (const [alias, canonical] of Object.entries(aliases)) {
      if (!(alias in body)) continue;
      if (body[canonical] === undefined || body[canonical] === null || body[canonical] === '') body[canonical] = body[alias];
      delete body[alias];
    }
    return body;
  };
}

/**
 * A non-negative amount given as a number or a numeric string (form inputs send strings): missing gives
 * `required`, text gives `invalid`, a negative value `negative`, a string over `maxChars` characters `tooLong`.
 */
export const amountField = (m: { required: string; invalid: string; negative: string; tooLong?: string; maxChars?: number; max?: number }) =>
  z.any().transform((v, ctx): number => {
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return fail(m.required);
    if (typeof v === 'string' && v.length > (m.maxChars ?? 500)) return fail(m.tooLong ?? m.invalid);
    const n = numberFrom(v);
    if (!Number.isFinite(n)) return fail(m.invalid);
    if (n < 0) return fail(m.negative);
    if (n > (m.max ?? 999_999_999_999)) return fail(m.invalid);
    // Kept to the most decimals a currency has; the service checks the organisation currency's own (decision 035).
    return Math.round(n * 1e4) / 1e4;
  });

/** An optional quantity (3 decimals), number or numeric string; blank means not given. */
export const quantityField = (m: { invalid: string; negative?: string }) =>
  z.preprocess(
    (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
    z
      .any()
      .transform((v, ctx): number => {
        const n = numberFrom(v);
        if (!Number.isFinite(n) || Math.abs(n) > 99_999_999_999) {
          ctx.addIssue({ code: 'custom', message: m.invalid });
          return z.NEVER;
        }
        if (m.negative && n < 0) {
          ctx.addIssue({ code: 'custom', message: m.negative });
          return z.NEVER;
        }
        return Math.round(n * 1000) / 1000;
      })
      .optional(),
  );

export { displayId } from './display-id';

/** Case-insensitive "contains" text filter of a list query. */
/** An optional text of at most `max` characters ("<label> must be text", "<label> must be at most <max> characters"); blank is none. */
export const optionalTextField = (max: number, label: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: `${label} must be text` })
      .trim()
      .max(max, `${label} must be at most ${max} characters`)
      .optional(),
  );

export const textFilter = z.preprocess(blankToUndefined, z.string().trim().max(100, 'Filter must be at most 100 characters').optional());
