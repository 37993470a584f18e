import { withTenant } from '../../server/db/client';
import { assetCategories, teams, uoms } from '../../server/db/schema';
import { expect } from 'vitest';
import type { TestApp, TestOrg } from '../../server/test/harness';
import { insertPartBasics, insertPumpsCategory, insertCompany, insertRow } from '../../server/test/builders';

/**
 * Master data the catalogue points to (asset and product categories, units, a team, a customer and a vendor),
 * inserted directly so these tests do not depend on other areas' APIs.
 */
export async function masterRows(t: TestApp, orgId: number, tag = 'A') {
  return withTenant(t.database.db, orgId, async (tx) => {
    const assetCategory = await insertPumpsCategory(tx, orgId, tag);
    const assetCategory2 = await insertRow(tx, assetCategories, { orgId, name: `Motors ${tag}`, code: `MOT${tag}` });
    const { productCategory, uomCategory, each } = await insertPartBasics(tx, orgId, tag);
    const box = await insertRow(tx, uoms, { orgId, name: `Box of 10 ${tag}`, categoryId: uomCategory.id, type: 'bigger', ratio: 10 });
    const team = await insertRow(tx, teams, { orgId, name: `Mechanics ${tag}` });
    const team2 = await insertRow(tx, teams, { orgId, name: `Electricians ${tag}` });
    const customer = await insertCompany(tx, orgId, 'customer', `Acme Foods ${tag}`, `buyer${tag}@acme.example.com`);
    const vendor = await insertCompany(tx, orgId, 'vendor', `Bearing World ${tag}`, `sales${tag}@bearings.example.com`);
    return { assetCategory, assetCategory2, productCategory, each, box, team, team2, customer, vendor };
  });
}

/** A stockable part "Seal kit" added through the API (sold at 4, in the master rows' category and unit), `over` changing its fields. */
export async function addStockablePart(org: TestOrg, m: { productCategory: { id: number }; each: { id: number } }, over: Record<string, unknown> = {}) {
  const res = await org.admin.post('/api/parts/add-part', {
    name: 'Seal kit',
    type: 'stockable',
    categoryId: m.productCategory.id,
    salesPrice: 4,
    unitOfMeasureId: m.each.id,
    purchaseUnitOfMeasureId: m.each.id,
    ...over,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.part as { id: number; name: string; quantityOnHand: number };
}

/** A location added through the API (under `parentId` when given); its id. */
export async function addLocation(org: TestOrg, name: string, parentId?: number) {
  return (await org.admin.post('/api/locations/add-location', { name, parentId })).body.location.id as number;
}

/** The locations Site > Hall > Bay added through the API; their ids. */
export async function siteHallBay(org: TestOrg) {
  const site = await addLocation(org, 'Site');
  const hall = await addLocation(org, 'Hall', site);
  const bay = await addLocation(org, 'Bay', hall);
  return { site, hall, bay };
}

/** An asset added through the API (dated 2024-01-01, in the master rows' first category unless `extra` says); its id. */
export async function addAsset(org: TestOrg, m: { assetCategory: { id: number } }, name: string, extra: Record<string, unknown> = {}) {
  const res = await org.admin.post('/api/assets/add-asset', { name, date: '2024-01-01', assetCategoryId: m.assetCategory.id, ...extra });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.asset.id as number;
}

/** A contractor's labour line (kept rate, no worker) on `workOrderId`: `minutes` from 08:00 UTC on `day`, at `rate` minor units an hour. */
export const contractorLabour = (orgId: number, day: string, workOrderId: number, minutes: number, rate: number) => ({
  orgId,
  workOrderId,
  shareId: 1,
  externalName: 'Contractor',
  externalRateMinor: rate,
  startDate: new Date(`${day}T08:00:00Z`),
  endDate: new Date(Date.parse(`${day}T08:00:00Z`) + minutes * 60_000),
});
