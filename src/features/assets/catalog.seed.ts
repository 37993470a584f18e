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
 * what is missing, so it works on any organisation.
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

  const serviceDefs: { title: string; price: number; operations: string; stations: [string, string, string][] }[] = [
    {
      title: 'Conveyor Belt Replacement',
      price: 450,
      operations: '<p>Lock out the conveyor, release belt tension, replace the belt and re-track it.</p>',
      stations: [
        ['ASM-01', 'Remove and fit the new belt', '02:00'],
        ['PKG-01', 'Align and tension the belt', '00:45'],
      ],
    },
    {
      title: 'Motor Bearing Replacement',
      price: 320,
      operations: '<p>Pull the coupling, press out worn bearings, fit new 6205-2RS bearings, check vibration.</p>',
      stations: [['CNC-02', 'Replace spindle motor bearings', '03:00']],
    },
    {
      title: 'HVAC Filter Change',
      price: 85,
      operations: '<ul><li>Switch off the air handler</li><li>Replace pre-filters and bag filters</li><li>Record the pressure drop</li></ul>',
      stations: [
        ['PNT-01', 'Replace booth intake filters', '01:00'],
        ['UTL-01', 'Replace compressor intake filter', '00:30'],
      ],
    },
    {
      title: 'Electrical Panel Thermography',
      price: 275,
      operations: '<p>Infrared scan of breakers and terminals under load; report hot spots above 10 °C rise.</p>',
      stations: [
        ['ELC-01', 'Scan main distribution panel', '01:30'],
        ['ASM-01', 'Scan line control cabinet', '00:45'],
      ],
    },
    {
      title: 'Compressor Oil Change',
      price: 140,
      operations: '<p>Drain the oil while warm, replace the oil filter and separator, refill to level.</p>',
      stations: [['UTL-01', 'Drain, replace filter and refill', '01:15']],
    },
    {
      title: 'Hydraulic Hose Inspection',
      price: 120,
      operations: '<p>Check hoses for abrasion, leaks and bulges; replace any hose older than six years.</p>',
      stations: [
        ['CNC-02', 'Inspect clamp hydraulics', '00:40'],
        ['PKG-01', 'Inspect lift table hoses', '00:30'],
      ],
    },
  ];
  for (const def of serviceDefs) {
    const [svc] = await tx.insert(services).values({ orgId, title: def.title, price: def.price, operations: def.operations }).returning({ id: services.id });
    await tx.insert(serviceWorkStations).values(
      def.stations.map(([code, operation, timeRequired], position) => ({
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

  await tx.insert(assets).values([
    {
      orgId,
      name: 'Rooftop Air Handler AHU-1',
      serial: 'TR-88213-A',
      assetCode: 'HVAC-001',
      assetBarcode: '0701234500011',
      date: '2019-04-12',
      assetCategoryId: hvac,
      customerVendorId: owner(0),
      description: 'Trane 20-ton rooftop unit serving the assembly hall.',
    },
    {
      orgId,
      name: 'Chiller CH-2',
      serial: 'CAR-30XA-4471',
      assetCode: 'HVAC-002',
      assetBarcode: '0701234500028',
      date: '2020-06-03',
      assetCategoryId: hvac,
      description: 'Carrier air-cooled screw chiller.',
    },
    {
      orgId,
      name: 'CNC Lathe Haas ST-20',
      serial: 'HAAS-3109874',
      assetCode: 'PRD-001',
      assetBarcode: '0701234500035',
      date: '2021-01-18',
      assetCategoryId: production,
      customerVendorId: owner(1),
    },
    {
      orgId,
      name: 'Injection Molding Press 250T',
      serial: 'ENG-250-7712',
      assetCode: 'PRD-002',
      assetBarcode: '0701234500042',
      date: '2018-09-27',
      assetCategoryId: production,
      status: 'Not_Operational' as const,
      description: 'Hydraulic leak on the clamp cylinder: awaiting seals.',
    },
    {
      orgId,
      name: 'Robotic Welder Cell R-30',
      serial: 'FAN-R30-55120',
      assetCode: 'PRD-003',
      assetBarcode: '0701234500059',
      date: '2022-03-09',
      assetCategoryId: production,
    },
    {
      orgId,
      name: 'Main Switchboard MSB-1',
      serial: 'SQD-QED2-1190',
      assetCode: 'ELE-001',
      assetBarcode: '0701234500066',
      date: '2015-11-02',
      assetCategoryId: electricalCat,
    },
    {
      orgId,
      name: 'Backup Generator 500 kW',
      serial: 'CAT-C15-88310',
      assetCode: 'ELE-002',
      assetBarcode: '0701234500073',
      date: '2017-05-21',
      assetCategoryId: electricalCat,
      customerVendorId: owner(2),
    },
    {
      orgId,
      name: 'Forklift Toyota 8FGU25',
      serial: 'TOY-8FGU25-61220',
      assetCode: 'MHE-001',
      assetBarcode: '0701234500080',
      date: '2020-02-14',
      assetCategoryId: handling,
    },
    {
      orgId,
      name: 'Packaging Conveyor PC-3',
      serial: 'HYT-PC3-2209',
      assetCode: 'MHE-002',
      assetBarcode: '0701234500097',
      date: '2019-08-30',
      assetCategoryId: handling,
    },
    {
      orgId,
      name: 'Air Compressor Atlas Copco GA37',
      serial: 'AC-GA37-API771',
      assetCode: 'PMP-001',
      assetBarcode: '0701234500103',
      date: '2018-12-05',
      assetCategoryId: pumps,
    },
    {
      orgId,
      name: 'Cooling Tower Pump P-101',
      serial: 'GRF-NB65-3341',
      assetCode: 'PMP-002',
      assetBarcode: '0701234500110',
      date: '2016-07-19',
      assetCategoryId: pumps,
      status: 'Not_Operational' as const,
    },
    {
      orgId,
      name: 'Fire Sprinkler Riser Zone A',
      serial: 'VIK-RZA-0042',
      assetCode: 'FAC-001',
      assetBarcode: '0701234500127',
      date: '2014-03-11',
      assetCategoryId: facility,
    },
  ]);

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
