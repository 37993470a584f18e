import { withTenant } from '../../server/db/client';
import { assetCategories, assets } from '../../server/db/schema';
import type { TestApp } from '../../server/test/harness';

/** Two assets of one organisation (a category for them too), inserted directly so the tests do not depend on the assets API. */
export async function twoAssets(t: TestApp, orgId: number) {
  return withTenant(t.database.db, orgId, async (tx) => {
    const [category] = await tx.insert(assetCategories).values({ orgId, name: 'Compressors', code: 'CMP' }).returning();
    const [pump] = await tx.insert(assets).values({ orgId, name: 'Feed Pump P-101', date: '2024-01-01', assetCategoryId: category.id }).returning();
    const [press] = await tx.insert(assets).values({ orgId, name: 'Press 7', date: '2024-01-01', assetCategoryId: category.id }).returning();
    return { pump, press };
  });
}
