/**
 * The one line-total arithmetic of quotations and purchase orders (DESIGN section 8), used by the drawer
 * (live totals), the API (stored totals) and the printed documents. Browser-safe, no dependencies.
 *
 * Money is in integer minor units (cents); every line is rounded half-up once per figure:
 *   raw       = quantity × unitPrice
 *   base      = raw × (1 − discount% / 100)                 (discount 0 to 100)
 *   fixed                              adds amount × quantity
 *   percentage_of_price                adds base × rate / 100
 *   percentage_of_price_tax_included   adds base / (1 − rate / 100) − base
 *   group                              sums its children on the same base
 * A tax with isPriceIncluded (or a child of such a group) is already inside the unit price: the line's
 * base is split into untaxed + that tax (untaxed = (base − fixed) / (1 + Σ rates)), so the line total stays
 * the base; taxes not included are then added on the untaxed amount.
 */

export const TAX_COMPUTATION_VALUES = ['fixed', 'percentage_of_price', 'percentage_of_price_tax_included', 'group'] as const;
export type TaxComputation = (typeof TAX_COMPUTATION_VALUES)[number];

/** A tax as the engine needs it. `amount`: money in major units for `fixed`, a percent otherwise, ignored for `group`. */
export interface TaxRule {
  id?: number;
  name?: string;
  taxComputation: TaxComputation;
  amount: number | null;
  isPriceIncluded: boolean;
  /** The children of a group (never groups themselves; nested groups are flattened one level). */
  children?: TaxRule[];
}

export interface LineInput {
  quantity: number;
  /** Unit price in minor units (cents). */
  unitPrice: number;
  /** Percent, 0 to 100 (values outside are clamped). */
  discount?: number;
  tax?: TaxRule | null;
}

/** One line's figures, all integer minor units. */
export interface LineFigures {
  /** quantity × unit price */
  raw: number;
  /** raw − base */
  discountAmount: number;
  /** the line amount without any tax */
  untaxed: number;
  /** every tax of the line (included and added) */
  taxAmount: number;
  /** untaxed + taxAmount: the line total */
  subtotal: number;
}

export interface DocumentTotals {
  rawSubtotal: number;
  totalDiscount: number;
  untaxed: number;
  totalTax: number;
  total: number;
}

/** Minor units per major unit (2 decimals, as the summaries show). */
export const MINOR_PER_MAJOR = 100;

/** Half-up rounding that is not fooled by binary fractions (2.675 × 100 = 267.49999… rounds to 268). */
export function roundHalfUp(x: number): number {
  if (!Number.isFinite(x)) return 0;
  const snapped = Math.round(x * 1e6) / 1e6;
  return snapped >= 0 ? Math.floor(snapped + 0.5) : -Math.floor(-snapped + 0.5);
}

/** 12.5 (dollars) -> 1250 (cents). */
export const toMinor = (major: number | string | null | undefined): number => roundHalfUp(Number(major ?? 0) * MINOR_PER_MAJOR);
/** 1250 (cents) -> 12.5 (dollars). */
export const toMajor = (minor: number): number => minor / MINOR_PER_MAJOR;

const finite = (n: unknown, fallback = 0) => (typeof n === 'number' && Number.isFinite(n) ? n : fallback);
const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

/** The leaf taxes of a tax (a group's children, each included when it or its group is). */
export function leafTaxes(tax: TaxRule | null | undefined): TaxRule[] {
  if (!tax) return [];
  if (tax.taxComputation !== 'group') return [tax];
  return (tax.children ?? []).flatMap((child) =>
    leafTaxes(child).map((leaf) => ({ ...leaf, isPriceIncluded: leaf.isPriceIncluded || tax.isPriceIncluded })),
  );
}

/** A leaf tax as `constant + factor × untaxed` (minor units) for a line of `quantity`. */
function linearForm(tax: TaxRule, quantity: number): { constant: number; factor: number } {
  const amount = finite(tax.amount);
  switch (tax.taxComputation) {
    case 'fixed':
      return { constant: amount * MINOR_PER_MAJOR * quantity, factor: 0 };
    case 'percentage_of_price':
      return { constant: 0, factor: amount / 100 };
    case 'percentage_of_price_tax_included': {
      // base / (1 − r) − base; a rate of 100 % or more has no finite price: no tax rather than Infinity
      const r = amount / 100;
      return { constant: 0, factor: r < 1 ? 1 / (1 - r) - 1 : 0 };
    }
    default:
      return { constant: 0, factor: 0 };
  }
}

/** One line's figures (see the module comment for the rules). */
export function computeLine(line: LineInput): LineFigures {
  const quantity = Math.max(0, finite(line.quantity));
  const unitPrice = Math.max(0, finite(line.unitPrice));
  const discount = clamp(finite(line.discount), 0, 100);
  const raw = roundHalfUp(quantity * unitPrice);
  const base = roundHalfUp((raw * (100 - discount)) / 100);
  const leaves = leafTaxes(line.tax).map((t) => ({ included: t.isPriceIncluded, ...linearForm(t, quantity) }));

  // Taxes inside the price: base = untaxed + Σ(constant + factor × untaxed)
  const inc = leaves.filter((l) => l.included);
  const incConstant = inc.reduce((s, l) => s + l.constant, 0);
  const incFactor = inc.reduce((s, l) => s + l.factor, 0);
  const untaxedExact = inc.length ? Math.max(0, (base - incConstant) / (1 + incFactor)) : base;
  const includedTax = inc.length ? roundHalfUp(base - untaxedExact) : 0;
  const untaxed = base - includedTax;

  // Taxes added on top, on the untaxed amount
  const addedTax = roundHalfUp(leaves.filter((l) => !l.included).reduce((s, l) => s + l.constant + l.factor * untaxed, 0));
  const taxAmount = includedTax + addedTax;
  return { raw, discountAmount: raw - base, untaxed, taxAmount, subtotal: untaxed + taxAmount };
}

/** The summary of a document: raw subtotal, total discount, untaxed price, total tax, total price. */
export function computeTotals(lines: readonly LineInput[]): DocumentTotals & { lines: LineFigures[] } {
  const figures = lines.map(computeLine);
  const sum = (k: keyof LineFigures) => figures.reduce((s, f) => s + f[k], 0);
  return {
    lines: figures,
    rawSubtotal: sum('raw'),
    totalDiscount: sum('discountAmount'),
    untaxed: sum('untaxed'),
    totalTax: sum('taxAmount'),
    total: sum('subtotal'),
  };
}
