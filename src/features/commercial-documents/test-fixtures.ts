import { withTenant } from '../../server/db/client';
import { parts, services, taxChildren, taxes, uoms } from '../../server/db/schema';
import type { TestApp } from '../../server/test/harness';
import { insertPartBasics, insertCompany, insertRow } from '../../server/test/builders';

/**
 * What quotation and purchase-order lines point to (customers, vendors, services, parts, units, sales and
 * purchase taxes of every computation), inserted directly so these tests do not depend on other areas' APIs.
 */
export async function commercialRows(t: TestApp, orgId: number, tag = 'A') {
  return withTenant(t.database.db, orgId, async (tx) => {
    const { productCategory: category, uomCategory, each } = await insertPartBasics(tx, orgId, tag);
    const box = await insertRow(tx, uoms, { orgId, name: `Box ${tag}`, categoryId: uomCategory.id, type: 'bigger', ratio: 10 });
    const customer = await insertCompany(tx, orgId, 'customer', `Acme Foods ${tag}`, `buyer${tag.toLowerCase()}@acme.example.com`, { city: 'Dayton' });
    const vendor = await insertCompany(tx, orgId, 'vendor', `Bearing World ${tag}`, `sales${tag.toLowerCase()}@bearings.example.com`);
    const service = await insertRow(tx, services, { orgId, title: `Pump overhaul ${tag}`, price: 120 });
    const service2 = await insertRow(tx, services, { orgId, title: `Motor alignment ${tag}`, price: 75.5 });
    const part = await insertRow(tx, parts, {
      orgId,
      name: `Bearing 6204 ${tag}`,
      type: 'stockable',
      categoryId: category.id,
      salesPrice: 12.99,
      unitOfMeasureId: each.id,
      purchaseUnitOfMeasureId: box.id,
    });
    const part2 = await insertRow(tx, parts, {
      orgId,
      name: `V-belt A42 ${tag}`,
      type: 'consumable',
      categoryId: category.id,
      salesPrice: 8.4,
      unitOfMeasureId: each.id,
      purchaseUnitOfMeasureId: each.id,
    });
    const tax = (
      name: string,
      scope: 'sales' | 'purchase',
      taxComputation: (typeof taxes.$inferInsert)['taxComputation'],
      amount: number | null,
      isPriceIncluded = false,
    ) =>
      tx
        .insert(taxes)
        .values({ orgId, name: `${name} ${tag}`, scope, taxComputation, amount, isPriceIncluded })
        .returning()
        .then((r) => r[0]);
    const vat10 = await tax('VAT 10%', 'sales', 'percentage_of_price', 10);
    const eco = await tax('Eco fee', 'sales', 'fixed', 1.5);
    const incl15 = await tax('VAT 15% incl.', 'sales', 'percentage_of_price', 15, true);
    const div8 = await tax('Levy 8%', 'sales', 'percentage_of_price_tax_included', 8);
    const group = await tax('VAT + Eco', 'sales', 'group', null);
    await tx.insert(taxChildren).values([
      { orgId, groupId: group.id, childId: vat10.id },
      { orgId, groupId: group.id, childId: eco.id },
    ]);
    const purchase5 = await tax('Input VAT 5%', 'purchase', 'percentage_of_price', 5);
    const purchaseFixed = await tax('Freight', 'purchase', 'fixed', 4);
    return { category, each, box, customer, vendor, service, service2, part, part2, vat10, eco, incl15, div8, group, purchase5, purchaseFixed };
  });
}

/** What `commercialRows` made: the rows a quotation or purchase order test points to. */
export type CommercialRows = Awaited<ReturnType<typeof commercialRows>>;

/** An ISO date `days` from now. */
export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
