import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { adminGet, createOrg, useTestApp, type TestOrg } from '../../server/test/harness';
import { withTenant } from '../../server/db/client';
import { purchaseOrders } from '../../server/db/schema';
import { computeTotals } from '../../shared/tax';
import { pdfText } from '../commercial-documents/document-pdf.service';
import { commercialRows, inDays, type CommercialRows } from '../commercial-documents/test-fixtures';
import { issuesOf } from '../../server/test/issues-of';

const t = useTestApp();

const base = '/api/purchase-orders';

function body(r: CommercialRows, extra: Record<string, unknown> = {}) {
  return {
    overview: { vendor: r.vendor.id, requester: 1, purchaseOrderDate: inDays(0), expirationDate: inDays(14), note: 'Deliver to dock 2', ...extra },
    serviceDetails: [{ serviceId: r.service.id, quantity: 1, unitPrice: 200, discount: 5, taxId: r.purchase5.id, taxAmount: 1, subtotal: 1 }],
    partDetails: [{ partId: r.part.id, partName: 'Bearing 6204', quantity: 10, unitPrice: 9.75, discount: 0, taxId: r.purchaseFixed.id }],
  };
}

async function setup(name = 'Org'): Promise<{ org: TestOrg; r: CommercialRows }> {
  const org = await createOrg(t, name);
  return { org, r: await commercialRows(t, org.orgId) };
}

describe('purchase orders', () => {
  it('adds a purchase order (PO-0001) with totals from the shared engine', async () => {
    const { org, r } = await setup();
    const res = await org.admin.post(`${base}/add-purchase-order`, body(r));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe('Purchase order added successfully');
    const exp = computeTotals(
      [
        { quantity: 1, unitPrice: 20000, discount: 5, tax: { taxComputation: 'percentage_of_price', amount: 5, isPriceIncluded: false } },
        { quantity: 10, unitPrice: 975, discount: 0, tax: { taxComputation: 'fixed', amount: 4, isPriceIncluded: false } },
      ],
      { digits: 2 },
    );
    // 19000 + 950 tax; 9750 + 4000 tax
    expect(exp.total).toBe(33700);
    expect(res.body.purchaseOrder).toMatchObject({
      number: 'PO-0001',
      purchaseOrderId: 'PO-0001',
      status: 'draft',
      vendorId: r.vendor.id,
      CustomerVendor: { name: 'Bearing World A' },
      requester: { id: 1 },
      total: 337,
      totals: { rawSubtotal: 297.5, totalDiscount: 10, untaxed: 287.5, totalTax: 49.5, total: 337 },
    });
    // a part line defaults to the part's purchase unit
    expect(res.body.purchaseOrder.partDetails[0]).toMatchObject({ partName: 'Bearing 6204', unitPrice: 9.75, taxAmount: 40, subtotal: 137.5, uomId: r.box.id });
    expect(res.body.purchaseOrders).toHaveLength(1);
    const [stored] = await withTenant(t.database.db, org.orgId, (tx) => tx.select().from(purchaseOrders).where(eq(purchaseOrders.orgId, org.orgId)));
    expect(stored.total).toBe(exp.total);
    expect(stored.totalTax).toBe(exp.totalTax);
  });

  it("gives the spec's messages; a line needs a purchase tax", async () => {
    const { org, r } = await setup();
    const empty = await org.admin.post(`${base}/add-purchase-order`, { overview: {} });
    expect(issuesOf(empty.body)).toMatchObject({
      vendorId: 'Vendor is required',
      requesterId: 'Requester is required',
      purchaseOrderDate: 'Purchase order date is required',
    });
    expect(issuesOf((await org.admin.post(`${base}/add-purchase-order`, body(r, { status: 'quotation' }))).body)).toEqual({
      status: 'Invalid status selected',
    });
    const noTax = await org.admin.post(`${base}/add-purchase-order`, { ...body(r), partDetails: [{ partId: r.part.id, quantity: 0 }] });
    expect(issuesOf(noTax.body)).toEqual({ 'partDetails.0.quantity': 'Quantity must be at least 1', 'partDetails.0.taxId': 'Tax is required' });
    const salesTax = await org.admin.post(`${base}/add-purchase-order`, { ...body(r), partDetails: [{ partId: r.part.id, quantity: 1, taxId: r.vat10.id }] });
    expect(salesTax.status).toBe(400);
    expect(salesTax.body).toMatchObject({ error: 'Purchase order lines take purchase taxes', issues: [{ path: 'partDetails.0.taxId' }] });
    expect((await org.admin.post(`${base}/add-purchase-order`, body(r, { vendor: 99 }))).body.error).toBe('Vendor not found');
    expect((await org.admin.post(`${base}/add-purchase-order`, body(r, { requester: 99 }))).body.error).toBe('Requester not found');
  });

  it('takes a vendor, never a customer, as the vendor (field message)', async () => {
    const { org, r } = await setup();
    const customer = await org.admin.post('/api/purchase-orders/add-purchase-order', body(r, { vendor: r.customer.id }));
    expect(customer.status).toBe(400);
    expect(customer.body).toEqual({
      error: 'The vendor must be a vendor, not a customer',
      issues: [{ path: 'vendorId', message: 'The vendor must be a vendor, not a customer' }],
    });
    expect((await org.admin.get('/api/purchase-orders/get-purchase-orders')).body.pagination.totalRecords).toBe(0);
    expect((await org.admin.post('/api/purchase-orders/add-purchase-order', body(r))).status).toBe(201);
  });

  it('moves from draft to purchaseOrder through the status call', async () => {
    const { org, r } = await setup();
    await org.admin.post(`${base}/add-purchase-order`, body(r));
    for (const status of ['sendForApproval', 'purchaseSent', 'purchaseOrder']) {
      const res = await org.admin.put(`${base}/update-purchase-order-status/1`, { status });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ message: 'Purchase order status updated successfully', status, purchaseOrder: { status } });
    }
    expect((await org.admin.get(`${base}/get-purchase-order/1`)).body.purchaseOrder.status).toBe('purchaseOrder');
    expect((await org.admin.put(`${base}/update-purchase-order-status/1`, { status: 'salesOrder' })).status).toBe(400);
  });

  it('lists (name and status filters), gets, updates, options, deletes', async () => {
    const { org, r } = await setup();
    for (let i = 0; i < 3; i++) await org.admin.post(`${base}/add-purchase-order`, body(r, { status: i === 0 ? 'purchaseSent' : 'draft' }));
    const list = await org.admin.get(`${base}/get-purchase-orders?status=purchaseSent`);
    expect(list.body.purchaseOrders.map((p: { number: string }) => p.number)).toEqual(['PO-0001']);
    expect(list.body.purchaseOrders[0]).toMatchObject({ CustomerVendor: { name: 'Bearing World A' }, requester: { id: 1 }, total: 337 });
    expect((await org.admin.get(`${base}/get-purchase-orders?name=bearing`)).body.pagination.totalRecords).toBe(3);
    expect((await org.admin.get(`${base}/get-purchase-orders?name=PO-0002`)).body.purchaseOrders.map((p: { id: number }) => p.id)).toEqual([2]);
    const got = await org.admin.get(`${base}/get-purchase-order/2`);
    expect(got.body.services).toHaveLength(1);
    expect(got.body.parts).toHaveLength(1);
    const upd = await org.admin.put(`${base}/update-purchase-order/2`, { ...body(r), partDetails: [] });
    expect(upd.status).toBe(200);
    expect(upd.body.message).toBe('Purchase order updated successfully');
    expect(upd.body.purchaseOrder.total).toBe(199.5);
    expect((await org.admin.get(`${base}/get-purchase-order-options`)).body.map((o: { label: string }) => o.label)).toEqual([
      'PO-0003 - Bearing World A',
      'PO-0002 - Bearing World A',
      'PO-0001 - Bearing World A',
    ]);
    const worker = await org.as('worker');
    expect((await worker.del(`${base}/delete-purchase-order/2`)).status).toBe(403);
    // Only managers change a purchase order's status (decision 012), through its call or through the form.
    expect((await worker.put(`${base}/update-purchase-order-status/2`, { status: 'purchaseOrder' })).status).toBe(403);
    expect((await worker.put(`${base}/update-purchase-order/2`, body(r, { status: 'purchaseOrder' }))).status).toBe(200);
    expect((await org.admin.get(`${base}/get-purchase-order/2`)).body.purchaseOrder.status).toBe('draft');
    const del = await org.admin.del(`${base}/delete-purchase-order/2`);
    expect(del.body.message).toBe('Purchase order deleted successfully');
    expect(del.body.purchaseOrders.map((p: { id: number }) => p.id)).toEqual([3, 1]);
  });

  it('prints a PDF', async () => {
    const { org, r } = await setup();
    await org.admin.post(`${base}/add-purchase-order`, body(r));
    const res = await adminGet(t, org, `${base}/get-purchase-order-pdf/1`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = pdfText(res.rawPayload);
    for (const s of ['Purchase Order', 'PO-0001', 'Bearing World A', 'Freight A', '$337.00', 'Deliver to dock 2']) expect(text).toContain(s);
  });

  it('isolation: another organisation gets 404 and changes nothing', async () => {
    const a = await setup('Alpha');
    const b = await setup('Beta');
    await a.org.admin.post(`${base}/add-purchase-order`, body(a.r));
    const before = (await a.org.admin.get(`${base}/get-purchase-order/1`)).body;
    expect((await b.org.admin.get(`${base}/get-purchase-order/1`)).status).toBe(404);
    expect((await b.org.admin.put(`${base}/update-purchase-order/1`, body(b.r))).status).toBe(404);
    expect((await b.org.admin.put(`${base}/update-purchase-order-status/1`, { status: 'purchaseOrder' })).status).toBe(404);
    expect((await b.org.admin.del(`${base}/delete-purchase-order/1`)).status).toBe(404);
    expect((await b.org.admin.get(`${base}/get-purchase-order-pdf/1`)).status).toBe(404);
    expect((await b.org.admin.get(`${base}/get-purchase-orders`)).body.purchaseOrders).toEqual([]);
    expect((await a.org.admin.get(`${base}/get-purchase-order/1`)).body).toEqual(before);
  });
});
