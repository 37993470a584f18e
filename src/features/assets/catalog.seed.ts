import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '../../server/db/client';
import {
  assetCategories,
  assets,
  customerVendors,
  parts,
  productCategories,
  services,
  serviceWorkStations,
  teams,
  uomCategories,
  uoms,
  workStations,
} from '../../server/db/schema';
import { defaultLocationId, postMove, shortageConflict } from '../stock/stock.service';

/** The id of a row named `name` in the organisation, creating it with `values` when it is missing. */
async function findOrCreate<T extends typeof teams | typeof productCategories | typeof assetCategories>(
  tx: Tx,
  orgId: number,
  table: T,
  name: string,
  values: Record<string, unknown>,
): Promise<number> {
  const [row] = await tx
    .select({ id: table.id })
    .from(table as typeof teams)
    .where(and(eq(table.orgId, orgId), eq(table.name, name)));
  if (row) return row.id;
  const [created] = await tx
    .insert(table as typeof teams)
    .values({ orgId, name, ...values } as typeof teams.$inferInsert)
    .returning({ id: table.id });
  return created.id;
}

/** A unit of measure by name (any category), creating a "Unit" category with it when missing. */
async function uomId(tx: Tx, orgId: number, name: string): Promise<number> {
  const [row] = await tx
    .select({ id: uoms.id })
    .from(uoms)
    .where(and(eq(uoms.orgId, orgId), eq(uoms.name, name)));
  if (row) return row.id;
  let [category] = await tx
    .select({ id: uomCategories.id })
    .from(uomCategories)
    .where(and(eq(uomCategories.orgId, orgId), eq(uomCategories.name, 'Unit')));
  [category] = category ? [category] : await tx.insert(uomCategories).values({ orgId, name: 'Unit' }).returning({ id: uomCategories.id });
  const [ref] = await tx
    .select({ id: uoms.id })
    .from(uoms)
    .where(and(eq(uoms.orgId, orgId), eq(uoms.categoryId, category.id), eq(uoms.type, 'reference')));
  const [created] = await tx
    .insert(uoms)
    .values({ orgId, name, categoryId: category.id, type: ref ? 'bigger' : 'reference', ratio: ref ? 10 : 1 })
    .returning({ id: uoms.id });
  return created.id;
}

/**
 * Demo work stations (linked to the maintenance teams), services performed at them, assets and parts
 * with stock. Runs after master data, teams and customers/vendors, finding their rows by name and creating
 * what is missing, so it works on any organisation. Over 150 lines on purpose (issue 40's stated reason): it is
 * the demo's catalogue, rows of data read top to bottom; split, the rows would only move apart from each other.
 */
export async function seedCatalog(tx: Tx, orgId: number) {
  const electrical = await findOrCreate(tx, orgId, teams, 'Electrical Maintenance', {});
  const mechanical = await findOrCreate(tx, orgId, teams, 'Mechanical Maintenance', {});

  const stationRows = await tx
    .insert(workStations)
    .values([
      { orgId, code: 'ASM-01', name: 'Assembly Line 1', city: 'Dayton', teamId: mechanical },
      { orgId, code: 'PKG-01', name: 'Packaging Cell', city: 'Dayton', teamId: mechanical },
      { orgId, code: 'CNC-02', name: 'CNC Machining Center', city: 'Dayton', teamId: mechanical },
      { orgId, code: 'PNT-01', name: 'Paint Booth', city: 'Springfield', teamId: mechanical },
      { orgId, code: 'ELC-01', name: 'Main Electrical Room', city: 'Dayton', teamId: electrical },
      { orgId, code: 'UTL-01', name: 'Boiler & Compressor House', city: 'Springfield', teamId: electrical },
    ])
    .returning({ id: workStations.id, code: workStations.code });
  const station = (code: string) => stationRows.find((s) => s.code === code)!.id;

  // title, price, operations; then each service's steps in order: title, station, operation, time required
  const serviceDefs: [string, number, string][] = [
    ['Conveyor Belt Replacement', 450, '<p>Lock out the conveyor, release belt tension, replace the belt and re-track it.</p>'],
    ['Motor Bearing Replacement', 320, '<p>Pull the coupling, press out worn bearings, fit new 6205-2RS bearings, check vibration.</p>'],
    ['HVAC Filter Change', 85, '<ul><li>Switch off the air handler</li><li>Replace pre-filters and bag filters</li><li>Record the pressure drop</li></ul>'],
    ['Electrical Panel Thermography', 275, '<p>Infrared scan of breakers and terminals under load; report hot spots above 10 °C rise.</p>'],
    ['Compressor Oil Change', 140, '<p>Drain the oil while warm, replace the oil filter and separator, refill to level.</p>'],
    ['Hydraulic Hose Inspection', 120, '<p>Check hoses for abrasion, leaks and bulges; replace any hose older than six years.</p>'],
  ];
  const serviceSteps: [string, string, string, string][] = [
    ['Conveyor Belt Replacement', 'ASM-01', 'Remove and fit the new belt', '02:00'],
    ['Conveyor Belt Replacement', 'PKG-01', 'Align and tension the belt', '00:45'],
    ['Motor Bearing Replacement', 'CNC-02', 'Replace spindle motor bearings', '03:00'],
    ['HVAC Filter Change', 'PNT-01', 'Replace booth intake filters', '01:00'],
    ['HVAC Filter Change', 'UTL-01', 'Replace compressor intake filter', '00:30'],
    ['Electrical Panel Thermography', 'ELC-01', 'Scan main distribution panel', '01:30'],
    ['Electrical Panel Thermography', 'ASM-01', 'Scan line control cabinet', '00:45'],
    ['Compressor Oil Change', 'UTL-01', 'Drain, replace filter and refill', '01:15'],
    ['Hydraulic Hose Inspection', 'CNC-02', 'Inspect clamp hydraulics', '00:40'],
    ['Hydraulic Hose Inspection', 'PKG-01', 'Inspect lift table hoses', '00:30'],
  ];
  for (const [title, price, operations] of serviceDefs) {
    const [svc] = await tx.insert(services).values({ orgId, title, price, operations }).returning({ id: services.id });
    await tx.insert(serviceWorkStations).values(
      serviceSteps
        .filter(([service]) => service === title)
        .map(([, code, operation, timeRequired], position) => ({
          orgId,
          serviceId: svc.id,
          workStationId: station(code),
          operation,
          timeRequired,
          position,
        })),
    );
  }

  const category = async (name: string, code: string) => findOrCreate(tx, orgId, assetCategories, name, { code });
  const hvac = await category('HVAC Equipment', 'HVAC');
  const production = await category('Production Machinery', 'PRD');
  const electricalCat = await category('Electrical Systems', 'ELE');
  const handling = await category('Material Handling', 'MHE');
  const pumps = await category('Pumps & Compressors', 'PMP');
  const facility = await category('Facility & Building', 'FAC');
  const vendorsList = await tx
    .select({ id: customerVendors.id })
    .from(customerVendors)
    .where(and(eq(customerVendors.orgId, orgId), eq(customerVendors.type, 'vendor')))
    .orderBy(asc(customerVendors.id))
    .limit(3);
  const owner = (i: number) => (vendorsList.length ? vendorsList[i % vendorsList.length].id : null);

  // name, serial, asset code, barcode, date, category, and what only some assets have
  type AssetExtra = { customerVendorId?: number | null; status?: 'Not_Operational' };
  const assetDefs: [string, string, string, string, string, number, AssetExtra][] = [
    ['Rooftop Air Handler AHU-1', 'TR-88213-A', 'HVAC-001', '0701234500011', '2019-04-12', hvac, { customerVendorId: owner(0) }],
    ['Chiller CH-2', 'CAR-30XA-4471', 'HVAC-002', '0701234500028', '2020-06-03', hvac, {}],
    ['CNC Lathe Haas ST-20', 'HAAS-3109874', 'PRD-001', '0701234500035', '2021-01-18', production, { customerVendorId: owner(1) }],
    ['Injection Molding Press 250T', 'ENG-250-7712', 'PRD-002', '0701234500042', '2018-09-27', production, { status: 'Not_Operational' }],
    ['Robotic Welder Cell R-30', 'FAN-R30-55120', 'PRD-003', '0701234500059', '2022-03-09', production, {}],
    ['Main Switchboard MSB-1', 'SQD-QED2-1190', 'ELE-001', '0701234500066', '2015-11-02', electricalCat, {}],
    ['Backup Generator 500 kW', 'CAT-C15-88310', 'ELE-002', '0701234500073', '2017-05-21', electricalCat, { customerVendorId: owner(2) }],
    ['Forklift Toyota 8FGU25', 'TOY-8FGU25-61220', 'MHE-001', '0701234500080', '2020-02-14', handling, {}],
    ['Packaging Conveyor PC-3', 'HYT-PC3-2209', 'MHE-002', '0701234500097', '2019-08-30', handling, {}],
    ['Air Compressor Atlas Copco GA37', 'AC-GA37-API771', 'PMP-001', '0701234500103', '2018-12-05', pumps, {}],
    ['Cooling Tower Pump P-101', 'GRF-NB65-3341', 'PMP-002', '0701234500110', '2016-07-19', pumps, { status: 'Not_Operational' }],
    ['Fire Sprinkler Riser Zone A', 'VIK-RZA-0042', 'FAC-001', '0701234500127', '2014-03-11', facility, {}],
  ];
  const descriptions: Record<string, string> = {
    'HVAC-001': 'Trane 20-ton rooftop unit serving the assembly hall.',
    'HVAC-002': 'Carrier air-cooled screw chiller.',
    'PRD-002': 'Hydraulic leak on the clamp cylinder: awaiting seals.',
  };
  await tx.insert(assets).values(
    assetDefs.map(([name, serial, assetCode, assetBarcode, date, assetCategoryId, extra]) => ({
      orgId,
      name,
      serial,
      assetCode,
      assetBarcode,
      date,
      assetCategoryId,
      ...extra,
      ...(descriptions[assetCode] ? { description: descriptions[assetCode] } : {}),
    })),
  );

  const cat = async (name: string) => findOrCreate(tx, orgId, productCategories, name, {});
  const units = await uomId(tx, orgId, 'Units');
  const box = await uomId(tx, orgId, 'Box of 50');
  const liter = await uomId(tx, orgId, 'Liter');
  const meter = await uomId(tx, orgId, 'Meter');
  const partDefs: [string, 'stockable' | 'consumable', string, string, number, number, number, number, number][] = [
    // name, type, sku, category, price, uom, purchase uom, on hand, minimum
    ['Deep Groove Ball Bearing 6205-2RS', 'stockable', 'BRG-6205', 'Bearings', 8.5, units, units, 24, 10],
    ['Tapered Roller Bearing 30206', 'stockable', 'BRG-30206', 'Bearings', 21.75, units, units, 3, 6],
    ['V-Belt A42', 'stockable', 'BLT-A42', 'Belts & Pulleys', 12.4, units, units, 8, 4],
    ['Timing Belt HTD 8M-1200', 'stockable', 'BLT-8M1200', 'Belts & Pulleys', 64, units, units, 1, 2],
    ['Nitrile O-Ring Kit', 'stockable', 'SEL-ORK-382', 'Seals & Gaskets', 39.9, units, units, 5, 2],
    ['Three-Phase Motor 5.5 kW', 'stockable', 'MTR-5K5-4P', 'Motors', 780, units, units, 2, 1],
    ['Proximity Sensor M18 PNP', 'stockable', 'SNS-M18-PNP', 'Sensors', 46.5, units, units, 0, 4],
    ['Circuit Breaker 3P 32A', 'stockable', 'BRK-3P32', 'Fuses & Breakers', 58, units, units, 6, 3],
    ['Hydraulic Oil ISO VG 46', 'stockable', 'LUB-HV46-20', 'Lubricants', 6.8, liter, liter, 120, 60],
    ['Lithium Grease EP2 Cartridge', 'consumable', 'LUB-EP2-400', 'Lubricants', 7.25, units, box, 0, 0],
    ['Pleated Air Filter 24x24x2', 'stockable', 'FLT-242402', 'Filters', 14.6, units, box, 18, 24],
    ['Hex Bolt M12x50 Zinc', 'consumable', 'FST-M12X50', 'Fasteners', 0.45, units, box, 0, 0],
    ['Cable Tie 300 mm', 'consumable', 'FST-CT300', 'Fasteners', 0.08, units, box, 0, 0],
    ['Silicone Hose 25 mm', 'stockable', 'HOS-SIL25', 'Seals & Gaskets', 9.2, meter, meter, 15, 5],
  ];
  for (const [name, type, skuCode, categoryName, salesPrice, unit, purchaseUnit, onHand, minimum] of partDefs) {
    const [part] = await tx
      .insert(parts)
      .values({
        orgId,
        name,
        type,
        skuCode,
        categoryId: await cat(categoryName),
        salesPrice,
        unitOfMeasureId: unit,
        purchaseUnitOfMeasureId: purchaseUnit,
        minimumQuantity: minimum,
      })
      .returning({ id: parts.id });
    // Opening stock through the ledger (decision 071): a move into the default location.
    if (onHand > 0) {
      const toLocationId = await defaultLocationId(tx, orgId);
      await postMove(
        tx,
        orgId,
        { partId: part.id, fromLocationId: null, toLocationId, quantity: onHand, reason: 'initial', userId: null, note: 'Opening stock' },
        { allowNegative: false, shortage: shortageConflict },
      );
    }
  }
}
