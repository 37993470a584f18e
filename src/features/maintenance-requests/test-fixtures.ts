import { withTenant } from '../../server/db/client';
import { assets, customerVendors, parts, services, serviceWorkStations, teams, workStations } from '../../server/db/schema';
import type { TestApp } from '../../server/test/harness';
import { insertPartBasics, insertPumpsCategory } from '../../server/test/builders';

/**
 * Rows of other areas that requests and orders point to, inserted directly (those areas' services are
 * built elsewhere): an asset, a customer, a vendor, two services with a work station, two parts.
 */
export async function catalogue(t: TestApp, orgId: number, tag = 'A') {
  return withTenant(t.database.db, orgId, async (tx) => {
    const category = await insertPumpsCategory(tx, orgId, tag);
    const [asset] = await tx
      .insert(assets)
      .values({ orgId, name: `Boiler Pump ${tag}`, date: '2024-01-15', assetCategoryId: category.id })
      .returning();
    const [asset2] = await tx
      .insert(assets)
      .values({ orgId, name: `Air Compressor ${tag}`, date: '2024-02-01', assetCategoryId: category.id })
      .returning();
    const [customer] = await tx
      .insert(customerVendors)
      .values({ orgId, name: `Acme Foods ${tag}`, email: `buyer${tag}@acme.example.com`, type: 'customer', category: 'company' })
      .returning();
    const [team] = await tx
      .insert(teams)
      .values({ orgId, name: `Mechanics ${tag}` })
      .returning();
    const [station] = await tx
      .insert(workStations)
      .values({ orgId, code: `WS${tag}`, name: `Line 1 ${tag}`, city: 'Dayton', teamId: team.id })
      .returning();
    const [service] = await tx
      .insert(services)
      .values({ orgId, title: `Bearing replacement ${tag}`, price: 120 })
      .returning();
    const [service2] = await tx
      .insert(services)
      .values({ orgId, title: `Lubrication ${tag}`, price: 40 })
      .returning();
    await tx.insert(serviceWorkStations).values({ orgId, serviceId: service.id, workStationId: station.id, operation: 'Replace', timeRequired: '01:00' });
    const { productCategory: pc, each: uom } = await insertPartBasics(tx, orgId, tag);
    const base = { orgId, type: 'stockable' as const, categoryId: pc.id, salesPrice: 10, unitOfMeasureId: uom.id, purchaseUnitOfMeasureId: uom.id };
    const [part] = await tx
      .insert(parts)
      .values({ ...base, name: `Bearing 6204 ${tag}` })
      .returning();
    const [part2] = await tx
      .insert(parts)
      .values({ ...base, name: `Grease cartridge ${tag}` })
      .returning();
    return { asset, asset2, customer, station, service, service2, part, part2 };
  });
}
