/**
 * Rows that other areas' tests point to, inserted directly inside a test's `withTenant` transaction, so a test
 * does not depend on those areas' APIs. `tag` keeps the names of several organisations' rows apart.
 */
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../db/client';
import { and, eq } from 'drizzle-orm';
import { assetCategories, assets, customerVendors, parts, productCategories, uomCategories, uoms, users } from '../db/schema';

/** Inserts one row into `table` and returns it. */
export async function insertRow<T extends PgTable>(tx: Tx, table: T, values: T['$inferInsert']): Promise<T['$inferSelect']> {
  const [row] = await tx.insert(table).values(values).returning();
  return row;
}

/** A company that is a customer or a vendor (`more`: its other fields). */
export function insertCompany(tx: Tx, orgId: number, type: 'customer' | 'vendor', name: string, email: string, more: { city?: string } = {}) {
  return insertRow(tx, customerVendors, { orgId, name, email, type, category: 'company', ...more });
}

/** An asset category "Pumps <tag>" with the code PMP<tag>. */
export async function insertPumpsCategory(tx: Tx, orgId: number, tag = 'A') {
  const category = await insertRow(tx, assetCategories, { orgId, name: `Pumps ${tag}`, code: `PMP${tag}` });
  return category;
}

/** What a part needs: a product category "Spares <tag>", a unit category "Unit <tag>" and its reference unit "Each <tag>". */
export async function insertPartBasics(tx: Tx, orgId: number, tag = 'A') {
  const productCategory = await insertRow(tx, productCategories, { orgId, name: `Spares ${tag}` });
  const uomCategory = await insertRow(tx, uomCategories, { orgId, name: `Unit ${tag}` });
  const each = await insertRow(tx, uoms, { orgId, name: `Each ${tag}`, categoryId: uomCategory.id, type: 'reference' });
  return { productCategory, uomCategory, each };
}

/** Gives a member an hourly rate in minor units (null: none), as a manager's edit of the user would. */
export async function setHourlyRate(tx: Tx, orgId: number, userId: number, hourlyRate: number | null) {
  await tx
    .update(users)
    .set({ hourlyRate })
    .where(and(eq(users.orgId, orgId), eq(users.id, userId)));
}

/** Changes a part's columns (its price, minimum, SKU), as a manager's edit of the part would. */
export async function updatePart(tx: Tx, orgId: number, partId: number, set: Partial<typeof parts.$inferInsert>) {
  await tx
    .update(parts)
    .set(set)
    .where(and(eq(parts.orgId, orgId), eq(parts.id, partId)));
}

/** Makes a member not active (an invitation not accepted), as a deactivation would: refused from then on. */
export async function deactivateUser(tx: Tx, orgId: number, userId: number) {
  await tx
    .update(users)
    .set({ inviteStatus: 'PENDING' })
    .where(and(eq(users.orgId, orgId), eq(users.id, userId)));
}

/** An asset "Pump" in the category Pumps (PMP). */
export async function insertPump(tx: Tx, orgId: number) {
  return (await insertAssetIn(tx, orgId, { name: 'Pumps', code: 'PMP' }, 'Pump')).asset;
}

/** An asset `name` (in service since 2024-01-01) in a new asset category (`category`: its name and code). */
export async function insertAssetIn(tx: Tx, orgId: number, category: { name: string; code: string }, name: string) {
  const made = await insertRow(tx, assetCategories, { orgId, ...category });
  return { category: made, asset: await insertRow(tx, assets, { orgId, name, date: '2024-01-01', assetCategoryId: made.id }) };
}
