import { withTenant } from '../../server/db/client';
import { assets, parts, services, serviceWorkStations, teams, workStations } from '../../server/db/schema';
import type { TestApp } from '../../server/test/harness';
import { insertPartBasics, insertPumpsCategory, insertCompany, insertRow } from '../../server/test/builders';

/**
 * Rows of other areas that requests and orders point to, inserted directly (those areas' services are
 * built elsewhere): an asset, a customer, a vendor, two services with a work station, two parts.
 */
export async function catalogue(t: TestApp, orgId: number, tag = 'A') {
  return withTenant(t.database.db, orgId, async (tx) => {
    const category = await insertPumpsCategory(tx, orgId, tag);
    const asset = await insertRow(tx, assets, { orgId, name: `Boiler Pump ${tag}`, date: '2024-01-15', assetCategoryId: category.id });
    const asset2 = await insertRow(tx, assets, { orgId, name: `Air Compressor ${tag}`, date: '2024-02-01', assetCategoryId: category.id });
    const customer = await insertCompany(tx, orgId, 'customer', `Acme Foods ${tag}`, `buyer${tag}@acme.example.com`);
    const team = await insertRow(tx, teams, { orgId, name: `Mechanics ${tag}` });
    const station = await insertRow(tx, workStations, { orgId, code: `WS${tag}`, name: `Line 1 ${tag}`, city: 'Dayton', teamId: team.id });
    const service = await insertRow(tx, services, { orgId, title: `Bearing replacement ${tag}`, price: 120 });
    const service2 = await insertRow(tx, services, { orgId, title: `Lubrication ${tag}`, price: 40 });
    await tx.insert(serviceWorkStations).values({ orgId, serviceId: service.id, workStationId: station.id, operation: 'Replace', timeRequired: '01:00' });
    const { productCategory: pc, each: uom } = await insertPartBasics(tx, orgId, tag);
    const base = { orgId, type: 'stockable' as const, categoryId: pc.id, salesPrice: 10, unitOfMeasureId: uom.id, purchaseUnitOfMeasureId: uom.id };
    const part = await insertRow(tx, parts, { ...base, name: `Bearing 6204 ${tag}` });
    const part2 = await insertRow(tx, parts, { ...base, name: `Grease cartridge ${tag}` });
    return { asset, asset2, customer, station, service, service2, part, part2 };
  });
}
