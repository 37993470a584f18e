import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { adminGet, createOrg, useTestApp, type TestOrg } from '../../server/test/harness';
import { orgRows } from '../../server/test/sql';
import { withTenant } from '../../server/db/client';
import { quotationLines, quotations, services } from '../../server/db/schema';
import { computeTotals, type TaxRule } from '../../shared/tax';
import { pdfText } from '../commercial-documents/document-pdf.service';
import { solidImage } from '../../server/test/images';
import { commercialRows, inDays, type CommercialRows } from '../commercial-documents/test-fixtures';
import { badRequestIssues, issuesOf } from '../../server/test/issues-of';

const t = useTestApp();

const base = '/api/quotations';

function body(r: CommercialRows, extra: Record<string, unknown> = {}) {
  return {
    overview: { customer: r.customer.id, salesPerson: 1, quotationDate: inDays(0), expirationDate: inDays(30), note: 'Valid 30 days', ...extra },
    serviceDetails: [
      // the client's taxAmount and subtotal are ignored
      { serviceId: r.service.id, serviceName: 'Pump overhaul', quantity: 2, price: 120, discount: 10, taxId: r.group.id, taxAmount: 999, subtotal: 1 },
      { serviceId: r.service2.id, serviceName: 'Alignment', quantity: 1, price: 80, discount: 0, taxId: r.incl15.id },
    ],
    partDetails: [
      { partId: r.part.id, partName: 'Bearing', quantity: 3, salesPrice: '12.99', discount: 0, taxId: r.div8.id, uom: r.each.id },
      { partId: r.part2.id, quantity: 5, discount: 100 },
    ],
  };
}

/** The same lines through the shared engine, in cents. */
function expectedTotals(r: CommercialRows) {
  const rule = (x: { taxComputation: TaxRule['taxComputation']; amount: number | null; isPriceIncluded: boolean }): TaxRule => ({
    taxComputation: x.taxComputation,
    amount: x.amount === null ? null : Number(x.amount),
    isPriceIncluded: x.isPriceIncluded,
  });
  return computeTotals(
    [
      { quantity: 2, unitPrice: 12000, discount: 10, tax: { ...rule(r.group), children: [rule(r.vat10), rule(r.eco)] } },
      { quantity: 1, unitPrice: 8000, discount: 0, tax: rule(r.incl15) },
      { quantity: 3, unitPrice: 1299, discount: 0, tax: rule(r.div8) },
      { quantity: 5, unitPrice: 840, discount: 100 },
    ],
    { digits: 2 },
  );
}

async function setup(name = 'Org'): Promise<{ org: TestOrg; r: CommercialRows }> {
  const org = await createOrg(t, name);
  const r = await commercialRows(t, org.orgId);
  return { org, r };
}

describe('quotations', () => {
  it('adds a quotation: the server computes every figure with the shared engine and stores the totals', async () => {
    const { org, r } = await setup();
    const res = await org.admin.post(`${base}/add-quotation`, body(r));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe('Quotation added successfully');
    const q = res.body.quotation;
    expect(q).toMatchObject({
      id: 1,
      number: 'Q-0001',
      quotationId: 'Q-0001',
      status: 'draft',
      customerId: r.customer.id,
      CustomerVendor: { name: 'Acme Foods A' },
    });
    expect(q.salesperson).toMatchObject({ id: 1 });
    const exp = expectedTotals(r);
    expect(exp.total).toBe(36296);
    expect(q.total).toBe(362.96);
    expect(q.totals).toEqual({ rawSubtotal: 400.97, totalDiscount: 66, untaxed: 324.54, totalTax: 38.42, total: 362.96 });
    expect(q.totals.total * 100).toBeCloseTo(exp.total, 6);
    expect(q.serviceDetails.map((l: { taxAmount: number; subtotal: number }) => [l.taxAmount, l.subtotal])).toEqual([
      [24.6, 240.6],
      [10.43, 80],
    ]);
    expect(q.partDetails[0]).toMatchObject({
      partId: r.part.id,
      partName: 'Bearing',
      quantity: 3,
      salesPrice: 12.99,
      taxAmount: 3.39,
      subtotal: 42.36,
      uom: r.each.id,
    });
    // the second part took its name and price from the catalogue, and the part's unit
    expect(q.partDetails[1]).toMatchObject({ name: 'V-belt A42 A', unitPrice: 8.4, subtotal: 0, uomId: r.each.id });
    expect(res.body.quotations).toHaveLength(1);
    expect(res.body.pagination).toEqual({ totalRecords: 1, currentPage: 1, totalPages: 1 });

    const [stored] = await withTenant(t.database.db, org.orgId, (tx) => tx.select().from(quotations).where(eq(quotations.orgId, org.orgId)));
    expect(stored).toMatchObject({
      rawSubtotal: exp.rawSubtotal,
      totalDiscount: exp.totalDiscount,
      untaxed: exp.untaxed,
      totalTax: exp.totalTax,
      total: exp.total,
    });
    const lines = await orgRows(t.database.db, org.orgId, quotationLines, eq(quotationLines.quotationId, 1));
    expect(lines.map((l) => l.subtotal).sort((a, b) => a - b)).toEqual(exp.lines.map((l) => l.subtotal).sort((a, b) => a - b));
  });

  it('gets one with its service and part lines (services, parts)', async () => {
    const { org, r } = await setup();
    await org.admin.post(`${base}/add-quotation`, body(r));
    const res = await org.admin.get(`${base}/get-quotation/1`);
    expect(res.status).toBe(200);
    expect(res.body.services).toHaveLength(2);
    expect(res.body.parts).toHaveLength(2);
    expect(res.body.services[0]).toMatchObject({
      serviceId: r.service.id,
      serviceName: 'Pump overhaul',
      quantity: 2,
      price: 120,
      discount: 10,
      taxId: r.group.id,
      Tax: { name: 'VAT + Eco A' },
    });
    expect(res.body.quotation).toMatchObject({ number: 'Q-0001', total: 362.96, note: 'Valid 30 days' });
    expect(res.body.quotation.serviceDetails).toEqual(res.body.services);
    expect((await org.admin.get(`${base}/get-quotation/7`)).status).toBe(404);
  });

  it("gives the spec's messages", async () => {
    const { org, r } = await setup();
    const empty = await org.admin.post(`${base}/add-quotation`, { overview: {} });
    expect(badRequestIssues(empty)).toMatchObject({
      customerId: 'Customer is required',
      salesPersonId: 'Sales Person is required',
      expirationDate: 'Expiration date is required',
      quotationDate: 'Quotation date is required',
    });
    const past = await org.admin.post(`${base}/add-quotation`, body(r, { expirationDate: inDays(-1) }));
    expect(issuesOf(past.body)).toEqual({ expirationDate: 'Expiration date must be in the future' });
    const invalid = await org.admin.post(`${base}/add-quotation`, body(r, { expirationDate: 'soon' }));
    expect(issuesOf(invalid.body)).toEqual({ expirationDate: 'Expiration date must be a valid date' });
    const status = await org.admin.post(`${base}/add-quotation`, body(r, { status: 'approved' }));
    expect(issuesOf(status.body)).toEqual({ status: 'Invalid status selected' });
    const lines = await org.admin.post(`${base}/add-quotation`, {
      ...body(r),
      serviceDetails: [{ serviceId: r.service.id, serviceName: 'x', quantity: 0, price: -5, discount: -1, taxAmount: -1, subtotal: -2 }],
      partDetails: [{ partId: r.part.id, quantity: 0.5, discount: 101 }],
    });
    expect(issuesOf(lines.body)).toEqual({
      'serviceDetails.0.quantity': 'Quantity must be at least 1',
      'serviceDetails.0.unitPrice': 'Price must be a positive number',
      'serviceDetails.0.discount': 'Discount cannot be negative',
      'serviceDetails.0.taxAmount': 'Tax amount cannot be negative',
      'serviceDetails.0.subtotal': 'Subtotal cannot be negative',
      'partDetails.0.quantity': 'Quantity must be at least 1',
      'partDetails.0.discount': 'Discount cannot be more than 100',
    });
    const noService = await org.admin.post(`${base}/add-quotation`, { ...body(r), serviceDetails: [{ quantity: 1, price: 3 }] });
    expect(issuesOf(noService.body)).toEqual({ 'serviceDetails.0.serviceId': 'Service is required' });
    const blankName = await org.admin.post(`${base}/add-quotation`, {
      ...body(r),
      serviceDetails: [{ serviceId: r.service.id, serviceName: ' ', quantity: 1, price: 3 }],
    });
    expect(issuesOf(blankName.body)).toEqual({ 'serviceDetails.0.name': 'Name is required' });
    const unknownKey = await org.admin.post(`${base}/add-quotation`, { ...body(r), orgId: 5 });
    expect(unknownKey.status).toBe(400);
  });

  it('refuses a purchase tax on a quotation line, and unknown references', async () => {
    const { org, r } = await setup();
    const wrongScope = await org.admin.post(`${base}/add-quotation`, {
      ...body(r),
      serviceDetails: [{ serviceId: r.service.id, quantity: 1, taxId: r.purchase5.id }],
    });
    expect(wrongScope.status).toBe(400);
    expect(wrongScope.body).toMatchObject({
      error: 'Quotation lines take sales taxes',
      issues: [{ path: 'serviceDetails.0.taxId', message: 'Quotation lines take sales taxes' }],
    });
    const noTax = await org.admin.post(`${base}/add-quotation`, { ...body(r), partDetails: [{ partId: r.part.id, quantity: 1, taxId: 99 }] });
    expect(noTax.body).toMatchObject({ error: 'Tax not found' });
    const noPart = await org.admin.post(`${base}/add-quotation`, { ...body(r), partDetails: [{ partId: 99, quantity: 1 }] });
    expect(noPart.body).toMatchObject({ error: 'Part not found' });
    const noCustomer = await org.admin.post(`${base}/add-quotation`, body(r, { customer: 99 }));
    expect(noCustomer.body).toMatchObject({ error: 'Customer not found' });
    const noPerson = await org.admin.post(`${base}/add-quotation`, body(r, { salesPerson: 99 }));
    expect(noPerson.body).toMatchObject({ error: 'Sales Person not found' });
  });

  it('takes a customer, never a vendor, as the customer (field message), on add and on update', async () => {
    const { org, r } = await setup();
    const vendor = await org.admin.post(`${base}/add-quotation`, body(r, { customer: r.vendor.id }));
    expect(vendor.status).toBe(400);
    expect(vendor.body).toEqual({
      error: 'The customer must be a customer, not a vendor',
      issues: [{ path: 'customerId', message: 'The customer must be a customer, not a vendor' }],
    });
    expect((await org.admin.get(`${base}/get-quotations`)).body.pagination.totalRecords).toBe(0);
    const ok = await org.admin.post(`${base}/add-quotation`, body(r));
    expect(ok.status).toBe(201);
    const id = ok.body.quotation.id;
    const update = await org.admin.put(`${base}/update-quotation/${id}`, body(r, { customer: r.vendor.id }));
    expect(update.status).toBe(400);
    expect(update.body.issues).toEqual([{ path: 'customerId', message: 'The customer must be a customer, not a vendor' }]);
    expect((await org.admin.get(`${base}/get-quotation/${id}`)).body.quotation.customerId).toBe(r.customer.id);
  });

  it("refuses another organisation's customer, tax and part", async () => {
    const a = await setup('Alpha');
    const b = await createOrg(t, 'Beta');
    // B has one customer (id 1), one service (id 1) and no parts or taxes: A's ids exist only in A
    await b.admin.post('/api/customer-vendors/add-customer-vendor', { name: 'Beta Buyer', email: 'b@beta.example.com', type: 'customer', category: 'company' });
    await withTenant(t.database.db, b.orgId, (tx) => tx.insert(services).values({ orgId: b.orgId, title: 'Beta service', price: 10 }));
    const good = {
      overview: { customer: 1, salesPerson: 1, quotationDate: inDays(0), expirationDate: inDays(9) },
      serviceDetails: [{ serviceId: 1, quantity: 1 }],
      partDetails: [],
    };
    expect((await b.admin.post(`${base}/add-quotation`, good)).status).toBe(201);
    const foreignCustomer = await b.admin.post(`${base}/add-quotation`, { ...good, overview: { ...good.overview, customer: a.r.vendor.id } });
    expect(foreignCustomer.body).toMatchObject({ error: 'Customer not found', issues: [{ path: 'customerId' }] });
    const foreignPart = await b.admin.post(`${base}/add-quotation`, { ...good, partDetails: [{ partId: a.r.part.id, quantity: 1, price: 5 }] });
    expect(foreignPart.body).toMatchObject({ error: 'Part not found' });
    const foreignService = await b.admin.post(`${base}/add-quotation`, { ...good, serviceDetails: [{ serviceId: a.r.service2.id, quantity: 1, price: 5 }] });
    expect(foreignService.body).toMatchObject({ error: 'Service not found' });
    const foreignTax = await b.admin.post(`${base}/add-quotation`, { ...good, serviceDetails: [{ serviceId: 1, quantity: 1, taxId: a.r.group.id }] });
    expect(foreignTax.body).toMatchObject({ error: 'Tax not found', issues: [{ path: 'serviceDetails.0.taxId' }] });
    expect((await b.admin.get(`${base}/get-quotations`)).body.pagination.totalRecords).toBe(1);
  });

  it('lists with paging and filters (status, title/name), and options', async () => {
    const { org, r } = await setup();
    for (let i = 0; i < 12; i++) {
      const res = await org.admin.post(`${base}/add-quotation`, body(r, { status: i % 4 === 0 ? 'quotationSent' : 'draft' }));
      expect(res.status).toBe(201);
    }
    const page2 = await org.admin.get(`${base}/get-quotations?page=2&pageSize=10`);
    expect(page2.body.quotations).toHaveLength(2);
    expect(page2.body.pagination).toEqual({ totalRecords: 12, currentPage: 2, totalPages: 2 });
    expect(page2.body.quotations[0]).toMatchObject({ number: 'Q-0002', CustomerVendor: { name: 'Acme Foods A' }, total: 362.96 });
    expect((await org.admin.get(`${base}/get-quotations?status=quotationSent`)).body.pagination.totalRecords).toBe(3);
    expect((await org.admin.get(`${base}/get-quotations?status=quotationSent,draft`)).body.pagination.totalRecords).toBe(12);
    expect((await org.admin.get(`${base}/get-quotations?title=Q-0012`)).body.quotations.map((q: { id: number }) => q.id)).toEqual([12]);
    expect((await org.admin.get(`${base}/get-quotations?name=acme`)).body.pagination.totalRecords).toBe(12);
    expect((await org.admin.get(`${base}/get-quotations?name=nobody`)).body.pagination.totalRecords).toBe(0);
    expect((await org.admin.get(`${base}/get-quotations?status=approved`)).status).toBe(400);
    expect((await org.admin.get(`${base}/get-quotations?pageSize=20`)).status).toBe(400);
    const options = await org.admin.get(`${base}/get-quotation-options`);
    expect(options.body).toHaveLength(10);
    expect(options.body[0]).toMatchObject({ value: 12, label: 'Q-0012 - Acme Foods A' });
    expect((await org.admin.get(`${base}/get-quotation-options?name=Q-0003`)).body.map((o: { value: number }) => o.value)).toEqual([3]);
  });

  it('updates: lines are replaced and the totals recomputed; the history records it', async () => {
    const { org, r } = await setup();
    await org.admin.post(`${base}/add-quotation`, body(r));
    const res = await org.admin.put(`${base}/update-quotation/1`, {
      overview: { customer: r.customer.id, salesPerson: 1, quotationDate: inDays(0), expirationDate: inDays(10), status: 'quotation' },
      serviceDetails: [{ serviceId: r.service.id, quantity: 1, price: 100, discount: 0, taxId: r.vat10.id }],
      partDetails: [],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('Quotation updated successfully');
    expect(res.body.quotation).toMatchObject({
      status: 'quotation',
      total: 110,
      totals: { rawSubtotal: 100, totalDiscount: 0, untaxed: 100, totalTax: 10, total: 110 },
    });
    expect(res.body.quotation.partDetails).toEqual([]);
    expect(res.body.quotations[0].total).toBe(110);
    expect(res.body.pagination.totalRecords).toBe(1);
    const history = await org.admin.get('/api/activities/quotation/1');
    expect(history.body.activities.map((a: { action: string }) => a.action)).toEqual(['updated', 'created']);
    expect(history.body.activities[0].changes.total).toEqual({ from: 362.96, to: 110 });
    expect((await org.admin.put(`${base}/update-quotation/5`, body(r))).status).toBe(404);
  });

  it('changes the status through its own call (all five values)', async () => {
    const { org, r } = await setup();
    await org.admin.post(`${base}/add-quotation`, body(r));
    const manager = await org.as('manager');
    for (const status of ['sendForApproval', 'quotation', 'quotationSent', 'salesOrder', 'draft']) {
      const res = await manager.put(`${base}/update-quotation-status/1`, { status });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ message: 'Quotation status updated successfully', status, quotation: { id: 1, status } });
    }
    expect((await org.admin.put(`${base}/update-quotation-status/1`, { status: 'Sales Order' })).body.status).toBe('salesOrder');
    const bad = await org.admin.put(`${base}/update-quotation-status/1`, { status: 'won' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid status selected');
    expect((await org.admin.put(`${base}/update-quotation-status/3`, { status: 'draft' })).status).toBe(404);
    const history = await org.admin.get('/api/activities/quotation/1');
    expect(history.body.activities.filter((a: { action: string }) => a.action === 'status')).toHaveLength(6);
  });

  it('lets only managers change the status (decision 012): a worker gets 403 and a worker form keeps the status', async () => {
    const { org, r } = await setup();
    await org.admin.post(`${base}/add-quotation`, body(r, { status: 'quotation' }));
    const worker = await org.as('worker');
    const refused = await worker.put(`${base}/update-quotation-status/1`, { status: 'salesOrder' });
    expect(refused.status).toBe(403);
    // A worker's add and update are allowed, but the status they carry is not theirs to set.
    const added = await worker.post(`${base}/add-quotation`, body(r, { status: 'salesOrder' }));
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.quotation.status).toBe('draft');
    const updated = await worker.put(`${base}/update-quotation/1`, body(r, { status: 'salesOrder' }));
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect((await org.admin.get(`${base}/get-quotation/1`)).body.quotation.status).toBe('quotation');
    expect((await org.admin.put(`${base}/update-quotation-status/1`, { status: 'salesOrder' })).status).toBe(200);
  });

  it('deletes (managers only) and returns the refreshed list', async () => {
    const { org, r } = await setup();
    await org.admin.post(`${base}/add-quotation`, body(r));
    await org.admin.post(`${base}/add-quotation`, body(r));
    const worker = await org.as('worker');
    expect((await worker.del(`${base}/delete-quotation/1`)).status).toBe(403);
    const res = await org.admin.del(`${base}/delete-quotation/1?pageSize=25`);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Quotation deleted successfully');
    expect(res.body.quotations.map((q: { id: number }) => q.id)).toEqual([2]);
    expect((await org.admin.get(`${base}/get-quotation/1`)).status).toBe(404);
    // the customer is now used by quotation 2: it cannot be deleted
    expect((await org.admin.del(`/api/customer-vendors/delete-customer-vendor/${r.customer.id}`)).status).toBe(409);
  });

  it('prints a PDF with the company, the lines and the same total', async () => {
    const { org, r } = await setup();
    await org.admin.post(`${base}/add-quotation`, body(r));
    const res = await adminGet(t, org, `${base}/get-quotation-pdf/1`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('Q-0001.pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(res.rawPayload);
    for (const s of [
      'Quotation',
      'Q-0001',
      'Acme Foods A',
      'Pump overhaul',
      'Bearing',
      'VAT + Eco A',
      '$400.97',
      '$66.00',
      '$324.54',
      '$38.42',
      '$362.96',
      'Total price',
    ]) {
      expect(text).toContain(s);
    }
    expect(text).toContain('Org ');
    const missing = await adminGet(t, org, `${base}/get-quotation-pdf/9`);
    expect(missing.statusCode).toBe(404);
  });

  it('isolation: another organisation gets 404 on every call by id and changes nothing', async () => {
    const a = await setup('Alpha');
    const b = await setup('Beta');
    await a.org.admin.post(`${base}/add-quotation`, body(a.r));
    const before = (await a.org.admin.get(`${base}/get-quotation/1`)).body;
    expect((await b.org.admin.get(`${base}/get-quotation/1`)).status).toBe(404);
    expect((await b.org.admin.put(`${base}/update-quotation/1`, body(b.r))).status).toBe(404);
    expect((await b.org.admin.put(`${base}/update-quotation-status/1`, { status: 'salesOrder' })).status).toBe(404);
    expect((await b.org.admin.del(`${base}/delete-quotation/1`)).status).toBe(404);
    expect((await b.org.admin.get(`${base}/get-quotation-pdf/1`)).status).toBe(404);
    expect((await b.org.admin.get(`${base}/get-quotations`)).body.quotations).toEqual([]);
    expect((await b.org.admin.get(`${base}/get-quotation-options`)).body).toEqual([]);
    expect((await a.org.admin.get(`${base}/get-quotation/1`)).body).toEqual(before);
    expect((await a.org.anonymous.get(`${base}/get-quotations`)).status).toBe(401);
  });
  it('tax options: the sales taxes with their children, for the live totals', async () => {
    const { org, r } = await setup();
    const res = await org.admin.get(`${base}/get-tax-options`);
    expect(res.status).toBe(200);
    expect(res.body.map((o: { label: string }) => o.label).sort()).toEqual(['Eco fee A', 'Levy 8% A', 'VAT + Eco A', 'VAT 10% A', 'VAT 15% incl. A']);
    const group = res.body.find((o: { value: number }) => o.value === r.group.id);
    expect(group).toMatchObject({ taxComputation: 'group', isPriceIncluded: false });
    expect(group.children.map((c: { taxComputation: string; amount: number }) => [c.taxComputation, c.amount]).sort()).toEqual([
      ['fixed', 1.5],
      ['percentage_of_price', 10],
    ]);
    const purchase = await org.admin.get('/api/purchase-orders/get-tax-options');
    expect(purchase.body.map((o: { label: string }) => o.label).sort()).toEqual(['Freight A', 'Input VAT 5% A']);
  });

  it('uploads attachments and keeps them on the quotation; files of another organisation are refused', async () => {
    const { org, r } = await setup();
    const bytes = await solidImage('png', 20, 20, '#aa3300');
    const up = await org.admin.upload(`${base}/upload-attachments`, [{ field: 'attachments', name: 'site-photo.png', bytes, type: 'image/png' }]);
    expect(up.status).toBe(200);
    const attachments = up.body.attachments;
    expect(attachments[0]).toMatchObject({ name: 'site-photo.png', url: expect.stringMatching(/^\/uploads\/org-\d+\//) });
    const res = await org.admin.post(`${base}/add-quotation`, body(r, { attachments }));
    expect(res.status).toBe(201);
    expect(res.body.quotation.attachments).toEqual(attachments);
    // the spec's url list is accepted too
    const urls = await org.admin.post(`${base}/add-quotation`, body(r, { attachments: [attachments[0].url] }));
    expect(urls.body.quotation.attachments[0].url).toBe(attachments[0].url);
    const other = await setup('Other');
    const foreign = await other.org.admin.post(`${base}/add-quotation`, body(other.r, { attachments }));
    expect(foreign.status).toBe(400);
  });
  it("prints the company's logo (a stored WebP, converted for the PDF)", async () => {
    const { org, r } = await setup();
    const logo = await solidImage('webp', 120, 60, '#2255aa');
    const up = await org.admin.upload('/api/company/add-profile-picture', [{ field: 'image', name: 'logo.webp', bytes: logo, type: 'image/webp' }]);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    await org.admin.post(`${base}/add-quotation`, body(r));
    const res = await adminGet(t, org, `${base}/get-quotation-pdf/1`);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.toString('latin1')).toContain('/Subtype /Image');
    expect(pdfText(res.rawPayload)).toContain('$362.96');
  });
  it('accepts back what get-quotation returned (read-only fields ignored) and changes only what was edited', async () => {
    const { org, r } = await setup();
    await org.admin.post(`${base}/add-quotation`, body(r));
    const got = (await org.admin.get(`${base}/get-quotation/1`)).body.quotation;
    const { serviceDetails, partDetails, services: _s, parts: _p, ...overview } = got;
    const res = await org.admin.put(`${base}/update-quotation/1`, { overview: { ...overview, note: 'Edited' }, serviceDetails, partDetails });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.quotation).toMatchObject({ note: 'Edited', total: 362.96, number: 'Q-0001' });
    // an echoed salesperson object is read as its id
    const withObject = await org.admin.put(`${base}/update-quotation/1`, {
      ...body(r),
      overview: { ...body(r).overview, salesPerson: { id: 1, firstName: 'x' } },
    });
    expect(withObject.status).toBe(200);
  });
});
