import { describe, expect, it } from 'vitest';
import { computeLine, computeTotals, roundHalfUp, type LineInput, type TaxRule } from './tax';
import { toMinor } from './money';

const USD = { digits: 2 };

const pct = (amount: number, isPriceIncluded = false, more?: Partial<TaxRule>): TaxRule => ({
  taxComputation: 'percentage_of_price',
  amount,
  isPriceIncluded,
  ...more,
});
const fixed = (amount: number, isPriceIncluded = false, more?: Partial<TaxRule>): TaxRule => ({ taxComputation: 'fixed', amount, isPriceIncluded, ...more });
const div = (amount: number, isPriceIncluded = false, more?: Partial<TaxRule>): TaxRule => ({
  taxComputation: 'percentage_of_price_tax_included',
  amount,
  isPriceIncluded,
  ...more,
});
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
  [
    'big amounts stay exact',
    { quantity: 1000, unitPrice: 123456789, discount: 3, tax: pct(21) },
    [123456789000, 3703703670, 119753085330, 25148147919, 144901233249],
  ],
];

describe('line arithmetic (DESIGN 8)', () => {
  it.each(cases)('%s', (_name, line, [raw, discountAmount, untaxed, taxAmount, subtotal]) => {
    const { taxes: _taxes, excluded: _e, included: _i, ...f } = computeLine(line, USD);
    expect(f).toEqual({ raw, discountAmount, untaxed, taxAmount, subtotal });
    // invariants: every figure is an integer and the pieces add up
    for (const v of Object.values(f)) expect(Number.isInteger(v)).toBe(true);
    expect(f.raw - f.discountAmount).toBeGreaterThanOrEqual(0);
    expect(f.subtotal).toBe(f.untaxed + f.taxAmount);
  });

  it('sums several lines into the summary', () => {
    const totals = computeTotals([cases[2][1], cases[11][1], cases[19][1], cases[15][1]], USD);
    expect(totals).toMatchObject({
      rawSubtotal: 2997 + 3000 + 2000 + 1150,
      totalDiscount: 300 + 0 + 500 + 0,
      untaxed: 2697 + 3000 + 1500 + 1000,
      totalTax: 0 + 750 + 350 + 150,
      total: 2697 + 3750 + 1850 + 1150,
    });
    expect(totals.lines).toHaveLength(4);
    expect(computeTotals([], USD)).toMatchObject({ rawSubtotal: 0, totalDiscount: 0, untaxed: 0, totalTax: 0, total: 0 });
  });

  it('rounds half-up and converts money without binary surprises', () => {
    expect(roundHalfUp(0.5)).toBe(1);
    expect(roundHalfUp(2.5)).toBe(3);
    expect(roundHalfUp(2.4999)).toBe(2);
    expect(roundHalfUp(-2.5)).toBe(-3);
    expect(toMinor(2.675, 2)).toBe(268);
    expect(toMinor(1.005, 2)).toBe(101);
    expect(toMinor('19.99', 2)).toBe(1999);
    expect(toMinor(null, 2)).toBe(0);
    expect(roundHalfUp(Number.NaN)).toBe(0);
  });

  it('a 100 % tax-included rate does not divide by zero', () => {
    expect(computeLine({ quantity: 1, unitPrice: 1000, tax: div(100) }, USD)).toMatchObject({ taxAmount: 0, subtotal: 1000 });
  });
});

// ---- Odoo's published figures (decision 036) --------------------------------------------------------------
// From odoo/odoo addons/account/tests/test_tax.py (17.0: test_taxes_ordering, test_forced_price_include_context_key,
// test_random_case_1 to 8, test_fixed_tax_price_included_affect_base_on_0, test_percent_taxes_for_l10n_in,
// test_division_taxes_for_l10n_br, test_fixed_taxes_for_l10n_be; 10.0: test_tax_group,
// test_tax_include_base_amount, test_tax_percent_division). A set of taxes on a line is our group of them;
// Odoo's force_price_include is our price-included group. Figures in major units, as Odoo writes them.

/** Odoo's tax options beyond the price: a line's quantity, currency digits, a price-included group, the rounding. */
interface OdooOptions {
  quantity?: number;
  digits?: number;
  groupIncluded?: boolean;
  rounding?: 'round_per_line' | 'round_globally';
}
/**
 * [name, taxes in Odoo's list order, price, excluded, included, expected, options]; expected holds base, amount per tax
 * in the order applied; base null where Odoo's base of a fixed tax is not ours to check.
 */
type OdooCase = [string, TaxRule[], number, number, number, (number | null)[], OdooOptions?];

/** The tax's amount joins the base of the taxes applied after it. */
const IB = { includeBaseAmount: true };
/** Brazil's five division taxes (5, 3, 0.65, 9, 15 %). */
const brazil = (included: boolean) => [5, 3, 0.65, 9, 15].map((amount) => div(amount, included));
const odooGroup = (taxes: TaxRule[], included = false): TaxRule => ({
  taxComputation: 'group',
  amount: null,
  isPriceIncluded: included,
  children: taxes.map((t, i) => ({ ...t, id: i + 1, includeBaseAmount: !!t.includeBaseAmount, sequence: t.sequence ?? 10 })),
});

const odoo: OdooCase[] = [
  [
    'taxes_ordering: sequence decides, not the list (division 1, fixed 2, percent 3)',
    [pct(10, false, { sequence: 3 }), fixed(10, false, { sequence: 2 }), div(10, false, { sequence: 1 })],
    200,
    200,
    252.22,
    [200, 22.22, null, 10, 200, 20],
  ],
  [
    'forced_price_include: two included 10 % share one divisor, each rounded',
    [pct(10), pct(10)],
    100,
    83.34,
    100,
    [83.34, 8.33, 83.34, 8.33],
    { groupIncluded: true },
  ],
  ['random_case_1 per line', [pct(8, true), pct(0, true)], 124.4, 115.19, 124.4, [115.19, 9.21, 115.19, 0]],
  ['random_case_1 globally', [pct(8, true), pct(0, true)], 124.4, 115.185185, 124.4, [115.185185, 9.214815, 115.185185, 0], { rounding: 'round_globally' }],
  ['random_case_3 per line', [pct(15), pct(5.5, true)], 2300, 2180.09, 2627.01, [2180.09, 327.01, 2180.09, 119.91]],
  [
    'random_case_3 globally',
    [pct(15), pct(5.5, true)],
    2300,
    2180.094787,
    2627.014218,
    [2180.094787, 327.014218, 2180.094787, 119.905213],
    { rounding: 'round_globally' },
  ],
  ['random_case_4 per line', [pct(12, true)], 52.5, 46.87, 52.5, [46.87, 5.63]],
  ['random_case_4 globally', [pct(12, true)], 52.5, 46.875, 52.5, [46.875, 5.625], { rounding: 'round_globally' }],
  ['random_case_5 no decimals (JPY) 19 %', [pct(19)], 22689, 22689, 27000, [22689, 4311], { digits: 0 }],
  ['random_case_5 no decimals, 9176', [pct(19)], 9176, 9176, 10919, [9176, 1743], { digits: 0 }],
  ['random_case_5 no decimals, included 27000', [pct(19, true)], 27000, 22689, 27000, [22689, 4311], { digits: 0 }],
  ['random_case_5 no decimals, included 10920', [pct(19, true)], 10920, 9176, 10920, [9176, 1744], { digits: 0 }],
  ['random_case_5 globally', [pct(19)], 22689, 22689, 26999.91, [22689, 4310.91], { rounding: 'round_globally' }],
  ['random_case_5 globally, included', [pct(19, true)], 10920, 9176.470588, 10920, [9176.470588, 1743.529412], { rounding: 'round_globally' }],
  ['random_case_7 per line 11.90', [pct(21, true)], 11.9, 9.83, 11.9, [9.83, 2.07]],
  ['random_case_7 per line 2.80', [pct(21, true)], 2.8, 2.31, 2.8, [2.31, 0.49]],
  ['random_case_7 globally 2.80', [pct(21, true)], 2.8, 2.31405, 2.8, [2.31405, 0.48595], { rounding: 'round_globally' }],
  [
    'random_case_8: a withholding −20 %, then 4 % affecting the base of 22 %',
    [pct(-20), pct(4, false, IB), pct(22)],
    50,
    50,
    53.44,
    [50, -10, 50, 2, 52, 11.44],
  ],
  ['fixed_tax_price_included_affect_base_on_0', [fixed(0.05, true, IB)], 0, -0.05, 0, [null, 0.05]],
  ['l10n_in: 6 % + 6 % + 3 %', [pct(6), pct(6), pct(3)], 100, 100, 115, [100, 6, 100, 6, 100, 3]],
  ['l10n_in: the first affects the base of the others', [pct(6, false, IB), pct(6), pct(3)], 100, 100, 115.54, [100, 6, 106, 6.36, 106, 3.18]],
  ['l10n_in: the first two affect the base', [pct(6, false, IB), pct(6, false, IB), pct(3)], 100, 100, 115.73, [100, 6, 106, 6.36, 112.36, 3.37]],
  ['l10n_br: five division taxes share one total', brazil(false), 32.33, 32.33, 48, [32.33, 2.4, 32.33, 1.44, 32.33, 0.31, 32.33, 4.32, 32.33, 7.2]],
  ['l10n_br: included division taxes are price × rate', brazil(true), 48, 32.33, 48, [null, 2.4, null, 1.44, null, 0.31, null, 4.32, null, 7.2]],
  [
    'l10n_br: included division taxes globally',
    brazil(true),
    48,
    32.328,
    48,
    [null, 2.4, null, 1.44, null, 0.312, null, 4.32, null, 7.2],
    { rounding: 'round_globally' },
  ],
  ['l10n_be: fixed 1, 21 %, fixed 2 on 5 × 20', [fixed(1), pct(21), fixed(2)], 20, 100, 136, [null, 5, 100, 21, null, 10], { quantity: 5 }],
  ['l10n_be: the fixed tax affects the base', [fixed(1, false, IB), pct(21), fixed(2)], 19, 95, 131, [null, 5, 100, 21, null, 10], { quantity: 5 }],
  [
    'l10n_be: an excluded fixed tax inside the base of an included 21 %',
    [fixed(1, false, IB), pct(21, true), fixed(2)],
    120,
    99,
    123,
    [null, 1, 100, 21, null, 2],
  ],
  ['l10n_be: included 21 % affecting the base, fixed not', [fixed(1), pct(21, true, IB), fixed(2)], 121, 100, 124, [null, 1, 100, 21, null, 2]],
  ['l10n_be: included fixed and included 21 %', [fixed(1, true, IB), pct(21, true, IB), fixed(2)], 121, 99, 123, [null, 1, 100, 21, null, 2]],
  ['group: fixed 10 and 10 %', [fixed(10), pct(10)], 200, 200, 230, [null, 10, 200, 20]],
  ['include_base_amount: the fixed 10 joins the base of 10 %', [fixed(10, false, IB), pct(10)], 200, 200, 231, [null, 10, 210, 21]],
  ['division 10 % on 200', [div(10)], 200, 200, 222.22, [200, 22.22]],
  ['included 10 % on 200', [pct(10, true)], 200, 181.82, 200, [181.82, 18.18]],
];

describe("Odoo's tax figures", () => {
  it.each(odoo)('%s', (_name, taxes, price, excluded, included, expected, k = {}) => {
    const digits = k.digits ?? 2;
    const scale = 10 ** digits;
    const line: LineInput = { quantity: k.quantity ?? 1, unitPrice: Math.round(price * scale), tax: odooGroup(taxes, k.groupIncluded) };
    const f = computeLine(line, { digits, rounding: k.rounding });
    const close = (actual: number, expected: number) => expect(actual / scale).toBeCloseTo(expected, k.rounding === 'round_globally' ? 5 : 9);
    close(f.excluded, excluded);
    close(f.included, included);
    expect(f.taxes).toHaveLength(expected.length / 2);
    for (let i = 0; i < expected.length / 2; i++) {
      const [base, amount] = [expected[2 * i], expected[2 * i + 1] as number];
      close(f.taxes[i].amount, amount);
      if (base !== null) close(f.taxes[i].base, base);
    }
    if (k.rounding !== 'round_globally') {
      // per line: every figure a whole minor unit, and the line shows Odoo's totals
      for (const t of f.taxes) expect(Number.isInteger(t.amount)).toBe(true);
      expect([f.untaxed, f.subtotal]).toEqual([Math.round(excluded * scale), Math.round(included * scale)]);
    }
  });
});

describe('rounding per line or globally', () => {
  // Three lines of 1.01 at 5 %: per line each tax is 0.05 (0.0505 rounded), globally the sum 0.1515 rounds once.
  const lines: LineInput[] = [1, 2, 3].map(() => ({
    quantity: 1,
    unitPrice: 101,
    tax: { id: 7, taxComputation: 'percentage_of_price', amount: 5, isPriceIncluded: false },
  }));
  it('per line sums rounded taxes', () => {
    expect(computeTotals(lines, { digits: 2, rounding: 'round_per_line' })).toMatchObject({ untaxed: 303, totalTax: 15, total: 318 });
  });
  it('globally rounds each tax once over the document, and the untaxed price is what the taxes leave', () => {
    const totals = computeTotals(lines, { digits: 2, rounding: 'round_globally' });
    expect(totals).toMatchObject({ totalTax: 15, total: 318 });
    const five = [1, 2, 3, 4, 5].map(() => lines[0]);
    // 5 × 0.0505 = 0.2525: 0.25 globally, 5 × 0.05 = 0.25 per line; 7 lines: 0.3535 -> 0.35 vs 0.35
    expect(computeTotals(five, { digits: 2, rounding: 'round_globally' }).totalTax).toBe(25);
    const nine = Array.from({ length: 9 }, () => ({ ...lines[0], unitPrice: 110 }));
    // 9 × 5.5 cents: per line 9 × 6 = 54, globally 49.5 -> 50
    expect(computeTotals(nine, { digits: 2, rounding: 'round_per_line' }).totalTax).toBe(54);
    const global = computeTotals(nine, { digits: 2, rounding: 'round_globally' });
    expect(global).toMatchObject({ totalTax: 50, total: 9 * 116, untaxed: 9 * 116 - 50 });
  });
  it('each child of a group is rounded on its own per line', () => {
    // 1.01 with two 5 % children: 0.05 + 0.05 = 0.10 per child, where the group's sum rounded once is 0.10 as well;
    // 1.10 with two 5 % children: 0.06 + 0.06 = 0.12, not 0.11 (0.055 + 0.055 rounded once)
    const line: LineInput = { quantity: 1, unitPrice: 110, tax: { taxComputation: 'group', amount: null, isPriceIncluded: false, children: [pct(5), pct(5)] } };
    expect(computeLine(line, USD)).toMatchObject({ taxAmount: 12, subtotal: 122 });
    expect(computeLine(line, { digits: 2, rounding: 'round_globally' })).toMatchObject({ taxAmount: 11, subtotal: 121 });
  });
});
