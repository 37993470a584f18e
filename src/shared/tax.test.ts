import { describe, expect, it } from 'vitest';
import { computeLine, computeTotals, roundHalfUp, toMinor, type LineFigures, type LineInput, type TaxRule } from './tax';

const pct = (amount: number, isPriceIncluded = false): TaxRule => ({ taxComputation: 'percentage_of_price', amount, isPriceIncluded });
const fixed = (amount: number, isPriceIncluded = false): TaxRule => ({ taxComputation: 'fixed', amount, isPriceIncluded });
const div = (amount: number, isPriceIncluded = false): TaxRule => ({ taxComputation: 'percentage_of_price_tax_included', amount, isPriceIncluded });
const group = (children: TaxRule[], isPriceIncluded = false): TaxRule => ({ taxComputation: 'group', amount: null, isPriceIncluded, children });

// [name, line, expected figures in cents: raw, discountAmount, untaxed, taxAmount, subtotal]
const cases: [string, LineInput, [number, number, number, number, number]][] = [
  ['no tax', { quantity: 2, unitPrice: 1000 }, [2000, 0, 2000, 0, 2000]],
  ['discount 0', { quantity: 1, unitPrice: 1000, discount: 0, tax: pct(15) }, [1000, 0, 1000, 150, 1150]],
  ['discount 10 rounds the base half-up', { quantity: 3, unitPrice: 999, discount: 10 }, [2997, 300, 2697, 0, 2697]],
  ['discount 12.5', { quantity: 1, unitPrice: 1999, discount: 12.5 }, [1999, 250, 1749, 0, 1749]],
  ['discount 50 of one cent rounds up', { quantity: 1, unitPrice: 1, discount: 50 }, [1, 0, 1, 0, 1]],
  ['discount 100 leaves nothing to tax', { quantity: 1, unitPrice: 5000, discount: 100, tax: pct(10) }, [5000, 5000, 0, 0, 0]],
  ['discount above 100 is clamped', { quantity: 1, unitPrice: 5000, discount: 150 }, [5000, 5000, 0, 0, 0]],
  ['negative discount is clamped', { quantity: 1, unitPrice: 5000, discount: -5 }, [5000, 0, 5000, 0, 5000]],
  ['percentage of price', { quantity: 4, unitPrice: 2500, tax: pct(8) }, [10000, 0, 10000, 800, 10800]],
  ['percentage rounds half-up per line', { quantity: 1, unitPrice: 1010, tax: pct(5) }, [1010, 0, 1010, 51, 1061]],
  ['percentage on the discounted price', { quantity: 2, unitPrice: 1000, discount: 25, tax: pct(10) }, [2000, 500, 1500, 150, 1650]],
  ['fixed adds amount × quantity', { quantity: 3, unitPrice: 1000, tax: fixed(2.5) }, [3000, 0, 3000, 750, 3750]],
  ['fixed ignores the discount', { quantity: 2, unitPrice: 1000, discount: 50, tax: fixed(1) }, [2000, 1000, 1000, 200, 1200]],
  ['percentage_of_price_tax_included adds base / (1 − r) − base', { quantity: 1, unitPrice: 900, tax: div(10) }, [900, 0, 900, 100, 1000]],
  ['percentage_of_price_tax_included rounds', { quantity: 1, unitPrice: 1000, tax: div(15) }, [1000, 0, 1000, 176, 1176]],
  ['price-included percentage is taken out', { quantity: 1, unitPrice: 1150, tax: pct(15, true) }, [1150, 0, 1000, 150, 1150]],
  ['price-included percentage rounds', { quantity: 1, unitPrice: 1000, tax: pct(20, true) }, [1000, 0, 833, 167, 1000]],
  ['price-included fixed', { quantity: 2, unitPrice: 1000, tax: fixed(1.5, true) }, [2000, 0, 1700, 300, 2000]],
  ['price-included division tax is rate × price', { quantity: 1, unitPrice: 1000, tax: div(10, true) }, [1000, 0, 900, 100, 1000]],
  ['group sums its children on the same base', { quantity: 2, unitPrice: 1000, discount: 25, tax: group([pct(10), fixed(1)]) }, [2000, 500, 1500, 350, 1850]],
  ['group of two percentages', { quantity: 1, unitPrice: 1999, tax: group([pct(10), pct(5)]) }, [1999, 0, 1999, 300, 2299]],
  ['price-included group', { quantity: 1, unitPrice: 1150, tax: group([pct(10), pct(5)], true) }, [1150, 0, 1000, 150, 1150]],
  ['group with one included child', { quantity: 1, unitPrice: 1100, tax: group([pct(10, true), pct(5)]) }, [1100, 0, 1000, 150, 1150]],
  ['empty group', { quantity: 1, unitPrice: 1000, tax: group([]) }, [1000, 0, 1000, 0, 1000]],
  ['fractional quantity rounds the raw amount', { quantity: 1.5, unitPrice: 333 }, [500, 0, 500, 0, 500]],
  ['zero quantity', { quantity: 0, unitPrice: 1000, tax: fixed(3) }, [0, 0, 0, 0, 0]],
  ['big amounts stay exact', { quantity: 1000, unitPrice: 123456789, discount: 3, tax: pct(21) }, [123456789000, 3703703670, 119753085330, 25148147919, 144901233249]],
];

describe('line arithmetic (DESIGN 8)', () => {
  it.each(cases)('%s', (_name, line, [raw, discountAmount, untaxed, taxAmount, subtotal]) => {
    const f: LineFigures = computeLine(line);
    expect(f).toEqual({ raw, discountAmount, untaxed, taxAmount, subtotal });
    // invariants: every figure is an integer and the pieces add up
    for (const v of Object.values(f)) expect(Number.isInteger(v)).toBe(true);
    expect(f.raw - f.discountAmount).toBeGreaterThanOrEqual(0);
    expect(f.subtotal).toBe(f.untaxed + f.taxAmount);
  });

  it('sums several lines into the summary', () => {
    const totals = computeTotals([cases[2][1], cases[11][1], cases[19][1], cases[15][1]]);
    expect(totals).toMatchObject({
      rawSubtotal: 2997 + 3000 + 2000 + 1150,
      totalDiscount: 300 + 0 + 500 + 0,
      untaxed: 2697 + 3000 + 1500 + 1000,
      totalTax: 0 + 750 + 350 + 150,
      total: 2697 + 3750 + 1850 + 1150,
    });
    expect(totals.lines).toHaveLength(4);
    expect(computeTotals([])).toMatchObject({ rawSubtotal: 0, totalDiscount: 0, untaxed: 0, totalTax: 0, total: 0 });
  });

  it('rounds half-up and converts money without binary surprises', () => {
    expect(roundHalfUp(0.5)).toBe(1);
    expect(roundHalfUp(2.5)).toBe(3);
    expect(roundHalfUp(2.4999)).toBe(2);
    expect(roundHalfUp(-2.5)).toBe(-3);
    expect(toMinor(2.675)).toBe(268);
    expect(toMinor(1.005)).toBe(101);
    expect(toMinor('19.99')).toBe(1999);
    expect(toMinor(null)).toBe(0);
    expect(roundHalfUp(Number.NaN)).toBe(0);
  });

  it('a 100 % tax-included rate does not divide by zero', () => {
    expect(computeLine({ quantity: 1, unitPrice: 1000, tax: div(100) })).toMatchObject({ taxAmount: 0, subtotal: 1000 });
  });
});
