import { withTenant } from '../../server/db/client';
import { assetCategories, customerVendors, teams, uoms } from '../../server/db/schema';
import type { TestApp } from '../../server/test/harness';
import { insertPartBasics, insertPumpsCategory } from '../../server/test/builders';

/**
 * Master data the catalogue points to (asset and product categories, units, a team, a customer and a vendor),
 * inserted directly so these tests do not depend on other areas' APIs.
 */
export async function masterRows(t: TestApp, orgId: number, tag = 'A') {
  return withTenant(t.database.db, orgId, async (tx) => {
    const assetCategory = await insertPumpsCategory(tx, orgId, tag);
    const [assetCategory2] = await tx
      .insert(assetCategories)
      .values({ orgId, name: `Motors ${tag}`, code: `MOT${tag}` })
      .returning();
    const { productCategory, uomCategory, each } = await insertPartBasics(tx, orgId, tag);
    const [box] = await tx
      .insert(uoms)
      .values({ orgId, name: `Box of 10 ${tag}`, categoryId: uomCategory.id, type: 'bigger', ratio: 10 })
      .returning();
    const [team] = await tx
      .insert(teams)
      .values({ orgId, name: `Mechanics ${tag}` })
      .returning();
    const [team2] = await tx
      .insert(teams)
      .values({ orgId, name: `Electricians ${tag}` })
      .returning();
    const [customer] = await tx
      .insert(customerVendors)
      .values({ orgId, name: `Acme Foods ${tag}`, email: `buyer${tag}@acme.example.com`, type: 'customer', category: 'company' })
      .returning();
    const [vendor] = await tx
      .insert(customerVendors)
      .values({ orgId, name: `Bearing World ${tag}`, email: `sales${tag}@bearings.example.com`, type: 'vendor', category: 'company' })
      .returning();
    return { assetCategory, assetCategory2, productCategory, each, box, team, team2, customer, vendor };
  });
}
