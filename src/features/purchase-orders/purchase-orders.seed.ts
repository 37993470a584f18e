import type { Tx } from '../../server/db/client';
import { commercialSeedRows, seedLines } from '../quotations/quotations.seed';
import { purchaseOrderDocs } from './purchase-orders.service';

const day = 86_400_000;

/** Demo purchase orders to the demo vendors (lines need a purchase tax). Runs after vendors and the catalogue. */
export async function seedPurchaseOrders(tx: Tx, orgId: number) {
  const { parties, people, serviceRows, partRows, taxRows } = await commercialSeedRows(tx, orgId, 'vendor', 'purchase');
  if (!parties.length || !people.length) return;
  const taxIds = taxRows.map((t) => t.id);
  // without a purchase tax no line can be written: the orders are then kept without lines
  const lines = (rows: { id: number }[], key: 'serviceId' | 'partId', offset: number) => (taxIds.length ? seedLines(rows, key, taxIds, offset, true) : []);
  const plans = [
    { status: 'draft', note: 'Restock bearings and belts for the production lines.' },
    { status: 'sendForApproval', note: 'Filters for the rooftop HVAC units.' },
    { status: 'purchaseSent', note: 'Sent to the vendor by e-mail.' },
    { status: 'purchaseOrder', note: 'Confirmed; delivery to dock 2.' },
  ];
  for (const [i, plan] of plans.entries()) {
    await purchaseOrderDocs.add(
      tx,
      orgId,
      people[0].id,
      {
        vendorId: parties[i % parties.length].id,
        requesterId: people[(i + 1) % people.length].id,
        purchaseOrderDate: new Date(Date.now() - (8 - i) * day),
        expirationDate: new Date(Date.now() + (14 + i * 7) * day),
        status: plan.status,
        note: plan.note,
        serviceDetails: i % 2 ? lines(serviceRows.slice(0, 1), 'serviceId', i) : [],
        partDetails: lines(partRows, 'partId', i),
      },
      { page: 1, pageSize: 10 },
    );
  }
}
