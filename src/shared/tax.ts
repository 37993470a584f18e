/**
 * The one line-total arithmetic of quotations and purchase orders (DESIGN section 8), used by the drawer
 * (live totals), the API (stored totals) and the printed documents. Browser-safe, no dependencies.
 * Odoo's semantics where our fields reach (decision 036), in the currency's integer minor units (decision 035):
 *
 *   raw   = quantity × unitPrice, base = raw × (1 − discount% / 100), each rounded half-up
 *   A line's tax is one tax or a group; a group's children apply in their sequence (then id), each a leaf:
 *   fixed                              amount × quantity (the discount does not change it)
 *   percentage_of_price                base × rate / 100
 *   percentage_of_price_tax_included   (Odoo's "division") base / (1 − Σ rates / 100) × rate / 100, the
 *                                      consecutive division taxes of the group sharing that total
 *   Price-included taxes (the tax's flag or its group's) are taken out of the price, last first:
 *   consecutive included percentages share the divisor (price / (1 + Σ rates)); an included division
 *   tax is price × rate; an included fixed tax its amount.
 *   includeBaseAmount: the tax's amount joins the base of the taxes after it ("affects subsequent taxes").
 *   Negative rates (withholding) subtract.
 * Rounding (the organisation's setting): `round_per_line` rounds every leaf tax on every line to a minor
 * unit; `round_globally` keeps them exact, and a document rounds each tax's sum once (computeTotals).
 */
import { minorPerMajor, roundHalfUp } from './money';

export { roundHalfUp };

export const TAX_COMPUTATION_VALUES = ['fixed', 'percentage_of_price', 'percentage_of_price_tax_included', 'group'] as const;
export type TaxComputation = (typeof TAX_COMPUTATION_VALUES)[number];

export const TAX_ROUNDING_VALUES = ['round_per_line', 'round_globally'] as const;
export type TaxRounding = (typeof TAX_ROUNDING_VALUES)[number];

/** A tax as the engine needs it. `amount`: money in major units for `fixed`, a percent otherwise, ignored for `group`. */
export interface TaxRule {
  id?: number;
  name?: string;
  taxComputation: TaxComputation;
  amount: number | null;
  isPriceIncluded: boolean;
  /** Order of application within a group (lower first; ties by id). Default 1. */
  sequence?: number;
  /** The amount joins the base of the taxes applied after it. */
  includeBaseAmount?: boolean;
  /** The children of a group. */
  children?: TaxRule[];
}

export interface LineInput {
  quantity: number;
  /** Unit price in minor units of the currency. */
  unitPrice: number;
  /** Percent, 0 to 100 (values outside are clamped). */
  discount?: number;
  tax?: TaxRule | null;
}

/** How to compute: the currency's decimals (USD 2, JPY 0, KWD 3) and the organisation's rounding. */
export interface EngineOptions {
  digits: number;
  rounding?: TaxRounding;
}

/** One leaf tax's share of a line: its base and amount in minor units (exact under `round_globally`). */
export interface LineTax {
  id?: number;
  name?: string;
  base: number;
  amount: number;
}

/** One line's figures, integer minor units. */
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
  /** each leaf tax, in the order applied */
  taxes: LineTax[];
  /** Odoo's total excluded and total included, exact under `round_globally` */
  excluded: number;
  included: number;
}

export interface DocumentTotals {
  rawSubtotal: number;
  totalDiscount: number;
  untaxed: number;
  totalTax: number;
  total: number;
}

const finite = (n: unknown, fallback = 0) => (typeof n === 'number' && Number.isFinite(n) ? n : fallback);
const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));
const bySequence = (a: TaxRule, b: TaxRule) => finite(a.sequence, 1) - finite(b.sequence, 1) || finite(a.id) - finite(b.id);

/** The leaf taxes of a tax in the order they apply (a group's children by sequence, included when their group is). */
export function leafTaxes(tax: TaxRule | null | undefined): TaxRule[] {
  if (!tax) return [];
  if (tax.taxComputation !== 'group') return [tax];
  return [...(tax.children ?? [])]
    .sort(bySequence)
    .flatMap((child) => leafTaxes(child).map((leaf) => ({ ...leaf, isPriceIncluded: leaf.isPriceIncluded || tax.isPriceIncluded })));
}

type Kind = 'fixed' | 'percent' | 'division';
interface Leaf {
  rule: TaxRule;
  rate: number;
  amount: number;
  base: number;
}
interface Batch {
  kind: Kind;
  included: boolean;
  affectsBase: boolean;
  leaves: Leaf[];
  /** Excluded fixed amounts flagged includeBaseAmount before this batch: inside the base an included tax is taken from. */
  extra: number;
}

const kindOf = (c: TaxComputation): Kind | null =>
  c === 'fixed' ? 'fixed' : c === 'percentage_of_price' ? 'percent' : c === 'percentage_of_price_tax_included' ? 'division' : null;

/**
 * Consecutive leaves of one kind and inclusion form a batch (they share a divisor or a total); a tax that
 * affects the base of later taxes stands alone, so only its own amount joins their base.
 */
function batchesOf(leaves: TaxRule[]): Batch[] {
  const batches: Batch[] = [];
  for (const rule of leaves) {
    const kind = kindOf(rule.taxComputation);
    if (!kind) continue;
    const included = !!rule.isPriceIncluded;
    const affectsBase = !!rule.includeBaseAmount;
    const last = batches.at(-1);
    const leaf = { rule, rate: finite(rule.amount) / 100, amount: 0, base: 0 };
    if (last && !affectsBase && !last.affectsBase && last.kind === kind && last.included === included) last.leaves.push(leaf);
    else batches.push({ kind, included, affectsBase, leaves: [leaf], extra: 0 });
  }
  return batches;
}

interface Computed {
  raw: number;
  base: number;
  totalExcluded: number;
  taxes: LineTax[];
}

/** A line's exact or per-line-rounded figures before the line's own totals are rounded. */
function computeTaxes(line: LineInput, options: EngineOptions): Computed {
  const quantity = Math.max(0, finite(line.quantity));
  const unitPrice = Math.max(0, finite(line.unitPrice));
  const discount = clamp(finite(line.discount), 0, 100);
  const raw = roundHalfUp(quantity * unitPrice);
  const base = roundHalfUp((raw * (100 - discount)) / 100);
  const round = options.rounding === 'round_globally' ? (x: number) => x : roundHalfUp;
  const scale = minorPerMajor(options.digits);
  const batches = batchesOf(leafTaxes(line.tax));
  const sum = (b: Batch) => b.leaves.reduce((s, l) => s + l.amount, 0);

  // 1. Fixed amounts first: an excluded one that affects the base is inside what later included taxes come out of.
  let extra = 0;
  for (const b of batches) {
    b.extra = extra;
    if (b.kind !== 'fixed') continue;
    for (const l of b.leaves) l.amount = round(quantity * finite(l.rule.amount) * scale);
    if (b.affectsBase && !b.included) extra += sum(b);
  }

  // 2. Included taxes come out of the price, last first; what remains is the untaxed amount.
  let remaining = base;
  for (const b of [...batches].reverse()) {
    if (!b.included) continue;
    const gross = remaining + b.extra;
    if (b.kind === 'percent') {
      const divisor = 1 + b.leaves.reduce((s, l) => s + l.rate, 0);
      for (const l of b.leaves) l.amount = divisor > 0 ? round((gross / divisor) * l.rate) : 0;
    } else if (b.kind === 'division') {
      for (const l of b.leaves) l.amount = round(gross * l.rate);
    }
    for (const l of b.leaves) l.base = gross - sum(b);
    remaining -= sum(b);
  }
  const totalExcluded = remaining;

  // 3. Taxes added on top, in order, each on the untaxed amount plus what earlier taxes added to the base.
  let running = totalExcluded;
  for (const b of batches) {
    if (!b.included) {
      if (b.kind === 'percent') for (const l of b.leaves) l.amount = round(running * l.rate);
      else if (b.kind === 'division') {
        const rates = b.leaves.reduce((s, l) => s + l.rate, 0);
        // the batch's shared total; a rate of 100 % or more has no finite price: no tax rather than Infinity
        for (const l of b.leaves) l.amount = rates < 1 ? round((running / (1 - rates)) * l.rate) : 0;
      }
      for (const l of b.leaves) l.base = running;
    }
    if (b.affectsBase) running += sum(b);
  }
  const taxes = batches.flatMap((b) => b.leaves.map((l) => ({ id: l.rule.id, name: l.rule.name, base: l.base, amount: l.amount })));
  return { raw, base, totalExcluded, taxes };
}

/** One line's figures (see the module comment for the rules). */
export function computeLine(line: LineInput, options: EngineOptions): LineFigures {
  const c = computeTaxes(line, options);
  const exactTax = c.taxes.reduce((s, t) => s + t.amount, 0);
  // Per line every piece is already whole; globally the line shows its rounded tax and total.
  const taxAmount = roundHalfUp(exactTax);
  const subtotal = roundHalfUp(c.totalExcluded + exactTax);
  return {
    raw: c.raw,
    discountAmount: c.raw - c.base,
    untaxed: subtotal - taxAmount,
    taxAmount,
    subtotal,
    taxes: c.taxes,
    excluded: c.totalExcluded,
    included: c.totalExcluded + exactTax,
  };
}

/**
 * The summary of a document: raw subtotal, total discount, untaxed price, total tax, total price. Rounding
 * globally, each tax's exact amounts over the lines are summed and rounded once; the total is the lines'
 * totals and the untaxed price what the taxes leave of it.
 */
export function computeTotals(lines: readonly LineInput[], options: EngineOptions): DocumentTotals & { lines: LineFigures[] } {
  const figures = lines.map((l) => computeLine(l, options));
  const sum = (k: 'raw' | 'discountAmount' | 'untaxed' | 'taxAmount' | 'subtotal') => figures.reduce((s, f) => s + f[k], 0);
  const total = sum('subtotal');
  let totalTax = sum('taxAmount');
  if (options.rounding === 'round_globally') {
    const byTax = new Map<string, number>();
    figures.forEach((f, i) =>
      f.taxes.forEach((t, j) => {
        const key = t.id !== undefined ? `id:${t.id}` : `line:${i}:${j}`;
        byTax.set(key, (byTax.get(key) ?? 0) + t.amount);
      }),
    );
    totalTax = [...byTax.values()].reduce((s, v) => s + roundHalfUp(v), 0);
  }
  return { lines: figures, rawSubtotal: sum('raw'), totalDiscount: sum('discountAmount'), untaxed: total - totalTax, totalTax, total };
}
