import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { adminGet, createOrg, useTestApp, type TestOrg } from '../../server/test/harness';
import { withTenant } from '../../server/db/client';
import { purchaseOrders, quotationLines, quotations } from '../../server/db/schema';
import { CURRENCY_CHANGE_MESSAGE } from '../organization/organization.service';
import { pdfText } from './document-pdf.service';
import { commercialRows, inDays, type CommercialRows } from './test-fixtures';
import { masterRows } from '../assets/test-fixtures';
import { badRequestIssues, issuesOf } from '../../server/test/issues-of';

/** Decision 035: money in the organisation currency's own minor units (JPY 0 decimals, USD 2, KWD 3). */

const t = useTestApp();

async function orgIn(currency: string): Promise<{ org: TestOrg; r: CommercialRows }> {
  const org = await createOrg(t, `Money ${currency}`);
  // a new organisation has no money on file: any currency may be chosen
  const res = await org.admin.put(`/api/company/update-company/${org.orgId}`, { organization: `Money ${currency} ${org.subdomain}`, currency });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.company.currency).toBe(currency);
  return { org, r: await commercialRows(t, org.orgId) };
}

const quotation = (r: CommercialRows, price: number | string, quantity = 3) => ({
  overview: { customer: r.customer.id, salesPerson: 1, quotationDate: inDays(0), expirationDate: inDays(30) },
  serviceDetails: [{ serviceId: r.service.id, quantity, price, discount: 0, taxId: r.vat10.id }],
  partDetails: [],
});

const purchaseOrder = (r: CommercialRows, price: number | string) => ({
  overview: { vendor: r.vendor.id, requester: 1, purchaseOrderDate: inDays(0) },
  serviceDetails: [],
  partDetails: [{ partId: r.part.id, quantity: 2, unitPrice: price, discount: 0, taxId: r.purchase5.id }],
});

const storedQuotation = (orgId: number, id: number) =>
  withTenant(t.database.db, orgId, async (tx) => {
    const [doc] = await tx
      .select()
      .from(quotations)
      .where(and(eq(quotations.orgId, orgId), eq(quotations.id, id)));
    const lines = await tx
      .select()
      .from(quotationLines)
      .where(and(eq(quotationLines.orgId, orgId), eq(quotationLines.quotationId, id)));
    return { doc, lines };
  });

async function pdfOf(org: TestOrg, id: number) {
  const res = await adminGet(t, org, `/api/quotations/get-quotation-pdf/${id}`);
  expect(res.statusCode).toBe(200);
  return pdfText(res.rawPayload);
}

const partBody = (r: CommercialRows, salesPrice: number | string) => ({
  name: 'Seal kit',
  type: 'stockable',
  categoryId: r.category.id,
  salesPrice,
  unitOfMeasureId: r.each.id,
  purchaseUnitOfMeasureId: r.box.id,
});

describe('money in the currency minor units', () => {
  it('JPY: whole yen are stored as they are, a price with decimals is refused with a field message', async () => {
    const { org, r } = await orgIn('JPY');
    const refused = await org.admin.post('/api/quotations/add-quotation', quotation(r, 1999.5));
    expect(badRequestIssues(refused)).toEqual({ 'serviceDetails.0.unitPrice': 'JPY amounts have no decimals' });

    const res = await org.admin.post('/api/quotations/add-quotation', quotation(r, 1999));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // 3 × ¥1,999 = ¥5,997; 10 % = 599.7 -> ¥600; total ¥6,597
    expect(res.body.quotation.totals).toEqual({ rawSubtotal: 5997, totalDiscount: 0, untaxed: 5997, totalTax: 600, total: 6597 });
    expect(res.body.quotation.serviceDetails[0]).toMatchObject({ unitPrice: 1999, taxAmount: 600, subtotal: 6597 });
    const stored = await storedQuotation(org.orgId, res.body.quotation.id);
    expect(Number(stored.doc.total)).toBe(6597);
    expect(Number(stored.lines[0].unitPrice)).toBe(1999);

    const text = await pdfOf(org, res.body.quotation.id);
    expect(text).toContain('6,597');
    expect(text).not.toContain('6,597.00');

    const part = await org.admin.post('/api/parts/add-part', partBody(r, 12.5));
    expect(badRequestIssues(part)).toEqual({ salesPrice: 'JPY amounts have no decimals' });
    expect((await org.admin.post('/api/parts/add-part', partBody(r, 980))).status).toBe(201);
    const m = await masterRows(t, org.orgId, 'M');
    const station = await org.admin.post('/api/workstations/add-workstation', { code: 'ASM', name: 'Assembly Line', city: 'Osaka', teamId: m.team.id });
    const stations = [{ workStationId: station.body.workStation.id, operation: 'Inspect', timeRequired: '01:00', order: 0 }];
    const service = await org.admin.post('/api/services/add-service', { title: 'Inspection', price: '1500.25', workStations: stations });
    expect(badRequestIssues(service)).toEqual({ price: 'JPY amounts have no decimals' });
    expect((await org.admin.post('/api/services/add-service', { title: 'Inspection', price: '1500', workStations: stations })).body.service.price).toBe(1500);
    const fixedTax = await org.admin.post('/api/taxes/add-tax', {
      name: 'Stamp',
      scope: 'sales',
      taxComputation: 'fixed',
      amount: 0.5,
      isPriceIncluded: false,
    });
    expect(badRequestIssues(fixedTax)).toEqual({ amount: 'JPY amounts have no decimals' });
  });

  it('KWD: three decimals are kept (fils), a fourth is refused; purchase orders too', async () => {
    const { org, r } = await orgIn('KWD');
    const part = await org.admin.post('/api/parts/add-part', partBody(r, 1.235));
    expect(part.status, JSON.stringify(part.body)).toBe(201);
    expect(part.body.part.salesPrice).toBe(1.235);
    const tooFine = await org.admin.post('/api/parts/add-part', partBody(r, '1.2345'));
    expect(issuesOf(tooFine.body)).toEqual({ salesPrice: 'KWD amounts have at most 3 decimals' });

    const res = await org.admin.post('/api/purchase-orders/add-purchase-order', purchaseOrder(r, 1.235));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // 2 × 1.235 = 2.470; 5 % = 0.1235 -> 0.124 (half-up in fils); total 2.594
    expect(res.body.purchaseOrder.totals).toEqual({ rawSubtotal: 2.47, totalDiscount: 0, untaxed: 2.47, totalTax: 0.124, total: 2.594 });
    const [stored] = await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .select({ total: purchaseOrders.total })
        .from(purchaseOrders)
        .where(and(eq(purchaseOrders.orgId, org.orgId), eq(purchaseOrders.id, res.body.purchaseOrder.id))),
    );
    expect(Number(stored.total)).toBe(2594);
    const refused = await org.admin.post('/api/purchase-orders/add-purchase-order', purchaseOrder(r, 1.2345));
    expect(issuesOf(refused.body)).toEqual({ 'partDetails.0.unitPrice': 'KWD amounts have at most 3 decimals' });

    const q = await org.admin.post('/api/quotations/add-quotation', quotation(r, '0.125', 1));
    expect(q.body.quotation.totals).toMatchObject({ untaxed: 0.125, totalTax: 0.013, total: 0.138 });
    expect(await pdfOf(org, q.body.quotation.id)).toContain('0.138');
  });

  it('USD: cents as before; a third decimal is refused', async () => {
    const { org, r } = await orgIn('USD');
    const refused = await org.admin.post('/api/quotations/add-quotation', quotation(r, 12.345));
    expect(issuesOf(refused.body)).toEqual({ 'serviceDetails.0.unitPrice': 'USD amounts have at most 2 decimals' });
    const res = await org.admin.post('/api/quotations/add-quotation', quotation(r, 12.34));
    // 3 × 12.34 = 37.02; 10 % = 3.702 -> 3.70
    expect(res.body.quotation.totals).toEqual({ rawSubtotal: 37.02, totalDiscount: 0, untaxed: 37.02, totalTax: 3.7, total: 40.72 });
    expect(Number((await storedQuotation(org.orgId, res.body.quotation.id)).doc.total)).toBe(4072);
    const po = await org.admin.post('/api/purchase-orders/add-purchase-order', purchaseOrder(r, 9.99));
    expect(po.body.purchaseOrder.totals).toMatchObject({ untaxed: 19.98, totalTax: 1, total: 20.98 });
  });

  it('the currency changes freely to one with the same decimals, and not to other decimals once money is on file', async () => {
    const { org } = await orgIn('USD'); // commercialRows put parts, services and fixed taxes on file
    const change = (currency: string) => org.admin.put(`/api/company/update-company/${org.orgId}`, { organization: `Money ${org.subdomain}`, currency });
    const toJpy = await change('JPY');
    expect(badRequestIssues(toJpy)).toEqual({ currency: CURRENCY_CHANGE_MESSAGE });
    expect((await change('KWD')).status).toBe(400);
    const toEur = await change('EUR');
    expect(toEur.status).toBe(200);
    expect(toEur.body.company.currency).toBe('EUR');
    expect((await org.admin.get('/api/company/get-company-data')).body.company.currency).toBe('EUR');

    // an organisation with nothing priced yet may move between any currencies
    const fresh = await createOrg(t, 'Fresh');
    for (const currency of ['JPY', 'KWD', 'USD']) {
      const res = await fresh.admin.put(`/api/company/update-company/${fresh.orgId}`, { organization: `Fresh ${fresh.subdomain}`, currency });
      expect(res.status, currency).toBe(200);
    }
  });

  it("another organisation's money settings and documents stay its own", async () => {
    const a = await orgIn('JPY');
    const b = await createOrg(t, 'Other');
    const res = await a.org.admin.post('/api/quotations/add-quotation', quotation(a.r, 1000));
    expect((await b.admin.get(`/api/quotations/get-quotation/${res.body.quotation.id}`)).status).toBe(404);
    expect((await b.admin.put(`/api/company/update-company/${a.org.orgId}`, { organization: 'Taken', currency: 'USD' })).status).toBe(404);
    expect((await a.org.admin.get('/api/company/get-company-data')).body.company.currency).toBe('JPY');
  });
});

describe('the migration to currency minor units (drizzle/0024)', () => {
  const migration = () => {
    const dir = join(process.cwd(), 'drizzle');
    const file = readdirSync(dir).find((f) => f.includes('money_in_currency_minor_units'))!;
    return readFileSync(join(dir, file), 'utf8');
  };

  it('rescales JPY and KWD documents stored in hundredths and leaves USD ones as they were', async () => {
    const jpy = await orgIn('JPY');
    const kwd = await orgIn('KWD');
    const usd = await orgIn('USD');
    const qJpy = (await jpy.org.admin.post('/api/quotations/add-quotation', quotation(jpy.r, 1999))).body.quotation;
    const qKwd = (await kwd.org.admin.post('/api/quotations/add-quotation', quotation(kwd.r, 1.2))).body.quotation;
    const qUsd = (await usd.org.admin.post('/api/quotations/add-quotation', quotation(usd.r, 12.34))).body.quotation;
    const ids = [jpy.org.orgId, kwd.org.orgId, usd.org.orgId];

    // As the old code stored them: hundredths for every currency (yen × 100, fils ÷ 10; USD unchanged).
    const db = t.database.db;
    const scale = async (orgId: number, factor: number) => {
      await db.execute(
        sql.raw(
          `update quotation_lines set unit_price = unit_price * ${factor}, tax_amount = tax_amount * ${factor}, subtotal = subtotal * ${factor} where org_id = ${orgId}`,
        ),
      );
      await db.execute(
        sql.raw(
          `update quotations set raw_subtotal = raw_subtotal * ${factor}, total_discount = total_discount * ${factor}, untaxed = untaxed * ${factor}, total_tax = total_tax * ${factor}, total = total * ${factor} where org_id = ${orgId}`,
        ),
      );
    };
    // The tests' connection is the owner (a superuser), which row-level security does not wall.
    await scale(jpy.org.orgId, 100);
    await scale(kwd.org.orgId, 0.1);
    // a legacy yen price with a fraction (¥1,999.50 was accepted before): rounds to ¥2,000, and the totals follow the lines
    await db.execute(sql.raw(`update quotation_lines set unit_price = 199950 where org_id = ${jpy.org.orgId}`));
    expect((await jpy.org.admin.get(`/api/quotations/get-quotation/${qJpy.id}`)).body.quotation.totals.total).not.toBe(6597);

    // Run the migration for these organisations only (on PostgreSQL the test database holds every file's).
    const text = migration().replace(/FROM organizations\n/, `FROM organizations WHERE id IN (${ids.join(',')})\n`);
    expect(text).toContain(`WHERE id IN (${ids.join(',')})`);
    for (const statement of text.split('--> statement-breakpoint')) if (statement.trim()) await db.execute(sql.raw(statement));

    const after = (await jpy.org.admin.get(`/api/quotations/get-quotation/${qJpy.id}`)).body.quotation;
    expect(after.serviceDetails[0]).toMatchObject({ unitPrice: 2000, taxAmount: 600, subtotal: 6597 });
    expect(after.totals).toMatchObject({ rawSubtotal: 5997, totalTax: 600, total: 6597, untaxed: 5997 });
    expect((await kwd.org.admin.get(`/api/quotations/get-quotation/${qKwd.id}`)).body.quotation.totals).toEqual(qKwd.totals);
    expect((await usd.org.admin.get(`/api/quotations/get-quotation/${qUsd.id}`)).body.quotation.totals).toEqual(qUsd.totals);
    expect(qUsd.totals.total).toBe(40.72);
  });
});
