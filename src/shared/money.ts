/**
 * Money in the organisation currency's own minor units (decision 035): JPY has none (1 yen is 1 unit),
 * USD and EUR hundredths, KWD thousandths (fils). The number of decimals comes from ISO 4217, written
 * here once, not from `Intl`: CLDR's display preferences differ from ISO for some codes (IQD, IDR, HUF)
 * and change with ICU versions, and a stored amount must mean the same thing for ever. Browser-safe.
 */

/** ISO 4217 currencies whose minor unit is not two decimals (the 2024 list); every other code has 2. */
const ISO_4217_DIGITS: Record<string, number> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/** The most decimals any stored amount may carry (CLF, UYW); master-data prices are kept at this scale. */
export const MAX_CURRENCY_DIGITS = 4;

/** The number of decimals of a currency (USD 2, JPY 0, KWD 3); 2 for a code ISO 4217 does not list. */
export function currencyDigits(currency: string | null | undefined): number {
  return ISO_4217_DIGITS[(currency ?? '').toUpperCase()] ?? 2;
}

/** Minor units per major unit: 10 ^ digits (JPY 1, USD 100, KWD 1000). */
export const minorPerMajor = (digits: number): number => 10 ** digits;

/** Half-up rounding that is not fooled by binary fractions (2.675 × 100 = 267.49999… rounds to 268). */
export function roundHalfUp(x: number): number {
  if (!Number.isFinite(x)) return 0;
  const snapped = Math.round(x * 1e6) / 1e6;
  return snapped >= 0 ? Math.floor(snapped + 0.5) : -Math.floor(-snapped + 0.5);
}

/** 12.5 major -> minor units of a currency with `digits` decimals (USD 1250, JPY 13, KWD 12500). */
export const toMinor = (major: number | string | null | undefined, digits: number): number => roundHalfUp(Number(major ?? 0) * minorPerMajor(digits));

/** Minor units -> major (1250 -> 12.5 at 2 digits, 1250 -> 1250 at 0, 1250 -> 1.25 at 3). */
export const toMajor = (minor: number, digits: number): number => Number((Math.round(minor) / minorPerMajor(digits)).toFixed(digits));

/** True when `value` has at most `digits` decimals (12.50 at 2 yes, 12.5 at 0 no). */
export function fitsCurrency(value: number, digits: number): boolean {
  if (!Number.isFinite(value)) return false;
  // An amount parsed from "12.345" is the double nearest that decimal, which toFixed writes back exactly.
  return Math.abs(Number(value.toFixed(digits)) - value) <= 4 * Number.EPSILON * Math.abs(value);
}

/**
 * The field message for an amount with more decimals than its currency has, e.g. "JPY amounts have no
 * decimals" or "KWD amounts have at most 3 decimals".
 */
export function currencyDecimalsMessage(currency: string): string {
  const digits = currencyDigits(currency);
  return digits === 0 ? `${currency} amounts have no decimals` : `${currency} amounts have at most ${digits} decimal${digits === 1 ? '' : 's'}`;
}
