import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '../../server/db/client';
import { customerVendors, parts, services, taxes, users } from '../../server/db/schema';
import { quotationDocs } from './quotations.service';
import type { LineValues } from '../commercial-documents/document-lines.schema';

const day = 86_400_000;

/** Rows of earlier areas the demo documents point to (found inside the organisation, whatever exists). */
export async function commercialSeedRows(tx: Tx, orgId: number, partyType: 'customer' | 'vendor', taxScope: 'sales' | 'purchase') {
  const parties = await tx
    .select({ id: customerVendors.id })
    .from(customerVendors)
    .where(and(eq(customerVendors.orgId, orgId), eq(customerVendors.type, partyType)))
    .orderBy(asc(customerVendors.id));
  const people = await tx.select({ id: users.id }).from(users).where(eq(users.orgId, orgId)).orderBy(asc(users.id));
  const serviceRows = await tx.select({ id: services.id }).from(services).where(eq(services.orgId, orgId)).orderBy(asc(services.id)).limit(4);
  const partRows = await tx.select({ id: parts.id }).from(parts).where(eq(parts.orgId, orgId)).orderBy(asc(parts.id)).limit(4);
  const taxRows = await tx
    .select({ id: taxes.id, computation: taxes.taxComputation })
    .from(taxes)
    .where(and(eq(taxes.orgId, orgId), eq(taxes.scope, taxScope)))
    .orderBy(asc(taxes.id));
  return { parties, people, serviceRows, partRows, taxRows };
}

/** A few lines from what exists: quantity, discount and a tax picked in turn. */
export function seedLines(rows: { id: number }[], key: 'serviceId' | 'partId', taxIds: number[], offset: number, requireTax = false): LineValues[] {
  return rows.slice(0, 2).map((r, i) => ({
    [key]: r.id,
    quantity: [1, 2, 4, 3][(i + offset) % 4],
    discount: [0, 10, 5, 0][(i + offset) % 4],
    taxId: taxIds.length ? taxIds[(i + offset) % taxIds.length] : requireTax ? undefined : null,
  }));
}

/** Demo quotations for the demo customers, in several statuses. Runs after customers and the catalogue. */
export async function seedQuotations(tx: Tx, orgId: number) {
  const { parties, people, serviceRows, partRows, taxRows } = await commercialSeedRows(tx, orgId, 'customer', 'sales');
  if (!parties.length || !people.length) return;
  const taxIds = taxRows.map((t) => t.id);
  const plans = [
    { status: 'draft', note: 'Annual pump overhaul for the Columbus plant.' },
    { status: 'sendForApproval', note: 'Includes spare bearings kept on site.' },
    { status: 'quotationSent', note: 'Quoted after the site survey of last week.' },
    { status: 'salesOrder', note: 'Accepted by the customer; schedule with the mechanics team.' },
    { status: 'quotation', note: null },
  ];
  for (const [i, plan] of plans.entries()) {
    await quotationDocs.add(
      tx,
      orgId,
      people[0].id,
      {
        customerId: parties[i % parties.length].id,
        salesPersonId: people[i % Math.min(people.length, 2)].id,
        quotationDate: new Date(Date.now() - (10 - i) * day),
        expirationDate: new Date(Date.now() + (20 + i * 5) * day),
        status: plan.status,
        note: plan.note ?? undefined,
        serviceDetails: seedLines(serviceRows, 'serviceId', taxIds, i),
        partDetails: seedLines(partRows.slice(i % 2), 'partId', taxIds, i + 1),
      },
      { page: 1, pageSize: 10 },
    );
  }
}
