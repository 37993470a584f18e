import { describe, expect, it } from 'vitest';
import { createOrg, useTestApp, type TestOrg } from '../../server/test/harness';
import { TAX_MESSAGES } from '../master-data/master-data.schema';
import { TAX_ROUNDING_MESSAGE } from '../organization/organization.schema';
import { commercialRows, inDays, type CommercialRows } from './test-fixtures';
import { issuesOf } from '../../server/test/issues-of';

/** Decision 036: Odoo's tax semantics through the API (master-data taxes, documents, the organisation's rounding). */

const t = useTestApp();

async function setup(name = 'Tax'): Promise<{ org: TestOrg; r: CommercialRows }> {
  const org = await createOrg(t, name);
  return { org, r: await commercialRows(t, org.orgId) };
}

let n = 0;
async function addTax(org: TestOrg, body: Record<string, unknown>) {
  n += 1;
  const res = await org.admin.post('/api/taxes/add-tax', { name: `Tax ${n}`, scope: 'sales', isPriceIncluded: false, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.tax as { id: number; sequence: number; includeBaseAmount: boolean; amount: number | null; Children: { id: number }[] };
}

/** A group of sales taxes, each `[computation, amount, options]`, in the order given by their sequences. */
async function group(org: TestOrg, children: [string, number, { incl?: boolean; ib?: boolean; seq?: number }?][], included = false) {
  const ids: number[] = [];
  for (const [taxComputation, amount, o = {}] of children) {
    ids.push((await addTax(org, { taxComputation, amount, isPriceIncluded: !!o.incl, includeBaseAmount: !!o.ib, sequence: o.seq ?? 10 })).id);
  }
  return addTax(org, { taxComputation: 'group', isPriceIncluded: included, children: ids });
}

const quote = (org: TestOrg, r: CommercialRows, lines: { price: number; taxId: number; quantity?: number }[]) =>
  org.admin.post('/api/quotations/add-quotation', {
    overview: { customer: r.customer.id, salesPerson: 1, quotationDate: inDays(0), expirationDate: inDays(30) },
    serviceDetails: lines.map((l) => ({ serviceId: r.service.id, quantity: l.quantity ?? 1, price: l.price, discount: 0, taxId: l.taxId })),
    partDetails: [],
  });

describe('taxes: sequence, affecting later bases, withholdings', () => {
  it("stores and returns the new fields, with defaults, and lists a group's children in the order they apply", async () => {
    const { org } = await setup();
    const plain = await addTax(org, { taxComputation: 'percentage_of_price', amount: 7 });
    expect(plain).toMatchObject({ sequence: 1, includeBaseAmount: false });
    const withholding = await addTax(org, { taxComputation: 'percentage_of_price', amount: -20, sequence: 1 });
    expect(withholding.amount).toBe(-20);
    const affecting = await addTax(org, { taxComputation: 'percentage_of_price', amount: 4, sequence: 2, includeBaseAmount: 'Yes' });
    expect(affecting).toMatchObject({ sequence: 2, includeBaseAmount: true });
    const g = await addTax(org, { taxComputation: 'group', children: [plain.id, affecting.id, withholding.id] });
    expect(g.Children.map((c) => c.id)).toEqual([plain.id, withholding.id, affecting.id]); // sequence 1, 1 (then by id), 2
    const upd = await org.admin.put(`/api/taxes/update-tax/${plain.id}`, {
      name: 'Tax plain',
      scope: 'sales',
      taxComputation: 'percentage_of_price',
      amount: 7,
      isPriceIncluded: false,
      sequence: 9,
    });
    expect(upd.status).toBe(200);
    expect(upd.body.tax).toMatchObject({ sequence: 9, includeBaseAmount: false });
    const options = await org.admin.get('/api/quotations/get-tax-options');
    const option = options.body.find((o: { value: number }) => o.value === g.id);
    expect(option.children.map((c: { id: number; sequence: number }) => [c.id, c.sequence])).toEqual(
      expect.arrayContaining([
        [withholding.id, 1],
        [affecting.id, 2],
        [plain.id, 9],
      ]),
    );
    expect(option.children.find((c: { id: number }) => c.id === affecting.id).includeBaseAmount).toBe(true);
  });

  it("refuses what has no meaning, with field messages, and keeps the spec's messages", async () => {
    const { org } = await setup();
    const post = (body: Record<string, unknown>) => org.admin.post('/api/taxes/add-tax', { name: 'Bad', scope: 'sales', isPriceIncluded: false, ...body });
    expect(issuesOf((await post({ taxComputation: 'percentage_of_price', amount: 5, sequence: 'first' })).body)).toEqual({ sequence: TAX_MESSAGES.sequence });
    expect(issuesOf((await post({ taxComputation: 'percentage_of_price', amount: 5, sequence: 1.5 })).body)).toEqual({ sequence: TAX_MESSAGES.sequence });
    expect(issuesOf((await post({ taxComputation: 'percentage_of_price', amount: 5, sequence: 10000 })).body)).toEqual({ sequence: TAX_MESSAGES.sequence });
    expect(issuesOf((await post({ taxComputation: 'percentage_of_price', amount: 5, includeBaseAmount: 'maybe' })).body)).toEqual({
      includeBaseAmount: TAX_MESSAGES.includeBaseAmount,
    });
    expect(issuesOf((await post({ taxComputation: 'percentage_of_price', amount: -100.5 })).body)).toEqual({ amount: TAX_MESSAGES.percentMin });
    expect(issuesOf((await post({ taxComputation: 'percentage_of_price', amount: 101 })).body)).toEqual({ amount: TAX_MESSAGES.percentMax });
    expect(issuesOf((await post({ taxComputation: 'percentage_of_price_tax_included', amount: 100 })).body)).toEqual({ amount: TAX_MESSAGES.divisionRange });
    expect(issuesOf((await post({ taxComputation: 'percentage_of_price_tax_included', amount: -100 })).body)).toEqual({ amount: TAX_MESSAGES.divisionRange });
    expect((await post({ taxComputation: 'fixed', amount: -2.5 })).status).toBe(201); // a fixed withholding
    const missing = await org.admin.post('/api/taxes/add-tax', {});
    expect(issuesOf(missing.body)).toMatchObject({
      name: 'Tax Name is required',
      scope: 'Scope is required',
      taxComputation: 'Tax Computation type is required',
      isPriceIncluded: 'Price Included selection is required',
    });
    expect(issuesOf((await post({ taxComputation: 'percentage_of_price' })).body)).toEqual({ amount: 'Amount is required' });
    expect(issuesOf((await post({ taxComputation: 'group', children: [] })).body)).toEqual({
      children: 'Child Taxes are required when Tax Computation is Group',
    });
  });

  it("another organisation's tax is a 404 on update and delete and stays as it was", async () => {
    const { org } = await setup('A');
    const other = await createOrg(t, 'B');
    const tax = await addTax(org, { taxComputation: 'percentage_of_price', amount: 6, sequence: 3, includeBaseAmount: true });
    const body = {
      name: 'Taken',
      scope: 'sales',
      taxComputation: 'percentage_of_price',
      amount: 1,
      isPriceIncluded: false,
      sequence: 0,
      includeBaseAmount: false,
    };
    expect((await other.admin.put(`/api/taxes/update-tax/${tax.id}`, body)).status).toBe(404);
    expect((await other.admin.del(`/api/taxes/delete-tax/${tax.id}`)).status).toBe(404);
    const list = await org.admin.get('/api/taxes/get-taxes');
    expect(list.body.taxes.find((x: { id: number }) => x.id === tax.id)).toMatchObject({ amount: 6, sequence: 3, includeBaseAmount: true });
  });
});

describe("documents compute with Odoo's figures", () => {
  it('a withholding −20 %, then 4 % affecting the base of 22 % (Odoo random_case_8): 50.00 -> 53.44', async () => {
    const { org, r } = await setup();
    const g = await group(org, [
      ['percentage_of_price', 22, { seq: 3 }],
      ['percentage_of_price', -20, { seq: 1 }],
      ['percentage_of_price', 4, { seq: 2, ib: true }],
    ]);
    const res = await quote(org, r, [{ price: 50, taxId: g.id }]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.quotation.totals).toEqual({ rawSubtotal: 50, totalDiscount: 0, untaxed: 50, totalTax: 3.44, total: 53.44 });
  });

  it('division taxes in a group share one total (Odoo l10n_br): 32.33 -> 48.00; price-included ones take price × rate', async () => {
    const { org, r } = await setup();
    const rates = [5, 3, 0.65, 9, 15];
    const excluded = await group(
      org,
      rates.map((a) => ['percentage_of_price_tax_included', a] as [string, number]),
    );
    const res = await quote(org, r, [{ price: 32.33, taxId: excluded.id }]);
    expect(res.body.quotation.totals).toMatchObject({ untaxed: 32.33, totalTax: 15.67, total: 48 });
    const included = await group(
      org,
      rates.map((a) => ['percentage_of_price_tax_included', a, { incl: true }] as [string, number, { incl: boolean }]),
    );
    const inc = await quote(org, r, [{ price: 48, taxId: included.id }]);
    // 2.40 + 1.44 + 0.31 + 4.32 + 7.20 = 15.67 taken out of 48.00
    expect(inc.body.quotation.totals).toMatchObject({ untaxed: 32.33, totalTax: 15.67, total: 48 });
    expect(inc.body.quotation.serviceDetails[0]).toMatchObject({ taxAmount: 15.67, subtotal: 48 });
  });

  it('each child of a group is rounded on its own per line (Odoo l10n_in): 100 at 6 % affecting, 6 % affecting, 3 % -> 115.73', async () => {
    const { org, r } = await setup();
    const g = await group(org, [
      ['percentage_of_price', 6, { seq: 1, ib: true }],
      ['percentage_of_price', 6, { seq: 2, ib: true }],
      ['percentage_of_price', 3, { seq: 3 }],
    ]);
    const res = await quote(org, r, [{ price: 100, taxId: g.id }]);
    expect(res.body.quotation.totals).toMatchObject({ totalTax: 15.73, total: 115.73 });
  });

  it("the organisation's rounding: per line by default, globally when chosen (9 lines of 1.10 at 5 %: 0.54 or 0.50)", async () => {
    const { org, r } = await setup();
    const lines = Array.from({ length: 9 }, () => ({ price: 1.1, taxId: r.vat10.id }));
    const vat5 = await addTax(org, { taxComputation: 'percentage_of_price', amount: 5 });
    for (const l of lines) l.taxId = vat5.id;
    expect((await org.admin.get('/api/company/get-company-data')).body.company.taxRounding).toBe('round_per_line');
    const perLine = await quote(org, r, lines);
    expect(perLine.body.quotation.totals).toMatchObject({ untaxed: 9.9, totalTax: 0.54, total: 10.44 });

    const bad = await org.admin.put(`/api/company/update-company/${org.orgId}`, { organization: `Tax ${org.subdomain}`, taxRounding: 'sometimes' });
    expect(issuesOf(bad.body)).toEqual({ taxRounding: TAX_ROUNDING_MESSAGE });
    const set = await org.admin.put(`/api/company/update-company/${org.orgId}`, { organization: `Tax ${org.subdomain}`, taxRounding: 'round_globally' });
    expect(set.status).toBe(200);
    expect(set.body.company.taxRounding).toBe('round_globally');
    expect((await org.admin.get('/api/user/get-app-data')).body.company.taxRounding).toBe('round_globally');

    const globally = await quote(org, r, lines);
    // 9 × 0.055 = 0.495 -> 0.50 once; the lines show their own rounded figures (0.06, 1.16)
    expect(globally.body.quotation.totals).toMatchObject({ totalTax: 0.5, total: 10.44, untaxed: 9.94 });
    expect(globally.body.quotation.serviceDetails[0]).toMatchObject({ taxAmount: 0.06, subtotal: 1.16 });
    // the earlier document keeps its stored figures until it is saved again
    expect((await org.admin.get(`/api/quotations/get-quotation/${perLine.body.quotation.id}`)).body.quotation.totals.totalTax).toBe(0.54);
  });
});
