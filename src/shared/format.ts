/**
 * The one formatter of dates, times, numbers and money, for the UI, the PDFs and e-mails, driven by the
 * reader's language through `Intl`. Days and moments with the month by name, one format per language (decision
 * 066, "26 Nov 2026"); money "$1,234.50"; Arabic takes Intl's digits and AM/PM. Browser-safe.
 */

import { currencyDigits } from './money';

export type FormatLanguage = 'en' | 'ar';

const LOCALES: Record<FormatLanguage, string> = { en: 'en-US', ar: 'ar' };
const localeOf = (lang: string | undefined) => LOCALES[(lang as FormatLanguage) ?? 'en'] ?? LOCALES.en;

// Building an Intl formatter costs far more than using one, and a list formats hundreds of cells.
const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let f = cache.get(key) as T | undefined;
  if (!f) cache.set(key, (f = make()));
  return f;
}

/** The number of decimals a currency is written with (USD 2, JPY 0, KWD 3): ISO 4217's, as money is stored. */
export { currencyDigits };

/** "$1,234.50": an amount in major units, with the currency's own number of decimals. */
export function formatMoney(amount: number | string | null | undefined, currency = 'USD', lang?: string): string {
  const n = Number(amount ?? 0);
  const value = Number.isFinite(n) ? n : 0;
  try {
    // ISO 4217's decimals, as stored (Intl's own differ for a few codes, e.g. IQD).
    const digits = currencyDigits(currency);
    return cached(
      `money:${localeOf(lang)}:${currency}`,
      () => new Intl.NumberFormat(localeOf(lang), { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }),
    ).format(value);
  } catch {
    // A code Intl does not know (the company's currency is free text of three letters).
    return `${formatNumber(value, lang, currencyDigits(currency))} ${currency}`;
  }
}

/** The sign a language writes a currency with ("$", "¥", "KWD"); the code itself for a code Intl does not know. */
export function currencySymbol(currency = 'USD', lang?: string): string {
  try {
    const f = cached(`money:${localeOf(lang)}:${currency}`, () => {
      const digits = currencyDigits(currency);
      return new Intl.NumberFormat(localeOf(lang), { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
    }) as Intl.NumberFormat;
    return f.formatToParts(0).find((p) => p.type === 'currency')?.value ?? currency;
  } catch {
    return currency;
  }
}

/** A quantity or measure: up to `maxDecimals` decimals, no trailing zeros, grouped as the language groups. */
export function formatNumber(n: number | string | null | undefined, lang?: string, maxDecimals = 3): string {
  const value = Number(n ?? 0);
  return cached(`number:${localeOf(lang)}:${maxDecimals}`, () => new Intl.NumberFormat(localeOf(lang), { maximumFractionDigits: maxDecimals })).format(
    Number.isFinite(value) ? value : 0,
  );
}

const toDate = (value: string | Date | null | undefined): Date | null => {
  if (!value) return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
};

/**
 * One unambiguous format per language for days and moments (decision 066): the month by name, so that 09/03 is
 * never read as the 3rd of September. English "09 Mar 2026" and "09 Mar 2026, 06:05 PM"; Arabic
 * "٠٩ مارس ٢٠٢٦" and "٠٩ مارس ٢٠٢٦، ٦:٠٥ م". Date boxes show and take the same (`DAY_INPUT_FORMAT`).
 */
const DAY_OPTIONS = { en: { day: '2-digit', month: 'short', year: 'numeric' }, ar: { day: '2-digit', month: 'long', year: 'numeric' } } as const;

/** The date boxes' format (dayjs tokens), per language: what `formatDay` writes. */
export const DAY_INPUT_FORMAT: Record<FormatLanguage, string> = { en: 'DD MMM YYYY', ar: 'DD MMMM YYYY' };

const langOf = (lang: string | undefined): FormatLanguage => (lang === 'ar' ? 'ar' : 'en');

function dayParts(d: Date, lang: FormatLanguage, timeZone?: string) {
  const f = cached(`dayparts:${lang}:${timeZone ?? ''}`, () => new Intl.DateTimeFormat(localeOf(lang), { ...DAY_OPTIONS[lang], timeZone }));
  const p = Object.fromEntries(f.formatToParts(d).map((part) => [part.type, part.value]));
  return `${p.day} ${p.month} ${p.year}`;
}

/**
 * A moment in the reader's time zone, or in `timeZone` (an organisation's, for what the server prints: decision
 * 064): "26 Nov 2026, 06:05 PM" in English ('' for none).
 */
export function formatDateTime(value: string | Date | null | undefined, lang?: string, timeZone?: string): string {
  const d = toDate(value);
  if (!d) return '';
  const l = langOf(lang);
  const time = cached(
    `time:${l}:${timeZone ?? ''}`,
    () => new Intl.DateTimeFormat(localeOf(l), { hour: '2-digit', minute: '2-digit', hour12: true, timeZone }),
  ).format(d);
  return `${dayParts(d, l, timeZone)}${l === 'ar' ? '،' : ','} ${time}`;
}

/** A calendar day (dates are stored at the day's UTC midnight): "26 Nov 2026" in English ('' for none). */
export function formatDay(value: string | Date | null | undefined, lang?: string): string {
  const d = toDate(value);
  if (!d) return '';
  return dayParts(d, langOf(lang), 'UTC');
}

/** A length of time in whole minutes: "2h 30m" in English, "٢ س ٣٠ د" in Arabic (labour lines, their history). */
export function formatMinutes(minutes: number, lang?: string): string {
  const m = Math.max(0, Math.round(Number.isFinite(minutes) ? minutes : 0));
  const [h, rest] = [Math.floor(m / 60), m % 60];
  if (lang === 'ar') return `${formatNumber(h, lang, 0)} س ${formatNumber(rest, lang, 0)} د`;
  return `${h}h ${rest}m`;
}
