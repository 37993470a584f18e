/**
 * Rows that other areas' tests point to, inserted directly inside a test's `withTenant` transaction, so a test
 * does not depend on those areas' APIs. `tag` keeps the names of several organisations' rows apart.
 */
import type { Tx } from '../db/client';
import { assetCategories, productCategories, uomCategories, uoms } from '../db/schema';

/** An asset category "Pumps <tag>" with the code PMP<tag>. */
export async function insertPumpsCategory(tx: Tx, orgId: number, tag = 'A') {
  const [category] = await tx
    .insert(assetCategories)
    .values({ orgId, name: `Pumps ${tag}`, code: `PMP${tag}` })
    .returning();
  return category;
}

/** What a part needs: a product category "Spares <tag>", a unit category "Unit <tag>" and its reference unit "Each <tag>". */
export async function insertPartBasics(tx: Tx, orgId: number, tag = 'A') {
  const [productCategory] = await tx
    .insert(productCategories)
    .values({ orgId, name: `Spares ${tag}` })
    .returning();
  const [uomCategory] = await tx
    .insert(uomCategories)
    .values({ orgId, name: `Unit ${tag}` })
    .returning();
  const [each] = await tx
    .insert(uoms)
    .values({ orgId, name: `Each ${tag}`, categoryId: uomCategory.id, type: 'reference' })
    .returning();
  return { productCategory, uomCategory, each };
}
